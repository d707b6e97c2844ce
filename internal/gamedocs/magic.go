package main

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/games/magicchess"
)

// magicGroups names Ajedrez Mágico's groups for a reader, in the order the page lists them.
var magicGroups = []struct{ id, title string }{
	{"board", "Board cards: the card is the turn"},
	{"lasting", "Lasting cards: face up for their owner's turns"},
	{"movement", "Movement cards: a move follows"},
	{"close", "Closing cards: a move follows, the card acts as the turn closes"},
	{"mate-save", "Mate saves: only in check"},
	{"reaction", "Reactions: the advanced mode's"},
}

// magicCatalog is Ajedrez Mágico's catalog as Markdown: one table per group.
func magicCatalog(entries []magicchess.Entry) string {
	var b strings.Builder
	implemented := 0
	for _, e := range entries {
		if magicchess.Implemented(e.ID) {
			implemented++
		}
	}
	fmt.Fprintf(&b, "%d cards, one copy each; %d played by the server so far.\n", len(entries), implemented)
	listed := 0
	for _, g := range magicGroups {
		var in []magicchess.Entry
		for _, e := range entries {
			if e.Group == g.id {
				in = append(in, e)
			}
		}
		listed += len(in)
		fmt.Fprintf(&b, "\n### %s (`%s`, %d cards)\n\n", g.title, g.id, len(in))
		b.WriteString("| ID | Name (Spanish) | Window, duration | Targets | Effect | Played |\n| --- | --- | --- | --- | --- | --- |\n")
		for _, e := range in {
			window := e.Window
			if e.Duration > 0 {
				window += fmt.Sprintf(", %d of its owner's turns", e.Duration)
			}
			if e.Reaction != "" {
				window += ", " + e.Reaction
			}
			played := "yes"
			if !magicchess.Implemented(e.ID) {
				played = "not yet"
			}
			fmt.Fprintf(&b, "| `%s` | %s (%s) | %s | %s | %s | %s |\n",
				e.ID, cell(e.NameEn), cell(e.NameEs), window, targets(e.Targets), cell(e.TextEn), played)
		}
	}
	if listed != len(entries) {
		panic(fmt.Sprintf("gamedocs: %d of %d Ajedrez Mágico cards are in groups missing from magicGroups", len(entries)-listed, len(entries)))
	}
	return b.String()
}
