package magicchess

import (
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

// A doubles table from its setup where nobody ever acts: every state short of the end
// has a deadline, and the timeouts at those deadlines alone end the match.
func TestADoublesTableNobodyPlaysEnds(t *testing.T) {
	for _, opts := range []game.Options{{OptionBoards: "2"}, {OptionBoards: "2", OptionMode: Advanced}, {OptionBoards: "2", "clock": "1+0"}} {
		r := Rules{}
		tb := setupDoubles(t, opts)
		// Three seats end their planning; the fourth says nothing.
		for seat := range 3 {
			tb, _ = dact(t, tb, seat, t0.Add(time.Second), game.Choose{Option: "ready"})
		}
		for n := 0; ; n++ {
			s := r.Status(tb)
			if s.Over {
				t.Logf("%v: over after %d timeouts: %s", opts, n, s.Outcome.Reason)
				break
			}
			if s.Deadline.IsZero() {
				t.Fatalf("%v: after %d timeouts, phase %s, seats %v to act and no deadline", opts, n, s.Phase, s.ToAct)
			}
			if n > 100 {
				t.Fatalf("%v: no end after %d timeouts", opts, n)
			}
			tb = dtimeout(t, tb, s.Deadline)
		}
	}
}
