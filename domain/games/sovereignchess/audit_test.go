package sovereignchess

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/sovereign"
)

// decided returns the events Decide records for seat's action.
func decided(t *testing.T, st State, seat int, do any) []game.Event {
	t.Helper()
	evs, err := r.Decide(st, game.Action{Seat: seat, Do: do})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]game.Event, len(evs))
	for i, e := range evs {
		out[i] = e.Event
	}
	return out
}

// wantAuditError checks that Audit refuses e from st, naming what.
func wantAuditError(t *testing.T, st game.State, e game.Event, what string) {
	t.Helper()
	if err := r.Audit(st, e); err == nil || !strings.Contains(err.Error(), what) {
		t.Errorf("%+v: %v, want an error naming %q", e, err, what)
	}
}

func TestAuditMoves(t *testing.T) {
	st, _ := seeded(t, nil, seedFirstMover1)
	first := decided(t, st, 1, game.Move{Notation: "e2e4"})[0].(MovePlayed)
	if err := r.Audit(st, first); err != nil {
		t.Fatalf("an honest move: %v", err)
	}
	for field, bad := range map[string]MovePlayed{
		"position": func(e MovePlayed) MovePlayed { e.Position = sovereign.StartNotation; return e }(first),
		"piece":    func(e MovePlayed) MovePlayed { e.Piece++; return e }(first),
		"seat":     func(e MovePlayed) MovePlayed { e.Seat = 0; return e }(first),
		"illegal":  func(e MovePlayed) MovePlayed { e.Move = "e2e6"; return e }(first),
		"e2e04":    func(e MovePlayed) MovePlayed { e.Move = "e2e04"; return e }(first),
	} {
		wantAuditError(t, st, bad, field)
	}
	wantAuditError(t, st, OpeningChosen{Seat: 0, Option: "keep", White: 0, Black: 1}, "seat 0 recorded, but seat [1] was to act")

	st = r.Evolve(st, first).(State)
	choice := decided(t, st, 0, game.Choose{Option: "refuse"})[0].(OpeningChosen)
	if err := r.Audit(st, choice); err != nil {
		t.Fatalf("an honest choice: %v", err)
	}
	wantAuditError(t, st, OpeningChosen{Seat: 0, Option: "refuse", White: 0, Black: 1}, "white 0 recorded, the rules give 1")
	wantAuditError(t, st, OpeningChosen{Seat: 0, Option: "Refuse", White: 1, Black: 0}, `option "Refuse" recorded`)
	wantAuditError(t, st, MovePlayed{Seat: 0, Move: "e15e13"}, "kept or refused")
	wantAuditError(t, st, DrawClaimed{Seat: 0, Reason: "threefold repetition"}, "no draw")
	wantAuditError(t, st, GameEnded{Reason: "checkmate", Winners: []int{0}}, "rules record nothing")
	wantAuditError(t, st, GameStarted{Mode: TwoPlayer, Position: sovereign.StartNotation}, "after the game had started")
}

func TestAuditFactsAfterAMove(t *testing.T) {
	st := royale(t, "aka9 bkh16 bra1 wpe2", "4 w* a s b - 0")
	evs := decided(t, st, 1, game.Move{Notation: "a1a9"}) // MovePlayed, KingCaptured, InterregnumBegun, GameEnded
	var s game.State = st
	for i, e := range evs {
		if err := r.Audit(s, e); err != nil {
			t.Fatalf("%s as decided: %v", e.EventType(), err)
		}
		if i == 0 {
			// Leaving the facts out: another move while they are due.
			wantAuditError(t, r.Evolve(s, e), MovePlayed{Seat: 3, Move: "pass"}, "MovePlayed recorded where the rules record KingCaptured")
		}
		s = r.Evolve(s, e)
	}
	if !r.Status(s).Over {
		t.Fatal("not over")
	}
	before := r.Evolve(r.Evolve(st, evs[0]), evs[1])
	ended := evs[3].(GameEnded)
	wantAuditError(t, before, InterregnumBegun{Seat: 0, Cause: "escaped"}, `cause "escaped" recorded, the rules give "captured"`)
	wantAuditError(t, before, InterregnumBegun{Seat: 3, Cause: "captured"}, "seat 3 recorded")
	wantAuditError(t, r.Evolve(before, evs[2]), GameEnded{Reason: ended.Reason, Winners: []int{0}, Standings: ended.Standings}, "winners [0] recorded, the rules give [1]")
	wantAuditError(t, r.Evolve(before, evs[2]), GameEnded{Reason: "checkmate", Winners: ended.Winners, Standings: ended.Standings}, "reason")
	wantAuditError(t, s, MovePlayed{Seat: 2, Move: "e2e3"}, "after the game ended (last king standing)")

	// A check announced for the wrong seats.
	st = royale(t, royaleKings+"wki1 brb1 wra2 spo8", "1 w a s b - 0")
	evs = decided(t, st, 2, game.Move{Notation: "a2a3"})
	after := r.Evolve(st, evs[0])
	if err := r.Audit(after, evs[1]); err != nil {
		t.Fatal(err)
	}
	wantAuditError(t, after, ChecksAnnounced{Seats: []int{2}}, "seats [2] recorded, the rules give [0,2]")
	wantAuditError(t, after, ChecksAnnounced{}, "seats null recorded")
}

func TestAuditStart(t *testing.T) {
	for _, tc := range []struct {
		e    GameStarted
		what string
	}{
		{GameStarted{Mode: "CHESS", Position: sovereign.StartNotation}, "mode"},
		{GameStarted{Mode: TwoPlayer, Position: sovereign.StartNotation + " "}, "canonical"},
		{GameStarted{Mode: TwoPlayer, Position: "16/16 1 w b - 0"}, "position"},
		{GameStarted{Mode: Royale, Position: sovereign.StartNotation, FirstMover: -1, Order: []int{0, 1, 2, 3}}, "4 owned colours"},
		{GameStarted{Mode: TwoPlayer, Position: sovereign.StartNotation, FirstMover: 2}, "firstMover 2"},
		{GameStarted{Mode: TwoPlayer, Position: sovereign.StartNotation, FirstMover: -1}, "firstMover -1"},
		{GameStarted{Mode: TwoPlayer, Position: sovereign.StartNotation, FirstMover: 0, Order: []int{1, 0}}, "order"},
		{GameStarted{Mode: Royale, Position: sovereign.RoyaleStartNotation, FirstMover: 0, Order: []int{0, 1, 2, 3}}, "firstMover 0"},
		{GameStarted{Mode: Royale, Position: sovereign.RoyaleStartNotation, FirstMover: -1, Order: []int{0, 0, 1, 2}}, "order"},
		{GameStarted{Mode: Royale, Position: sovereign.RoyaleStartNotation, FirstMover: -1}, "order"},
	} {
		wantAuditError(t, nil, tc.e, tc.what)
	}
	for _, ok := range []GameStarted{
		{Mode: TwoPlayer, Position: sovereign.StartNotation, FirstMover: 1},
		{Mode: Royale, Position: sovereign.RoyaleStartNotation, FirstMover: -1, Order: []int{3, 1, 0, 2}},
	} {
		if err := r.Audit(nil, ok); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
	wantAuditError(t, nil, MovePlayed{Move: "e2e4"}, "before GameStarted")
}

// A stored two-player match in which a defection's forced king move took the other king
// (what the rules recorded before rulebook-2017.3) no longer passes the audit: the move is
// refused as illegal, so verify reports it, and neither the Royale-only facts after it
// nor the "stalemate" they led to are ever folded.
func TestAuditRefusesAKingCapturedByADefection(t *testing.T) {
	start, stored := kingTakenByDefection(t)
	st := from(t, start)
	// As verify does: audit each event from the state before it, and fold it.
	var s game.State = st
	for i, e := range stored {
		err := r.Audit(s, e)
		if err != nil {
			if i != 0 || !strings.Contains(err.Error(), "=yk6j7") || !strings.Contains(err.Error(), "illegal") {
				t.Fatalf("event %d (%s) refused: %v; want the move refused as illegal", i, e.EventType(), err)
			}
			break
		}
		if i == len(stored)-1 {
			t.Fatal("the audit accepts a two-player king capture")
		}
		s = r.Evolve(s, e)
	}
	// The honest ways off k6 pass.
	for _, m := range []string{"=yk6k5", "=yk6l7"} {
		if err := r.Audit(st, decided(t, st, 1, game.Move{Notation: m})[0]); err != nil {
			t.Errorf("%s: %v", m, err)
		}
	}
}

// kingTakenByDefection is a two-player game where the slate king on k6 must defect to
// yellow and leave k6, and the black king stands on j7, a slate square: the start, and
// the stream the rules before rulebook-2017.3 recorded when the yellow king took it.
func kingTakenByDefection(t *testing.T) (GameStarted, []game.Event) {
	t.Helper()
	return GameStarted{Mode: TwoPlayer, Position: notation(t, "bpa10 bkj7 skk6 spa3", "2 b s - 0"), FirstMover: -1}, []game.Event{
		MovePlayed{Seat: 1, Move: "=yk6j7", Piece: 2, Position: notation(t, "bpa10 ykj7 spa3", "1 b y - 1")},
		Defected{Seat: 1, From: "slate", To: "yellow"},
		KingCaptured{Seat: 0, By: 1, Colour: "black", Square: "j7"},
		InterregnumBegun{Seat: 0, Cause: "captured"},
		GameEnded{Reason: "stalemate", Winners: []int{}, Standings: []string{"tied", "tied"}},
	}
}
