package magicchess

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Rule 19's order: (1) the action of the player in turn, (2) the opponent's reaction,
// (3) the king's legality, (4) go on, or end. A move that opens a window (rule 16) and
// leaves no move to the opponent is judged after the window, whatever end it would be:
// a mate (TestMovesThatOpenAWindow) as a stalemate or a draw by the 75-move rule.

// stalemateByCapture: White's queen takes the knight on c7, Black's only piece but the
// king on a8, which the white king on b6 and the queen then hem in without check.
const stalemateByCapture = "k7/2n5/1K6/8/8/8/8/2Q5 w - - 0 1"

// advUnder is adv under the rules r (an older version: Under).
func advUnder(t *testing.T, r Rules, fen string, hand0, hand1 []string) State {
	t.Helper()
	deck := deckOf(Advanced)
	var st game.State = r.Evolve(nil, GameStarted{FEN: fen, Mode: Advanced, HandSize: MaxHand, DeckSize: len(deck), PlanEnds: t0,
		ReactionMs: DefaultReaction.Milliseconds()})
	for _, e := range []game.Event{DeckShuffled{Cards: deck}, CardsDealt{Seat: 0, Count: len(hand0), Cards: hand0},
		CardsDealt{Seat: 1, Count: len(hand1), Cards: hand1}, PlanningEnded{At: t0, Reason: "time"}} {
		st = r.Evolve(st, e)
	}
	return st.(State)
}

func TestAStalemateIsJudgedAfterItsWindow(t *testing.T) {
	// Qxc7 stalemates Black, who holds Rewind: the capture opens R2 before the end is judged.
	s := adv(t, stalemateByCapture, []string{"frost"}, []string{"rewind"}, "")
	s = played(t, s, sec(1), "c1c7")
	w := window(t, s, R2, 1)
	if len(w.Triggers) != 1 || w.Triggers[0] != TriggerCapture {
		t.Fatalf("Qxc7 opens %v, want [capture]", w.Triggers)
	}
	if st := (Rules{}).Status(s); st.Over {
		t.Fatalf("the stalemate ended the game before its window: %+v", st)
	}
	// Rewound, the knight is back and White plays its turn again.
	back, _ := reacts(t, s, "rewind")
	expect(t, back, map[string]string{"c7": "n", "c1": "Q"})
	isTurnOf(t, back, 0)
	if st := (Rules{}).Status(back); st.Over {
		t.Fatalf("after Rewind: %+v", st)
	}
	// Passed, the stalemate stands and ends the game drawn.
	over, _ := passWindow(t, s)
	if st := (Rules{}).Status(over); !st.Over || st.Outcome.Reason != "stalemate" || len(st.Outcome.Winners) != 0 {
		t.Fatalf("the window passed: %+v", st)
	}
	// The same by the 75-move rule: a check on the 150th half-move without a capture or
	// a pawn move opens R2, and Last stand may still answer it.
	s = adv(t, "4k3/8/8/8/8/8/8/R3K3 w - - 149 100", []string{"frost"}, []string{"last-stand"}, "")
	s = played(t, s, sec(1), "a1a8")
	window(t, s, R2, 1)
	if st := (Rules{}).Status(s); st.Over {
		t.Fatalf("the 75-move rule ended the game before its window: %+v", st)
	}
	over, _ = passWindow(t, s)
	if st := (Rules{}).Status(over); !st.Over || st.Outcome.Reason != "seventy-five-move rule" {
		t.Fatalf("the window passed: %+v", st)
	}
}

// Under magic-2026.5 and before, the game ended at the move, with no window: the matches
// of then keep it.
func TestAStalemateEndedAtTheMoveUnderMagic20265(t *testing.T) {
	r, _ := Rules{}.Under("magic-2026.5")
	s := advUnder(t, r.(Rules), stalemateByCapture, []string{"frost"}, []string{"rewind"})
	evs, err := r.Decide(s, game.Action{Seat: 0, At: sec(1), Do: game.Move{Notation: "c1c7"}})
	if err != nil {
		t.Fatal(err)
	}
	var st game.State = s
	for _, e := range evs {
		if err := r.(Rules).Audit(st, e.Event); err != nil {
			t.Fatalf("Audit refuses %T: %v", e.Event, err)
		}
		st = r.Evolve(st, e.Event)
	}
	if len(evs) != 1 || st.(State).Window != nil {
		t.Fatalf("under magic-2026.5 Qxc7 gives %d events, window %+v", len(evs), st.(State).Window)
	}
	if got := r.Status(st); !got.Over || got.Outcome.Reason != "stalemate" {
		t.Fatalf("under magic-2026.5: %+v", got)
	}
}
