package solwaris

import (
	"encoding/json"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game/gametest"
)

// A real duel played to its end passes the fairness check (docs/fairness.md), which
// catches a damage roll, a critical and a drawn arena stored otherwise than the seeds
// draw them.
func TestFairnessCatchesAForgedRoll(t *testing.T) {
	tb, _ := gametest.Playout(t, gametest.Game{Rules: Rules{}, MaxActions: 4000}, nil, 3)
	evs := tb.Events()
	nth := 0
	for i := range evs {
		if evs[i].Type != (Damaged{}).EventType() {
			continue
		}
		nth++
		var d Damaged
		if err := json.Unmarshal(evs[i].Payload, &d); err != nil {
			t.Fatal(err)
		}
		if d.Shock || d.Spell == "" {
			continue
		}
		gametest.CatchesForgedOutcome(t, tb, (Damaged{}).EventType(), nth, "base", d.Base+1, "solwaris/decision/")
		gametest.CatchesForgedOutcome(t, tb, (Damaged{}).EventType(), nth, "critical", !d.Critical, "solwaris/decision/")
		var o Opened
		if err := json.Unmarshal(evs[gametest.Nth(evs, (Opened{}).EventType(), 1)].Payload, &o); err != nil {
			t.Fatal(err)
		}
		other := "caveau"
		if o.Map == other {
			other = "grande-plaine"
		}
		gametest.CatchesForgedOutcome(t, tb, (Opened{}).EventType(), 1, "map", other, "solwaris/map")
		return
	}
	t.Fatal("the duel dealt no spell's damage: nothing to forge")
}
