package unfair

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/cards"
)

// The catalog is data: catalog.json lists the 58 cards with their texts in French (the
// game's language) and English. It is read and checked when the package loads, against
// the composition the rules promise and against the effects this package implements, so
// a catalog and a rules version that disagree never start.

//go:embed catalog.json
var catalogJSON []byte

// Rarities and costs, as the catalog and the API spell them.
const (
	Common    = "COMMON"
	Rare      = "RARE"
	Legendary = "LEGENDARY"

	ReplacesMove = "REPLACES_MOVE"
	AddsToMove   = "ADDS_TO_MOVE"
)

// composition is what the catalog must hold: cards per group, cards per rarity and the
// copies of each, cards per cost.
var composition = struct {
	groups   map[string]int
	rarities map[string][2]int // rarity -> {cards, copies of each}
	costs    map[string]int
}{
	groups: map[string]int{"statuses": 4, "movement": 12, "teleports": 10, "returns": 8,
		"board": 11, "hand": 7, "extra": 6},
	rarities: map[string][2]int{Common: {31, 3}, Rare: {24, 2}, Legendary: {3, 1}},
	costs:    map[string]int{ReplacesMove: 47, AddsToMove: 11},
}

// targetKinds are the words of a card's Targets: one word per target, "none" for a card
// without any. A slot is written "0".."3", anything else is a square.
var targetKinds = map[string]bool{
	"own-piece": true, "enemy-piece": true, "piece": true, "square": true,
	"own-pawn": true, "own-knight": true, "own-rook": true, "own-king": true,
	"enemy-pawn": true, "enemy-king": true, "own-hand-slot": true, "enemy-hand-slot": true,
}

var (
	catalog []cards.Card    // in catalog.json's order
	defs    map[string]*def // by card ID
	deck    []string        // one deck before shuffling: each card as many times as its copies
)

func init() {
	entries, err := readCatalog(catalogJSON)
	if err == nil {
		err = checkCatalog(entries, effects)
	}
	if err != nil {
		panic("unfair: catalog.json: " + err.Error())
	}
	catalog = entries
	defs = map[string]*def{}
	for _, c := range entries {
		defs[c.ID] = &def{Card: c, plays: effects[c.Group][c.ID]}
		for range c.Copies {
			deck = append(deck, c.ID)
		}
	}
}

// readCatalog decodes the catalog, refusing fields it does not know.
func readCatalog(data []byte) ([]cards.Card, error) {
	var entries []struct {
		ID, NameFr, NameEn, Group, Rarity string
		Copies                            int
		Cost, Targets, TextFr, TextEn     string
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&entries); err != nil {
		return nil, err
	}
	out := make([]cards.Card, len(entries))
	for i, c := range entries {
		out[i] = cards.Card{ID: c.ID, NameFr: c.NameFr, NameEn: c.NameEn, Group: c.Group, Rarity: c.Rarity,
			Copies: c.Copies, Cost: c.Cost, Targets: c.Targets, TextFr: c.TextFr, TextEn: c.TextEn}
	}
	return out, nil
}

// checkCatalog checks the catalog's entries against the composition and the implemented
// effects (by group, then card ID).
func checkCatalog(entries []cards.Card, impl map[string]map[string]plays) error {
	seen := map[string]bool{}
	groups, rarities, costs := map[string]int{}, map[string]int{}, map[string]int{}
	for _, c := range entries {
		switch {
		case c.ID == "" || seen[c.ID]:
			return fmt.Errorf("card ID %q is empty or not unique", c.ID)
		case c.NameFr == "" || c.NameEn == "" || c.TextFr == "" || c.TextEn == "":
			return fmt.Errorf("%s: a name or a text is missing", c.ID)
		case composition.rarities[c.Rarity][1] == 0:
			return fmt.Errorf("%s: unknown rarity %q", c.ID, c.Rarity)
		case c.Copies != composition.rarities[c.Rarity][1]:
			return fmt.Errorf("%s: %d copies, a %s card has %d", c.ID, c.Copies, c.Rarity, composition.rarities[c.Rarity][1])
		case composition.costs[c.Cost] == 0:
			return fmt.Errorf("%s: unknown cost %q", c.ID, c.Cost)
		case impl[c.Group][c.ID] == nil:
			return fmt.Errorf("%s: no effect in group %q", c.ID, c.Group)
		}
		if c.Targets != "none" {
			for _, w := range strings.Fields(c.Targets) {
				if !targetKinds[w] {
					return fmt.Errorf("%s: unknown target %q", c.ID, w)
				}
			}
		}
		seen[c.ID] = true
		groups[c.Group]++
		rarities[c.Rarity]++
		costs[c.Cost]++
	}
	for g, n := range composition.groups {
		if groups[g] != n {
			return fmt.Errorf("group %s has %d cards, want %d", g, groups[g], n)
		}
	}
	for r, want := range composition.rarities {
		if rarities[r] != want[0] {
			return fmt.Errorf("%d %s cards, want %d", rarities[r], r, want[0])
		}
	}
	for c, n := range composition.costs {
		if costs[c] != n {
			return fmt.Errorf("%d cards %s, want %d", costs[c], c, n)
		}
	}
	for g, ids := range impl {
		for id := range ids {
			if !seen[id] {
				return fmt.Errorf("the effect %s (group %s) has no card", id, g)
			}
		}
	}
	return nil
}

// targetWords are the kinds of a card's targets, in order (none for "none").
func targetWords(c cards.Card) []string {
	if c.Targets == "none" {
		return nil
	}
	return strings.Fields(c.Targets)
}
