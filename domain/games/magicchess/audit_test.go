package magicchess

import (
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Audit refuses a record the rules would not have made: every event of a match must be
// what the rules record in the state before it.
func TestAuditRefusesWhatTheRulesWouldNotRecord(t *testing.T) {
	r := Rules{}
	s, evs := setup(t, "audit", nil)
	var st game.State
	for i, e := range evs {
		if err := r.Audit(st, e.Event); err != nil {
			t.Fatalf("the setup's event %d: %v", i, err)
		}
		if dealt, ok := e.Event.(CardsDealt); ok {
			other := dealt
			other.Cards = append([]string{other.Cards[1], other.Cards[0]}, other.Cards[2:]...)
			if r.Audit(st, other) == nil {
				t.Error("a deal in another order passes the audit")
			}
		}
		st = r.Evolve(st, e.Event)
	}
	if r.Audit(s, PlanningEnded{At: t0.Add(time.Minute), Reason: "time"}) == nil {
		t.Error("the planning ended on time before its deadline passes the audit")
	}
	if r.Audit(s, PlanningEnded{At: t0, Reason: "ready"}) == nil {
		t.Error("the planning ended by both before either was ready passes the audit")
	}
	play := table(t, start, []string{"truce"}, nil)
	_, evs = lay(t, play, "truce", nil, "")
	card := evs[0].Event.(CardPlayed)
	card.Result = Resolved
	if r.Audit(play, card) == nil {
		t.Error("a lasting card recorded as resolved passes the audit")
	}
	_, evs = act(t, play, game.Move{Notation: "e2e4"})
	mv := evs[0].Event.(MovePlayed)
	mv.FEN = start
	if r.Audit(play, mv) == nil {
		t.Error("a move with another position passes the audit")
	}
	if r.Audit(play, CardAnnulled{Seat: 0, Card: "echo", Reason: "loop", FEN: play.FEN()}) == nil {
		t.Error("an annulment of a card never laid passes the audit")
	}
}
