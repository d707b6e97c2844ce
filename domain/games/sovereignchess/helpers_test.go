package sovereignchess

import (
	"reflect"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/sovereign"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

var r = Rules{}

// Two seeds and what Setup draws from them (cross-checked in TestSetupDrawsFromTheSeed).
const (
	seedFirstMover1 = "arbiter-seed-0001" // seat 1 plays White's first move; Royale order [3 0 1 2]
	seedFirstMover0 = "arbiter-seed-0003" // seat 0 plays White's first move; Royale order [2 1 0 3]
)

// notation writes a position from a list of pieces ("wki1 bki16 npe5") and the other
// fields of the notation ("1 w b - 10").
func notation(t *testing.T, pieces, rest string) string {
	t.Helper()
	b, err := sovereign.BoardNotation(pieces)
	if err != nil {
		t.Fatal(err)
	}
	return b + " " + rest
}

// from starts a game as e records it.
func from(t *testing.T, e GameStarted) State {
	t.Helper()
	if err := r.Audit(nil, e); err != nil {
		t.Fatalf("%+v: %v", e, err)
	}
	return r.Evolve(nil, e).(State)
}

// twoPlayer starts a two-player game at a position without an opening choice: seat 0
// plays the side written "1".
func twoPlayer(t *testing.T, pieces, rest string) State {
	t.Helper()
	return from(t, GameStarted{Mode: TwoPlayer, Position: notation(t, pieces, rest), FirstMover: -1})
}

// royaleOrder2031 is the Royale draw of the tests: White plays at seat 2, Ash at seat 0,
// Slate at seat 3, Black at seat 1.
var royaleOrder2031 = []int{2, 0, 3, 1}

// royale starts a Royale game at a position, with the seats of royaleOrder2031.
func royale(t *testing.T, pieces, rest string) State {
	t.Helper()
	return from(t, GameStarted{Mode: Royale, Position: notation(t, pieces, rest), FirstMover: -1, Order: royaleOrder2031})
}

// seeded starts a game through Setup.
func seeded(t *testing.T, opts game.Options, seed string) (State, GameStarted) {
	t.Helper()
	evs, err := r.Setup(game.Setup{Options: opts, Seed: []byte(seed)})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].Visibility != visibility.Public {
		t.Fatalf("Setup: %+v", evs)
	}
	e := evs[0].Event.(GameStarted)
	return from(t, e), e
}

// act has seat do something, and folds what Decide records.
func act(t *testing.T, st State, seat int, do any) (State, []game.Event) {
	t.Helper()
	evs, err := r.Decide(st, game.Action{Seat: seat, Do: do})
	if err != nil {
		t.Fatalf("seat %d %+v: %v", seat, do, err)
	}
	return fold(t, st, evs)
}

// fold checks that each event is public and passes the audit from the state before it,
// and folds it.
func fold(t *testing.T, st State, evs []game.Emitted) (State, []game.Event) {
	t.Helper()
	var s game.State = st
	var out []game.Event
	for _, e := range evs {
		if e.Visibility != visibility.Public {
			t.Errorf("%s is not public", e.Event.EventType())
		}
		if err := r.Audit(s, e.Event); err != nil {
			t.Fatalf("%s as decided fails the audit: %v", e.Event.EventType(), err)
		}
		s = r.Evolve(s, e.Event)
		out = append(out, e.Event)
	}
	return s.(State), out
}

// move has the seat to act play a move, and returns the facts recorded after MovePlayed.
func move(t *testing.T, st State, notation string) (State, []game.Event) {
	t.Helper()
	s, evs := act(t, st, r.Status(st).ToAct[0], game.Move{Notation: notation})
	if mv, ok := evs[0].(MovePlayed); !ok || mv.Move != notation {
		t.Fatalf("%s recorded as %+v", notation, evs[0])
	}
	return s, evs[1:]
}

// play has the seats to act play moves in turn.
func play(t *testing.T, st State, moves ...string) State {
	t.Helper()
	for _, m := range moves {
		st, _ = move(t, st, m)
	}
	return st
}

// refused checks that seat's action is rejected with code, and that the state did not
// change; it returns the rejection.
func refused(t *testing.T, st State, seat int, do any, code game.Code) *game.Error {
	t.Helper()
	fen, moves := r.Board(st).FEN, r.MoveList(st)
	evs, err := r.Decide(st, game.Action{Seat: seat, Do: do})
	if game.CodeOf(err) != code {
		t.Fatalf("seat %d %+v: %v %+v, want a %s rejection", seat, do, err, evs, code)
	}
	if r.Board(st).FEN != fen || !reflect.DeepEqual(r.MoveList(st), moves) {
		t.Fatalf("seat %d %+v: the rejection changed the state", seat, do)
	}
	return err.(*game.Error)
}

// refusal is an action to be refused with code, for a reason that says says.
type refusal struct {
	do   any
	code game.Code
	says string
}

// refusedAll checks refusals of seat's actions.
func refusedAll(t *testing.T, st State, seat int, cases []refusal) {
	t.Helper()
	for _, tc := range cases {
		if err := refused(t, st, seat, tc.do, tc.code); !strings.Contains(err.Reason, tc.says) {
			t.Errorf("%+v: %q, want it to say %q", tc.do, err.Reason, tc.says)
		}
	}
}

// same fails unless got is want.
func same(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}
