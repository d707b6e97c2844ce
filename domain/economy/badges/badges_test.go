package badges_test

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/economy/badges"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
)

func ids(bs []badges.Badge) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.ID)
	}
	return out
}

func TestBadgesNameRealCards(t *testing.T) {
	known := map[string]bool{}
	for _, c := range (unfair.Rules{}).Catalog() {
		known[c.ID] = true
	}
	for _, b := range badges.All {
		if b.Total == 0 && b.Distinct == 0 && len(b.Cards) == 0 || b.En == "" || b.Fr == "" || b.TextEn == "" || b.TextFr == "" {
			t.Errorf("badge %+v unlocks with nothing, or lacks a text", b)
		}
		for _, c := range b.Cards {
			if !known[c] {
				t.Errorf("badge %s names card %q, not in UnfairChess's catalog", b.ID, c)
			}
		}
		if b.Distinct > len(known) {
			t.Errorf("badge %s needs %d different cards of %d", b.ID, b.Distinct, len(known))
		}
	}
}

func TestBadgesFromTheCardsPlayed(t *testing.T) {
	if got := badges.Unlocked(nil); len(got) != 0 {
		t.Fatalf("no card played unlocked %v", ids(got))
	}
	played := map[string]map[string]int{"UNFAIR_CHESS": {"poison": 9, "sleep": 1, "shield": 1, "dynamite": 1}}
	if got := ids(badges.Unlocked(played)); !slices.Equal(got, []string{"first-card", "four-statuses"}) {
		t.Fatalf("12 cards, four statuses: %v", got)
	}
	played["UNFAIR_CHESS"]["poison"] = 10
	played["MAGIC_CHESS"] = map[string]int{"queen-return": 50}
	if got := ids(badges.Unlocked(played)); !slices.Contains(got, "poisoner") || slices.Contains(got, "legend") {
		t.Fatalf("Poison 10 times, and cards of another game: %v", got)
	}
}
