package sovereignchess

import (
	"encoding/json"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
)

// Real matches played to their end pass the fairness check (docs/fairness.md), which
// catches the opening's first mover and Royale's seating stored otherwise than the seeds
// draw them.
func TestFairnessCatchesAForgedDraw(t *testing.T) {
	tb, _ := gametest.Playout(t, gametest.Game{Rules: Rules{}}, nil, 2)
	evs := tb.Events()
	var g GameStarted
	if err := json.Unmarshal(evs[gametest.Nth(evs, "GameStarted", 1)].Payload, &g); err != nil {
		t.Fatal(err)
	}
	gametest.CatchesForgedOutcome(t, tb, "GameStarted", 1, "firstMover", 1-g.FirstMover, "sovereign/opening")

	tb, _ = gametest.Playout(t, gametest.Game{Rules: Rules{}}, game.Options{"mode": Royale}, 2)
	evs = tb.Events()
	if err := json.Unmarshal(evs[gametest.Nth(evs, "GameStarted", 1)].Payload, &g); err != nil {
		t.Fatal(err)
	}
	g.Order[0], g.Order[1] = g.Order[1], g.Order[0]
	gametest.CatchesForgedOutcome(t, tb, "GameStarted", 1, "order", g.Order, "sovereign/royale-order")
}
