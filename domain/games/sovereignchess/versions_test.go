package sovereignchess

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// under starts a game as e records it, under the rules of an older version.
func under(t *testing.T, version string, e GameStarted) State {
	t.Helper()
	old, ok := r.Under(version)
	if !ok {
		t.Fatalf("no rules %s", version)
	}
	if err := old.(Rules).Audit(nil, e); err != nil {
		t.Fatalf("%+v: %v", e, err)
	}
	return old.Evolve(nil, e).(State)
}

func TestUnderKnowsTheOlderVersionsOnly(t *testing.T) {
	for _, v := range []string{"rulebook-2017.1", "rulebook-2017.2"} {
		if old, ok := r.Under(v); !ok || old.Info().RulesVersion != v || old.Info().ID != ID {
			t.Errorf("Under(%s) = %v, %v", v, old, ok)
		}
	}
	for _, v := range []string{RulesVersion, "rulebook-2017.4", "rulebook-2016.1", ""} {
		if old, ok := r.Under(v); ok {
			t.Errorf("Under(%q) = %v", v, old.Info())
		}
	}
}

// Before rulebook-2017.3 a two-player defection's forced king move could take the other
// king: the slate king on k6 defects to yellow and must leave k6, and a yellow king may
// take the black king standing on the slate square j7. The match went on as Royale's
// capture of a king does, and ended a tied stalemate. Under 2017.2 (and 2017.1) that
// move is decided and the stream that recorded it passes the audit and folds; under
// 2017.3 the move is illegal (TestAuditRefusesAKingCapturedByADefection).
func TestUnder20172ADefectionsKingMoveTookTheKing(t *testing.T) {
	start, stored := kingTakenByDefection(t)
	refused(t, from(t, start), 1, game.Move{Notation: "=yk6j7"}, game.IllegalMove)
	for _, v := range []string{"rulebook-2017.1", "rulebook-2017.2"} {
		st := under(t, v, start)
		same(t, v+": the move decided", decided(t, st, 1, game.Move{Notation: "=yk6j7"}), stored)
		var s game.State = st
		for i, e := range stored {
			if err := r.Audit(s, e); err != nil {
				t.Fatalf("%s: event %d (%s) refused: %v", v, i, e.EventType(), err)
			}
			s = r.Evolve(s, e)
		}
		if st := r.Status(s); !st.Over || st.Outcome.Reason != "stalemate" || len(st.Outcome.Winners) != 0 {
			t.Errorf("%s: the game after the capture: %+v", v, st)
		}
	}
}

// Before rulebook-2017.2 a Royale seat that resigned while the game went on did not
// withdraw: Withdraw recorded nothing, and the seat kept its king, its army and its
// turns. Under 2017.2 and later Slate withdraws and its turns are skipped
// (TestRoyaleWithdrawalOfASeatNotToAct).
func TestUnder20171AResignedRoyaleSeatKeptItsTurns(t *testing.T) {
	e := GameStarted{Mode: Royale, Position: notation(t, royaleKings+"wki1 wpe2 spo8", "1 w a s b - 0"), FirstMover: -1, Order: royaleOrder2031}
	if evs := r.Withdraw(under(t, "rulebook-2017.2", e), 3, noon); len(evs) == 0 {
		t.Fatal("rulebook-2017.2: Slate does not withdraw")
	}
	st := under(t, "rulebook-2017.1", e)
	if evs := r.Withdraw(st, 3, noon); evs != nil {
		t.Fatalf("rulebook-2017.1: Slate withdraws: %v", evs)
	}
	same(t, "the status", r.Status(st), game.Status{ToAct: []int{2}, Phase: "play"})
	_, seats := toAct(t, st, 4)
	same(t, "turns", seats, []int{2, 0, 3, 1})
}
