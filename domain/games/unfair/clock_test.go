package unfair

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// timed is s played with the time control control, White's clock started at noon.
func timed(t *testing.T, s State, control string) State {
	t.Helper()
	c, err := clock.Parse(control)
	if err != nil {
		t.Fatal(err)
	}
	s.Clock = clock.Start(&c, 2, noon)
	return s
}

// noon is when the clocks of these tests start; secs(n) is n seconds later.
var noon = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func secs(n float64) time.Time { return noon.Add(time.Duration(n * float64(time.Second))) }

// actAt has the seat to act do something at when (a game.Timeout comes from the engine);
// every event must pass the audit from the state before it, and is folded.
func actAt(t *testing.T, s State, when time.Time, do any) (State, []game.Emitted) {
	t.Helper()
	seat := s.toAct()
	if _, ok := do.(game.Timeout); ok {
		seat = game.System
	}
	evs, err := Rules{}.Decide(s, game.Action{Seat: seat, At: when, Do: do})
	if err != nil {
		t.Fatalf("%+v at %s: %v", do, when.Format(time.TimeOnly), err)
	}
	st := game.State(s)
	for _, e := range evs {
		if err := (Rules{}).Audit(st, e.Event); err != nil {
			t.Fatalf("%+v: Audit refuses %T: %v", do, e.Event, err)
		}
		st = Rules{}.Evolve(st, e.Event)
	}
	return st.(State), evs
}

// stamps are the clock stamps of the actions among evs.
func stamps(evs []game.Emitted) []clock.Stamp {
	var out []clock.Stamp
	for _, e := range evs {
		switch e := e.Event.(type) {
		case MovePlayed:
			out = append(out, e.Stamp)
		case CardPlayed:
			out = append(out, e.Stamp)
		}
	}
	return out
}

// deadline is the deadline Status announces, and fails unless seat is to act.
func deadline(t *testing.T, s State, seat int) time.Time {
	t.Helper()
	st := Rules{}.Status(s)
	if st.Over || !slices.Equal(st.ToAct, []int{seat}) {
		t.Fatalf("status %+v, want seat %d to act", st, seat)
	}
	return st.Deadline
}

func TestClockOption(t *testing.T) {
	r := Rules{}
	if _, err := r.Plan(game.Options{"clock": "5+3"}); err != nil {
		t.Fatal(err)
	}
	for _, opts := range []game.Options{{"clock": "0+1"}, {"clock": "5"}, {"clock": "5+3", "fen": bareKings}} {
		if _, err := r.Plan(opts); game.CodeOf(err) != game.BadInput {
			t.Errorf("%v: %v", opts, err)
		}
	}
	seed := []byte("unfair-clock-seed-0001")
	evs, err := r.Setup(game.Setup{Options: game.Options{"clock": "5+3"}, Seed: seed, At: noon})
	if err != nil {
		t.Fatal(err)
	}
	start := evs[0].Event.(GameStarted)
	if *start.Clock != (clock.Setup{InitialMs: 300_000, IncrementMs: 3000}) || !start.At.Equal(noon) {
		t.Fatalf("GameStarted %+v", start)
	}
	var st game.State
	for _, e := range evs {
		if err := r.Audit(st, e.Event); err != nil {
			t.Fatalf("%T: %v", e.Event, err)
		}
		st = r.Evolve(st, e.Event)
	}
	if d := deadline(t, st.(State), 0); !d.Equal(noon.Add(5 * time.Minute)) {
		t.Errorf("White's first deadline %v", d)
	}
	// Without the option, a match stores what it stored before clocks.
	evs, _ = r.Setup(game.Setup{Seed: seed, At: noon})
	_, mv := act(t, table(t, bareKings, holding(), holding()), game.Move{Notation: "Kd2"})
	for e, want := range map[game.Event][]string{
		evs[0].Event: {"deckSize", "fen", "handSize"},
		mv[0].Event:  {"fen", "piece", "san", "seat", "uci"},
	} {
		var fields map[string]any
		if p, err := game.Encode(e); err != nil || json.Unmarshal(p, &fields) != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if got := slices.Sorted(maps.Keys(fields)); !slices.Equal(got, want) {
			t.Errorf("%s without a clock stores %v, want %v", e.EventType(), got, want)
		}
	}
}

// A turn is a card that adds to the move and the moves it owes: the clock runs from the
// turn's start to its end, each action records its time, and the increment is added once,
// on the move that ends the turn.
func TestClockRunsForAWholeTurn(t *testing.T) {
	s := timed(t, table(t, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", holding("double-move"), holding()), "1+2")
	s, evs := actAt(t, s, secs(5), cards.PlayCard{Card: "double-move", Slot: -1})
	if got := stamps(evs); !slices.Equal(got, []clock.Stamp{{At: secs(5)}}) {
		t.Fatalf("the card: %+v", got)
	}
	if d := deadline(t, s, 0); !d.Equal(secs(60)) {
		t.Fatalf("White's deadline after the card: %v", d)
	}
	s, evs = actAt(t, s, secs(8), game.Move{Notation: "e4"})
	if got := stamps(evs); !slices.Equal(got, []clock.Stamp{{At: secs(8)}}) || !deadline(t, s, 0).Equal(secs(60)) {
		t.Fatalf("the first move: %+v", got)
	}
	s, evs = actAt(t, s, secs(12), game.Move{Notation: "e5"})
	if got := stamps(evs); !slices.Equal(got, []clock.Stamp{{At: secs(12), LeftMs: 50_000}}) {
		t.Fatalf("the move that ends the turn: %+v, want 60 s less 12 plus 2", got)
	}
	if d := deadline(t, s, 1); !d.Equal(secs(72)) {
		t.Fatalf("Black's deadline %v, want 12:01:12", d)
	}
	s, evs = actAt(t, s, secs(20), game.Move{Notation: "Kd7"})
	if got := stamps(evs); !slices.Equal(got, []clock.Stamp{{At: secs(20), LeftMs: 54_000}}) || !deadline(t, s, 0).Equal(secs(70)) {
		t.Fatalf("Black's move: %+v", got)
	}

	// A card sent with its move: both at the command's time, the time left on the move.
	s = timed(t, table(t, "4k3/8/8/8/8/8/4N3/4K3 w - - 0 1", holding("shield"), holding()), "1+2")
	s, evs = actAt(t, s, secs(10), cards.PlayCard{Card: "shield", Slot: -1, Targets: at("e2"), Move: "Kd2"})
	if got := stamps(evs); !slices.Equal(got, []clock.Stamp{{At: secs(10)}, {At: secs(10), LeftMs: 52_000}}) {
		t.Fatalf("shield and Kd2: %+v", got)
	}
	if d := deadline(t, s, 1); !d.Equal(secs(70)) {
		t.Fatalf("Black's deadline %v", d)
	}
	// A card that replaces the move ends the turn itself.
	s = timed(t, table(t, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", holding("teleport"), holding()), "1+0")
	_, evs = actAt(t, s, secs(30), cards.PlayCard{Card: "teleport", Slot: -1, Targets: at("b1", "e4")})
	if got := stamps(evs); !slices.Equal(got, []clock.Stamp{{At: secs(30), LeftMs: 30_000}}) {
		t.Fatalf("teleport: %+v", got)
	}
}

// A card or a move that arrives at or after the deadline is not played: the flag falls,
// and its seat loses, even against a bare king.
func TestFlagFallsOnALateAction(t *testing.T) {
	s := timed(t, table(t, "4k3/8/8/8/8/8/4P3/3QK3 w - - 0 1", holding("double-move"), holding()), "1+0")
	s, _ = actAt(t, s, secs(20), cards.PlayCard{Card: "double-move", Slot: -1})
	s, _ = actAt(t, s, secs(40), game.Move{Notation: "e4"})
	over, evs := actAt(t, s, secs(60), game.Move{Notation: "e5"})
	if len(evs) != 1 || evs[0].Event != (clock.FlagFell{Seat: 0, At: secs(60)}) || evs[0].Visibility != visibility.Public {
		t.Fatalf("the owed move at the deadline: %+v", evs)
	}
	st := Rules{}.Status(over)
	if !st.Over || st.Outcome.Reason != "timeout" || !slices.Equal(st.Outcome.Winners, []int{1}) {
		t.Fatalf("White's flag against a bare king: %+v", st)
	}
	if board(over) != board(s) || len(Rules{}.Board(over).LegalMoves) != 0 {
		t.Errorf("the late move was played, or moves are still offered")
	}
	if _, err := (Rules{}).Decide(over, game.Action{Seat: 1, At: secs(61), Do: game.Move{Notation: "Kd7"}}); game.CodeOf(err) != game.IllegalMove {
		t.Errorf("a move after the flag: %v", err)
	}

	// Black's card, late.
	s = timed(t, table(t, bareKings, holding(), holding("teleport", "wall")), "0.5+0")
	s, _ = actAt(t, s, secs(10), game.Move{Notation: "Kd2"})
	over, evs = actAt(t, s, secs(45), cards.PlayCard{Card: "wall", Slot: -1, Targets: at("e2")})
	if evs[0].Event != (clock.FlagFell{Seat: 1, At: secs(40)}) || !slices.Equal(Rules{}.Status(over).Outcome.Winners, []int{0}) { // at its deadline
		t.Fatalf("Black's late card: %+v", evs)
	}
	if hand(over, 1)[1] != "wall" {
		t.Errorf("the late card left the hand")
	}
}

// When nobody acts, the engine's timeout at the deadline makes the flag fall; one that is
// early or for another deadline is refused and changes nothing.
func TestTimeoutWithNobodyActing(t *testing.T) {
	s := timed(t, table(t, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", holding("double-move"), holding()), "1+0")
	s, _ = actAt(t, s, secs(59), cards.PlayCard{Card: "double-move", Slot: -1})
	for _, a := range []game.Action{
		{Seat: game.System, At: secs(59.5), Do: game.Timeout{Deadline: secs(60)}}, // early
		{Seat: game.System, At: secs(90), Do: game.Timeout{Deadline: secs(59)}},   // not this deadline
		{Seat: game.System, At: secs(90), Do: game.Timeout{}},
	} {
		before := deepCopy(s)
		if _, err := (Rules{}).Decide(s, a); game.CodeOf(err) != game.Conflict {
			t.Errorf("%+v: %v", a, err)
		}
		if !slices.Equal(s.Record, before.Record) || s.Flag != nil {
			t.Errorf("a refused timeout changed the state")
		}
	}
	over, evs := actAt(t, s, secs(60.01), game.Timeout{Deadline: secs(60)})
	if evs[0].Event != (clock.FlagFell{Seat: 0, At: secs(60)}) || (Rules{}).Status(over).Outcome.Reason != "timeout" { // at the deadline
		t.Fatalf("the timeout in the middle of White's turn: %+v", evs)
	}
}

func TestAuditChecksTheClock(t *testing.T) {
	r := Rules{}
	s := timed(t, table(t, "4k3/8/8/8/8/8/4N3/4K3 w - - 0 1", holding("shield"), holding()), "1+2")
	mid, evs := actAt(t, s, secs(10), cards.PlayCard{Card: "shield", Slot: -1, Targets: at("e2")})
	card := evs[0].Event.(CardPlayed)
	_, evs = actAt(t, mid, secs(15), game.Move{Notation: "Kd2"})
	mv := evs[0].Event.(MovePlayed)
	untimed := mid
	untimed.Clock = clock.Clock{}
	with := func(e game.Event, edit func(*clock.Stamp)) game.Event {
		switch e := e.(type) {
		case CardPlayed:
			edit(&e.Stamp)
			return e
		case MovePlayed:
			edit(&e.Stamp)
			return e
		}
		return e
	}
	for _, f := range []struct {
		name   string
		before State
		e      game.Event
		says   string
	}{
		{"time left on a card that does not end the turn", s, with(card, func(st *clock.Stamp) { st.LeftMs = 50_000 }), "50000 ms left recorded, the clock gives 0"},
		{"a card at the deadline", s, with(card, func(st *clock.Stamp) { st.At = secs(60) }), "at or after the deadline"},
		{"30 s more", mid, with(mv, func(st *clock.Stamp) { st.LeftMs += 30_000 }), "77000 ms left recorded, the clock gives 47000"},
		{"a move after the deadline", mid, with(mv, func(st *clock.Stamp) { st.At = secs(61) }), "at or after the deadline"},
		{"clock fields without a clock", untimed, mv, "without a clock"},
		{"Black's flag on White's turn", mid, clock.FlagFell{Seat: 1, At: secs(61)}, "seat 0 was to act"},
		{"a flag before the deadline", mid, clock.FlagFell{Seat: 0, At: secs(59)}, "before seat 0's deadline"},
		{"a flag without a clock", untimed, clock.FlagFell{Seat: 0, At: secs(61)}, "without a clock"},
		{"a start time without a clock", State{}, GameStarted{FEN: chess.StartFEN, HandSize: HandSize, DeckSize: len(deck), At: noon}, "a start time without a clock"},
	} {
		if err := r.Audit(f.before, f.e); err == nil || !strings.Contains(err.Error(), f.says) {
			t.Errorf("%s: %v, want it to say %q", f.name, err, f.says)
		}
	}
	if err := r.Audit(mid, clock.FlagFell{Seat: 0, At: secs(60)}); err != nil {
		t.Errorf("a true flag: %v", err)
	}
}
