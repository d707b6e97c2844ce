package unfair

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game/gametest"
)

// A real match played to its end passes the fairness check (docs/fairness.md), which
// catches a deck stored in another order than the seeds shuffle it, and a card drawn
// that is not the top of its deck.
func TestFairnessCatchesAForgedDeck(t *testing.T) {
	tb, _ := gametest.Playout(t, gametest.Game{Rules: Rules{}, Act: player, MaxActions: 600, EndsByAgreement: true}, nil, 5)
	evs := tb.Events()
	var d DeckShuffled
	if err := json.Unmarshal(evs[gametest.Nth(evs, "DeckShuffled", 2)].Payload, &d); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(d.Cards)
	gametest.CatchesForgedOutcome(t, tb, "DeckShuffled", 2, "cards", d.Cards, "unfair/deck/1")
	gametest.CatchesForgedOutcome(t, tb, "CardDrawn", 1, "card", d.Cards[0], "unfair/deck/0")
}
