package unfair

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
)

// The catalog holds 58 cards: 31 common in 3 copies, 24 rare in 2, 3 legendary in 1,
// 144 cards a deck; 47 replace the move and 11 add to it.
func TestCatalogComposition(t *testing.T) {
	cards := Rules{}.Catalog()
	count := map[string]int{}
	copies := 0
	for _, c := range cards {
		count[c.Rarity]++
		count[c.Cost]++
		count[c.Group]++
		copies += c.Copies
	}
	want := map[string]int{Common: 31, Rare: 24, Legendary: 3, ReplacesMove: 47, AddsToMove: 11,
		"statuses": 4, "movement": 12, "teleports": 10, "returns": 8, "board": 11, "hand": 7, "extra": 6}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%d cards %s, want %d", count[k], k, n)
		}
	}
	if len(cards) != 58 || copies != 144 || len(deck) != 144 {
		t.Errorf("%d cards, %d copies, a deck of %d", len(cards), copies, len(deck))
	}
	// The rules describe the statuses group as four cards that each put a status.
	var statuses []string
	for _, c := range cards {
		if c.Group == "statuses" {
			statuses = append(statuses, c.ID)
		}
	}
	if got := strings.Join(statuses, " "); got != strings.Join([]string{Poison, Sleep, Shield, Dynamite}, " ") {
		t.Errorf("the statuses group: %s", got)
	}
	adds := []string{}
	for _, c := range cards {
		if c.Cost == AddsToMove {
			adds = append(adds, c.ID)
		}
	}
	if got := strings.Join(adds, " "); got != "shield antidote new-hand recycle foresight spy sabotage double-move pawn-surge gallop sidestep" {
		t.Errorf("the cards that add to the move: %s", got)
	}
}

// A catalog that breaks the composition or names an effect that does not exist is refused.
func TestCatalogChecks(t *testing.T) {
	entries, err := readCatalog(catalogJSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkCatalog(entries, effects); err != nil {
		t.Fatalf("the shipped catalog: %v", err)
	}
	for name, edit := range map[string]func([]cards.Card){
		"twice":    func(c []cards.Card) { c[1].ID = c[0].ID },
		"copies":   func(c []cards.Card) { c[0].Copies = 2 },
		"rarity":   func(c []cards.Card) { c[0].Rarity, c[0].Copies = Rare, 2 },
		"cost":     func(c []cards.Card) { c[0].Cost = AddsToMove },
		"group":    func(c []cards.Card) { c[0].Group = "movement" },
		"no text":  func(c []cards.Card) { c[3].TextFr = "" },
		"targets":  func(c []cards.Card) { c[0].Targets = "own-queen" },
		"no cards": func(c []cards.Card) { c[5].ID = "joker" },
	} {
		broken := append([]cards.Card(nil), entries...)
		edit(broken)
		if err := checkCatalog(broken, effects); err == nil {
			t.Errorf("%s: a broken catalog passes", name)
		}
	}
	if _, err := readCatalog([]byte(`[{"id":"x","colour":"red"}]`)); err == nil {
		t.Error("an unknown field passes")
	}
}
