package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
)

// TestPagesMatchTheData fails when a committed page in docs/games differs from what the
// generator writes from the embedded data: CI's guard against a catalog and its page
// drifting apart.
func TestPagesMatchTheData(t *testing.T) {
	dir := filepath.Join("..", "..", "docs", "games")
	for _, s := range sections() {
		doc, err := os.ReadFile(filepath.Join(dir, s.page))
		if err != nil {
			t.Fatal(err)
		}
		want, err := splice(string(doc), s.name, s.body())
		if err != nil {
			t.Fatal(err)
		}
		if string(doc) != want {
			t.Errorf("docs/games/%s: section %q differs from the embedded data: run `go run ./internal/gamedocs` and commit", s.page, s.name)
		}
	}
}

// TestCatalogListsEveryCard checks the generated table against the data it comes from:
// every card's ID and names appear once, and the totals are the catalog's.
func TestCatalogListsEveryCard(t *testing.T) {
	cards := unfair.Rules{}.Catalog()
	out := catalog(cards)
	for _, c := range cards {
		if n := strings.Count(out, "| `"+c.ID+"` | "+c.NameEn+" ("+c.NameFr+") |"); n != 1 {
			t.Errorf("card %s appears %d times in the table", c.ID, n)
		}
	}
	deck := 0
	for _, c := range cards {
		deck += c.Copies
	}
	if head := strings.SplitN(out, "\n", 2)[0]; !strings.HasPrefix(head, "58 distinct cards, decks of 144:") || deck != 144 || len(cards) != 58 {
		t.Errorf("totals line %q for %d cards, %d per deck", head, len(cards), deck)
	}
}

func TestSpliceNeedsItsMarkers(t *testing.T) {
	if _, err := splice("no markers here", "catalog", "x"); err == nil {
		t.Fatal("splice accepted a page without markers")
	}
	doc := "a\n<!-- BEGIN GENERATED s (go run ./internal/gamedocs; do not edit) -->\nold\n<!-- END GENERATED s -->\nb\n"
	got, err := splice(doc, "s", "new\n")
	if err != nil || got != strings.Replace(doc, "old\n", "new\n", 1) {
		t.Fatalf("splice = %q, %v", got, err)
	}
}

// TestClassesListEverySpell checks the generated class sheets against the data: every
// spell, passive and summon of every class appears once, under its names.
func TestClassesListEverySpell(t *testing.T) {
	cs := grimoire.Classes()
	out := classes(cs)
	once := func(what string) {
		if n := strings.Count(out, what); n != 1 {
			t.Errorf("%q appears %d times in the sheets", what, n)
		}
	}
	for _, c := range cs {
		once("### " + c.NameEn + " (" + c.NameFr + ", `" + c.ID + "`)")
		for _, s := range c.Spells {
			once(" " + s.NameEn + " (" + s.NameFr + ") `" + s.ID + "`")
		}
		for _, p := range c.Passives {
			once("| " + p.NameEn + " (" + p.NameFr + ") `" + p.ID + "`")
		}
		for _, e := range c.Summons {
			once("**" + e.NameEn + "** (" + e.NameFr + ", `" + e.ID + "`)")
			for _, s := range e.Spells {
				once(" " + s.NameEn + " (" + s.NameFr + ") `" + s.ID + "`")
			}
		}
	}
	if !strings.HasPrefix(out, "2 classes, each with 8 spell slots") {
		t.Errorf("totals line: %q", strings.SplitN(out, "\n", 2)[0])
	}
}

// TestBonusesListEveryKind checks the generated bonus table against the data: every kind
// appears once, under its ID and names.
func TestBonusesListEveryKind(t *testing.T) {
	kinds := solwaris.BonusKinds()
	out := bonuses(kinds)
	for _, k := range kinds {
		if n := strings.Count(out, "| `"+k.ID+"` | "+k.NameEn+" ("+k.NameFr+") |"); n != 1 {
			t.Errorf("bonus %s appears %d times in the table", k.ID, n)
		}
	}
}
