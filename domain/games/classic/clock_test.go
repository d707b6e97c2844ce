package classic

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

var noon = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// clocked starts a game with a time control at noon.
func clocked(t *testing.T, fen, control string) State {
	t.Helper()
	opts := game.Options{"clock": control}
	if fen != "" {
		opts["fen"] = fen
	}
	if _, err := (Rules{}).Plan(opts); err != nil {
		t.Fatal(err)
	}
	evs, err := Rules{}.Setup(game.Setup{Options: opts, At: noon})
	if err != nil {
		t.Fatal(err)
	}
	return Rules{}.Evolve(nil, evs[0].Event).(State)
}

// at plays one action at a time and returns the new state and its events.
func at(t *testing.T, st State, seat int, when time.Time, do any) (State, []game.Emitted) {
	t.Helper()
	evs, err := Rules{}.Decide(st, game.Action{Seat: seat, At: when, Do: do})
	if err != nil {
		t.Fatalf("%v at %v: %v", do, when, err)
	}
	var s game.State = st
	for _, e := range evs {
		s = Rules{}.Evolve(s, e.Event)
	}
	return s.(State), evs
}

func TestTheClockRunsForTheSideToMove(t *testing.T) {
	st := clocked(t, "", "1+2")
	if d := (Rules{}).Status(st).Deadline; !d.Equal(noon.Add(time.Minute)) {
		t.Fatalf("White's first deadline %v", d)
	}
	st, evs := at(t, st, 0, noon.Add(10*time.Second), game.Move{Notation: "e4"})
	if mv := evs[0].Event.(MovePlayed); mv.LeftMs != 52_000 || !mv.At.Equal(noon.Add(10*time.Second)) {
		t.Fatalf("after 10 s with a 2 s increment White has 52 s: %+v", mv)
	}
	if d := (Rules{}).Status(st).Deadline; !d.Equal(noon.Add(70 * time.Second)) {
		t.Fatalf("Black's deadline %v, want 12:01:10", d)
	}
	// Black answers late: the move is not played, the flag has fallen.
	st, evs = at(t, st, 1, noon.Add(71*time.Second), game.Move{Notation: "e5"})
	if ff, ok := evs[0].Event.(FlagFell); !ok || ff.Seat != 1 || ff.Draw {
		t.Fatalf("a late move: %+v", evs)
	}
	if s := (Rules{}).Status(st); !s.Over || s.Outcome.Reason != "timeout" || s.Outcome.Winners[0] != 0 {
		t.Fatalf("after Black's flag: %+v", s)
	}
}

func TestTimeoutsAreCheckedAgainstTheDeadline(t *testing.T) {
	st := clocked(t, "", "0.5+0")
	deadline := noon.Add(30 * time.Second)
	for _, c := range []struct {
		deadline, when time.Time
	}{
		{deadline, noon.Add(29 * time.Second)},               // too early
		{deadline.Add(time.Second), deadline.Add(time.Hour)}, // not this turn's deadline
	} {
		_, err := Rules{}.Decide(st, game.Action{Seat: game.System, At: c.when, Do: game.Timeout{Deadline: c.deadline}})
		if game.CodeOf(err) != game.Conflict {
			t.Fatalf("timeout %v at %v: %v", c.deadline, c.when, err)
		}
	}
	_, evs := at(t, st, game.System, deadline, game.Timeout{Deadline: deadline})
	if ff := evs[0].Event.(FlagFell); ff.Seat != 0 {
		t.Fatalf("White's flag: %+v", ff)
	}
	if _, err := (Rules{}).Decide(clocked(t, "", "1+0"), game.Action{Seat: game.System, At: noon, Do: game.Timeout{}}); err == nil {
		t.Fatalf("a timeout without a deadline passed")
	}
	noClock := play(t, "")
	if _, err := (Rules{}).Decide(noClock, game.Action{Seat: game.System, At: noon, Do: game.Timeout{}}); game.CodeOf(err) != game.Conflict {
		t.Fatalf("a timeout in a game without a clock: %v", err)
	}
}

func TestFlagAgainstABareKingIsADraw(t *testing.T) {
	// White has a queen, Black a bare king: if White's flag falls, Black cannot mate.
	st := clocked(t, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "1+0")
	st, _ = at(t, st, game.System, noon.Add(time.Minute), game.Timeout{Deadline: noon.Add(time.Minute)})
	if s := (Rules{}).Status(st); !s.Over || len(s.Outcome.Winners) != 0 || s.Outcome.Reason != "timeout vs insufficient material" {
		t.Fatalf("%+v", s)
	}
}

func TestClockOptions(t *testing.T) {
	for _, bad := range []string{"", "5", "5+", "+3", "0+1", "-1+0", "5+-1", "601+0", "five+three"} {
		if _, err := (Rules{}).Plan(game.Options{"clock": bad}); game.CodeOf(err) != game.BadInput {
			t.Errorf("clock %q: %v", bad, err)
		}
	}
}

func TestAuditChecksTheClock(t *testing.T) {
	st := clocked(t, "", "1+2")
	when := noon.Add(10 * time.Second)
	evs, err := Rules{}.Decide(st, game.Action{Seat: 0, At: when, Do: game.Move{Notation: "e4"}})
	if err != nil {
		t.Fatal(err)
	}
	mv := evs[0].Event.(MovePlayed)
	if err := (Rules{}).Audit(st, mv); err != nil {
		t.Fatalf("a true move fails the audit: %v", err)
	}
	forged := mv
	forged.LeftMs += 30_000
	if err := (Rules{}).Audit(st, forged); err == nil {
		t.Fatalf("30 s added to White's clock passed the audit")
	}
	late := mv
	late.At = noon.Add(2 * time.Minute)
	if err := (Rules{}).Audit(st, late); err == nil {
		t.Fatalf("a move after the deadline passed the audit")
	}
	if err := (Rules{}).Audit(st, FlagFell{Seat: 1}); err == nil {
		t.Fatalf("Black's flag fell on White's turn and passed the audit")
	}
}

// The clock's events are stored as they always were: a match played before the clock
// moved to domain/clock reads and replays the same.
func TestClockEventsKeepTheirShape(t *testing.T) {
	st := clocked(t, "", "5+3")
	_, evs := at(t, st, 0, noon.Add(1500*time.Millisecond), game.Move{Notation: "e4"})
	for _, tc := range []struct {
		e    game.Event
		want string
	}{
		{GameStarted{FEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Clock: &ClockSetup{InitialMs: 300_000, IncrementMs: 3000}, At: noon},
			`{"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","clock":{"initialMs":300000,"incrementMs":3000},"at":"2026-11-30T12:00:00Z"}`},
		{evs[0].Event,
			`{"seat":0,"uci":"e2e4","san":"e4","piece":13,"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1","at":"2026-11-30T12:00:01.5Z","leftMs":301500}`},
		{FlagFell{Seat: 1, Draw: true}, `{"seat":1,"draw":true}`},
	} {
		got, err := game.Encode(tc.e)
		if err != nil || string(got) != tc.want {
			t.Errorf("%T stored as %s (%v), want %s", tc.e, got, err, tc.want)
		}
		back, err := Rules{}.Events().Decode(tc.e.EventType(), 1, []byte(tc.want))
		if err != nil || back.EventType() != tc.e.EventType() {
			t.Errorf("%s read back as %+v, %v", tc.want, back, err)
		}
	}
}

// A flag falls at the deadline, whenever it is found: the engine's timeout may come late
// under load, a late move later still. The event records the deadline (schema 2), the
// flagged side's clock stops there at 0, and the audit holds the event to it. An event of
// schema 1, recorded without the time, reads and folds as it always did: the clock as it
// was at the start of the turn.
func TestAFlagFallsAtItsDeadline(t *testing.T) {
	st := clocked(t, "", "1+2")
	st, _ = at(t, st, 0, noon.Add(10*time.Second), game.Move{Notation: "e4"})
	deadline := noon.Add(70 * time.Second) // Black's: 60 s from White's move
	for _, found := range []game.Action{
		{Seat: game.System, At: deadline.Add(25 * time.Second), Do: game.Timeout{Deadline: deadline}}, // a late timer
		{Seat: 1, At: deadline.Add(2 * time.Second), Do: game.Move{Notation: "e5"}},                   // a late move
	} {
		evs, err := Rules{}.Decide(st, found)
		if err != nil {
			t.Fatal(err)
		}
		ff, ok := evs[0].Event.(FlagFell)
		if !ok || ff != (FlagFell{Seat: 1, At: deadline}) {
			t.Fatalf("found at %v: %+v, want Black's flag at its deadline %v", found.At, evs[0].Event, deadline)
		}
		if err := (Rules{}).Audit(st, ff); err != nil {
			t.Fatalf("the flag at its deadline fails the audit: %v", err)
		}
		if err := (Rules{}).Audit(st, FlagFell{Seat: 1, At: found.At}); err == nil {
			t.Fatalf("a flag recorded at %v, after its deadline, passed the audit", found.At)
		}
		stored, err := game.Encode(ff)
		if want := `{"seat":1,"at":"2026-11-30T12:01:10Z"}`; err != nil || string(stored) != want {
			t.Fatalf("stored as %s (%v), want %s", stored, err, want)
		}
		if s := (Rules{}).Events().Schema("FlagFell"); s != 2 {
			t.Fatalf("FlagFell's schema is %d, want 2", s)
		}
		over := Rules{}.Evolve(st, ff).(State)
		r, _ := over.Clock.Read(Rules{}.Status(over))
		if r.Left[1] != 0 || r.Left[0] != 52*time.Second || r.Running != -1 || !over.Clock.TurnStart.Equal(deadline) {
			t.Fatalf("the clock after the flag: %+v, turn start %v", r, over.Clock.TurnStart)
		}
		if s := (Rules{}).Status(over); !s.Over || s.Outcome.Reason != "timeout" || s.Outcome.Winners[0] != 0 {
			t.Fatalf("after Black's flag: %+v", s)
		}
	}
	// Schema 1: no time. It decodes, passes the audit, and folds to the state it always did.
	old, err := Rules{}.Events().Decode("FlagFell", 1, []byte(`{"seat":1}`))
	if err != nil || old != (FlagFell{Seat: 1}) {
		t.Fatalf("a FlagFell of schema 1 reads as %+v, %v", old, err)
	}
	if err := (Rules{}).Audit(st, old); err != nil {
		t.Fatalf("a FlagFell of schema 1 fails the audit: %v", err)
	}
	over := Rules{}.Evolve(st, old).(State)
	want := st
	want.Flag = &FlagFell{Seat: 1}
	if !reflect.DeepEqual(over.Clock, st.Clock) || !reflect.DeepEqual(over.Flag, want.Flag) {
		t.Fatalf("a FlagFell of schema 1 folds to clock %+v, flag %+v; want the clock as it was, %+v", over.Clock, over.Flag, st.Clock)
	}
}

// A FlagFell of schema 2 records when the flag fell: one without at is malformed, not a
// flag of schema 1, and is refused where stored events are decoded (verify's decoding
// check, the fold that sets the match aside), rather than passing the audit as an old one.
// Schema 1 without at, and schema 2 with it, decode.
func TestAFlagOfSchema2WithoutItsTimeIsRefused(t *testing.T) {
	codec := Rules{}.Events()
	for _, tc := range []struct {
		schema  int
		payload string
		ok      bool
	}{
		{1, `{"seat":1}`, true},
		{2, `{"seat":1,"at":"2026-11-30T12:01:10Z"}`, true},
		{2, `{"seat":1}`, false},
		{2, `{"seat":0,"draw":true}`, false},
		{2, `{"seat":1,"at":"0001-01-01T00:00:00Z"}`, false},
	} {
		e, err := codec.Decode("FlagFell", tc.schema, []byte(tc.payload))
		if (err == nil) != tc.ok {
			t.Errorf("FlagFell of schema %d %s: %+v, %v; want it read: %v", tc.schema, tc.payload, e, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "no at") {
			t.Errorf("FlagFell of schema %d %s refused as %q", tc.schema, tc.payload, err)
		}
	}
}
