package sovereignchess

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// A state is settled between commands and unsettled between a move and the facts it
// implies: here a defection and mate, whose GameEnded follows the move.
func TestSettledBetweenCommandsOnly(t *testing.T) {
	st := twoPlayer(t, "wki1 wqe13 wrb10 bka16 bpl12", "1 w b - 10")
	st, _ = act(t, st, r.Status(st).ToAct[0], game.Move{Notation: "i1h1"})
	st, _ = act(t, st, r.Status(st).ToAct[0], Defect{Colour: "navy"})
	evs, err := r.Decide(st, game.Action{Seat: r.Status(st).ToAct[0], Do: game.Move{Notation: "e13a13"}})
	if err != nil || len(evs) < 2 {
		t.Fatalf("the mate: %v %v", evs, err)
	}
	if !r.Settled(st) {
		t.Fatal("unsettled between commands")
	}
	var s game.State = st
	for i, e := range evs {
		s = r.Evolve(s, e.Event)
		if last := i == len(evs)-1; r.Settled(s) != last {
			t.Fatalf("after %s (%d of %d): settled=%v", e.Event.EventType(), i+1, len(evs), r.Settled(s))
		}
	}
}
