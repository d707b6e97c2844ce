package dispute

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

func facts() Facts {
	return Facts{Game: "unfairchess", Players: []string{"ann", "bob"}, Teams: []int{0, 1}, Rated: true, Stake: 200,
		Result: Result{Winners: []int{0}, Reason: "checkmate"}, Version: 40}
}

// apply decides cmd on s, fails the test on a refusal, and folds what it records.
func apply(t *testing.T, s State, cmd Command) (State, game.Event) {
	t.Helper()
	evs, err := Decide(s, cmd)
	if err != nil || len(evs) != 1 {
		t.Fatalf("%T: %v, %d events", cmd, err, len(evs))
	}
	return Evolve(s, evs[0]), evs[0]
}

func refused(t *testing.T, s State, cmd Command, code game.Code, words string) {
	t.Helper()
	evs, err := Decide(s, cmd)
	if game.CodeOf(err) != code || !strings.Contains(err.Error(), words) || len(evs) != 0 {
		t.Fatalf("%T: got %v (%d events), want %s mentioning %q", cmd, err, len(evs), code, words)
	}
}

func TestOpeningADisputeIsRefusedWithTypedErrors(t *testing.T) {
	var s State
	open := OpenDispute{Match: "m1", Player: "bob", Reason: "he left on purpose", Facts: facts(), Finished: true}
	refused(t, s, OpenDispute{Match: "m1", Player: "eve", Reason: "x", Facts: facts(), Finished: true}, game.Forbidden, "only a player")
	refused(t, s, OpenDispute{Match: "m1", Player: "bob", Reason: "x", Facts: facts()}, game.Conflict, "not finished")
	void := facts()
	void.Result = Result{Reason: "aborted", Void: true}
	refused(t, s, OpenDispute{Match: "m1", Player: "bob", Reason: "x", Facts: void, Finished: true}, game.Conflict, "no result")
	refused(t, s, OpenDispute{Match: "m1", Player: "bob", Reason: "  ", Facts: facts(), Finished: true}, game.BadInput, "empty")
	refused(t, s, OpenDispute{Match: "m1", Player: "bob", Reason: strings.Repeat("é", MaxText+1), Facts: facts(), Finished: true}, game.BadInput, "at most")
	refused(t, s, OpenDispute{Match: "m1", Player: "bob", Reason: "x", Cites: []Ref{{Version: 41}}, Facts: facts(), Finished: true}, game.BadInput, "events 1 to 40")

	s, ev := apply(t, s, open)
	o := ev.(Opened)
	if o.Dispute != "m1.1" || o.Seat != 1 || o.Facts == nil || s.Result.Reason != "checkmate" {
		t.Fatalf("opened %+v, state %+v", o, s)
	}
	refused(t, s, open, game.Conflict, "already have dispute m1.1 open")
	// The other player may open its own.
	s, ev = apply(t, s, OpenDispute{Match: "m1", Player: "ann", Reason: "he flagged", Facts: facts(), Finished: true})
	if ev.(Opened).Dispute != "m1.2" || ev.(Opened).Facts != nil {
		t.Fatalf("second dispute %+v", ev)
	}
	if id, ok := MatchOf("m1.2"); !ok || id != "m1" {
		t.Fatalf("MatchOf = %q %v", id, ok)
	}
}

func TestStatementsAndRulings(t *testing.T) {
	s, _ := apply(t, State{}, OpenDispute{Match: "m1", Player: "bob", Reason: "disconnected", Cites: []Ref{{Version: 30, Type: "PlayerLeft"}}, Facts: facts(), Finished: true})
	s, _ = apply(t, s, AddStatement{Dispute: "m1.1", Player: "ann", Text: "I waited", Cites: []Ref{{Version: 31}}})
	refused(t, s, AddStatement{Dispute: "m1.1", Player: "eve", Text: "me too"}, game.Forbidden, "only the players")
	refused(t, s, AddStatement{Dispute: "m1.9", Player: "ann", Text: "x"}, game.NotFound, "no dispute")
	refused(t, s, Rule{Dispute: "m1.1", Reviewer: "ann", Ruling: Void}, game.Forbidden, "own match")
	refused(t, s, Rule{Dispute: "m1.1", Reviewer: "rev", Ruling: "MAYBE"}, game.BadInput, "UPHOLD")
	refused(t, s, Rule{Dispute: "m1.1", Reviewer: "rev", Ruling: Win, Seat: 2}, game.BadInput, "seats 0 to 1")

	s, ev := apply(t, s, Rule{Dispute: "m1.1", Reviewer: "rev", Ruling: Void, Note: "connection logs"})
	r := ev.(Ruled)
	if !r.Changes() || !r.After.Void || r.Before.Reason != "checkmate" || !s.Result.Void {
		t.Fatalf("void ruling %+v", r)
	}
	refused(t, s, Rule{Dispute: "m1.1", Reviewer: "rev", Ruling: Uphold}, game.Conflict, "ruled already")
	refused(t, s, AddStatement{Dispute: "m1.1", Player: "ann", Text: "late"}, game.Conflict, "ruled already")

	// A second dispute is ruled from the result the first left.
	s, _ = apply(t, s, OpenDispute{Match: "m1", Player: "ann", Reason: "I had mate", Facts: facts(), Finished: true})
	s, ev = apply(t, s, Rule{Dispute: "m1.2", Reviewer: "rev", Ruling: Win, Seat: 0})
	r = ev.(Ruled)
	if !r.Before.Void || len(r.After.Winners) != 1 || r.After.Winners[0] != 0 || !r.Changes() {
		t.Fatalf("second ruling %+v", r)
	}
	s, ev = apply(t, s, OpenDispute{Match: "m1", Player: "bob", Reason: "again", Facts: facts(), Finished: true})
	_, ev = apply(t, s, Rule{Dispute: ev.(Opened).Dispute, Reviewer: "rev", Ruling: Uphold})
	if ev.(Ruled).Changes() {
		t.Fatalf("an upheld result changes nothing: %+v", ev)
	}
}

func TestAPlayerOpensABoundedNumberOfDisputes(t *testing.T) {
	var s State
	for i := range MaxPerPlayer {
		var ev game.Event
		s, ev = apply(t, s, OpenDispute{Match: "m", Player: "bob", Reason: "why", Facts: facts(), Finished: true})
		s, _ = apply(t, s, Rule{Dispute: ev.(Opened).Dispute, Reviewer: "rev", Ruling: Uphold})
		_ = i
	}
	refused(t, s, OpenDispute{Match: "m", Player: "bob", Reason: "why", Facts: facts(), Finished: true}, game.Conflict, "at most 3")
}

func TestAWinRulingInATeamMatchNamesTheWholeTeam(t *testing.T) {
	f := facts()
	f.Players, f.Teams = []string{"a", "b", "c", "d"}, []int{0, 1, 1, 0}
	s, _ := apply(t, State{}, OpenDispute{Match: "m", Player: "b", Reason: "why", Facts: f, Finished: true})
	_, ev := apply(t, s, Rule{Dispute: "m.1", Reviewer: "rev", Ruling: Win, Seat: 2})
	if w := ev.(Ruled).After.Winners; len(w) != 2 || w[0] != 1 || w[1] != 2 {
		t.Fatalf("winners %v", w)
	}
}

// A dispute's stream is bounded: statements per player, events cited, and the text of
// each (no control or invisible characters).
func TestAStatementIsBounded(t *testing.T) {
	s, _ := apply(t, State{}, OpenDispute{Match: "m", Player: "bob", Reason: "why", Facts: facts(), Finished: true})
	refused(t, s, AddStatement{Dispute: "m.1", Player: "ann", Text: "a\x00b"}, game.BadInput, "control or invisible")
	refused(t, s, AddStatement{Dispute: "m.1", Player: "ann", Text: "x", Cites: make([]Ref, MaxCites+1)}, game.BadInput, "at most 20")
	refused(t, s, AddStatement{Dispute: "m.1", Player: "ann", Text: "a\xffb"}, game.BadInput, "UTF-8")
	for range MaxStatements {
		s, _ = apply(t, s, AddStatement{Dispute: "m.1", Player: "ann", Text: "and another thing"})
	}
	refused(t, s, AddStatement{Dispute: "m.1", Player: "ann", Text: "one more"}, game.Conflict, "at most 10")
	s, _ = apply(t, s, AddStatement{Dispute: "m.1", Player: "bob", Text: "the other player still may"})
	if n := len(s.Disputes[0].Statements); n != MaxStatements+1 {
		t.Fatalf("%d statements", n)
	}
}
