package magicchess

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
)

// A real match played to its end passes the fairness check (docs/fairness.md), which
// catches the table's deck stored in another order than the seeds shuffle it, and a
// hand dealt otherwise.
func TestFairnessCatchesAForgedDeck(t *testing.T) {
	tb, _ := gametest.Playout(t, gametest.Game{Rules: Rules{}, MaxActions: 600, EndsByAgreement: true}, game.Options{"clock": "off"}, 1)
	evs := tb.Events()
	var d DeckShuffled
	if err := json.Unmarshal(evs[gametest.Nth(evs, "DeckShuffled", 1)].Payload, &d); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(d.Cards)
	gametest.CatchesForgedOutcome(t, tb, "DeckShuffled", 1, "cards", d.Cards, deckLabel)
	gametest.CatchesForgedOutcome(t, tb, "CardsDealt", 2, "cards", d.Cards[:10], deckLabel)
}

// A doubles match that ran its table's deck out passes the fairness check, which
// catches a reshuffle of the discard stored in another order than its stream draws it.
func TestFairnessCatchesAForgedReshuffle(t *testing.T) {
	for seed := uint64(69); seed < 109; seed++ { // seed 69 is the first that runs out
		tb, _ := gametest.Playout(t, gametest.Game{Rules: Rules{}, MaxActions: 600, EndsByAgreement: true}, game.Options{"boards": "2", "clock": "off"}, seed)
		evs := tb.Events()
		i := gametest.Nth(evs, "DeckReshuffled", 1)
		if i < 0 {
			continue
		}
		var d DeckReshuffled
		if err := json.Unmarshal(evs[i].Payload, &d); err != nil {
			t.Fatal(err)
		}
		forged := slices.Clone(d.Cards)
		slices.Reverse(forged)
		if slices.Equal(forged, d.Cards) {
			continue // a pile that reads the same backwards
		}
		gametest.CatchesForgedOutcome(t, tb, "DeckReshuffled", 1, "cards", forged, reshuffleLabel(1))
		t.Logf("seed %d: reshuffle of %d cards at version %d", seed, len(d.Cards), evs[i].Version)
		return
	}
	t.Fatal("no doubles match of 40 ran its deck out: no reshuffle to forge")
}
