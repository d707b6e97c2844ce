package main

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
)

// section is one generated part of a page: the lines between
// "<!-- BEGIN GENERATED name -->" and "<!-- END GENERATED name -->".
type section struct {
	page, name string
	body       func() string
}

func sections() []section {
	return []section{
		{"unfairchess.md", "catalog", func() string { return catalog(unfair.Rules{}.Catalog()) }},
		{"magic-chess.md", "catalog", func() string { return magicCatalog(magicchess.Entries()) }},
		{"solwaris.md", "arenas", func() string { return arenas(arena.Maps()) }},
		{"solwaris.md", "classes", func() string { return classes(grimoire.Classes()) }},
		{"solwaris.md", "bonuses", func() string { return bonuses(solwaris.BonusKinds()) }},
	}
}

// splice replaces the body of section name in doc.
func splice(doc, name, body string) (string, error) {
	begin := "<!-- BEGIN GENERATED " + name + " (go run ./internal/gamedocs; do not edit) -->\n"
	end := "<!-- END GENERATED " + name + " -->"
	i := strings.Index(doc, begin)
	j := strings.Index(doc, end)
	if i < 0 || j < i {
		return "", fmt.Errorf("the markers of section %q are missing or out of order: the page needs the line %q and, after it, %q", name, strings.TrimSuffix(begin, "\n"), end)
	}
	return doc[:i+len(begin)] + body + doc[j:], nil
}

// groupTitles names the catalog's groups for a reader, in the order the page lists them.
var groupTitles = []struct{ id, title string }{
	{"statuses", "Statuses"},
	{"movement", "Movement"},
	{"teleports", "Teleports and swaps"},
	{"returns", "Returns"},
	{"board", "Board control"},
	{"hand", "Hand and deck"},
	{"extra", "Extra actions"},
}

var costWords = map[string]string{unfair.ReplacesMove: "replaces the move", unfair.AddsToMove: "adds to the move"}

// catalog is the card catalog as Markdown: the totals, then one table per group.
func catalog(entries []cards.Card) string {
	var b strings.Builder
	deck, rarities, costs := 0, map[string]int{}, map[string]int{}
	for _, c := range entries {
		deck += c.Copies
		rarities[c.Rarity]++
		costs[c.Cost]++
	}
	fmt.Fprintf(&b, "%d distinct cards, decks of %d: %d common (%d copies each), %d rare (%d), %d legendary (%d); %d replace the move, %d add to it.\n",
		len(entries), deck,
		rarities[unfair.Common], copiesOf(entries, unfair.Common),
		rarities[unfair.Rare], copiesOf(entries, unfair.Rare),
		rarities[unfair.Legendary], copiesOf(entries, unfair.Legendary),
		costs[unfair.ReplacesMove], costs[unfair.AddsToMove])
	listed := 0
	for _, g := range groupTitles {
		var in []cards.Card
		for _, c := range entries {
			if c.Group == g.id {
				in = append(in, c)
			}
		}
		if len(in) == 0 {
			continue
		}
		listed += len(in)
		fmt.Fprintf(&b, "\n### %s (`%s`, %d cards)\n\n", g.title, g.id, len(in))
		b.WriteString("| ID | Name (French) | Rarity, copies | Cost | Targets | Effect |\n| --- | --- | --- | --- | --- | --- |\n")
		for _, c := range in {
			fmt.Fprintf(&b, "| `%s` | %s (%s) | %s, %d | %s | %s | %s |\n",
				c.ID, cell(c.NameEn), cell(c.NameFr), strings.ToLower(c.Rarity), c.Copies,
				costWords[c.Cost], targets(c.Targets), cell(c.TextEn))
		}
	}
	if listed != len(entries) {
		// A group the page does not know yet: list it rather than lose cards silently.
		panic(fmt.Sprintf("gamedocs: %d of %d cards are in groups missing from groupTitles", len(entries)-listed, len(entries)))
	}
	return b.String()
}

func copiesOf(entries []cards.Card, rarity string) int {
	for _, c := range entries {
		if c.Rarity == rarity {
			return c.Copies
		}
	}
	return 0
}

// targets writes a card's target words as the API's targets list expects them, in order.
func targets(t string) string {
	if t == "none" {
		return "none"
	}
	return "`" + strings.Join(strings.Fields(t), "`, `") + "`"
}

// cell escapes what would break a table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
