package clock

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
)

var noon = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// sec is noon plus n seconds.
func sec(n float64) time.Time { return noon.Add(time.Duration(n * float64(time.Second))) }

func TestParse(t *testing.T) {
	for v, want := range map[string]Setup{
		"5+3":     {InitialMs: 300_000, IncrementMs: 3000},
		"0.5+0":   {InitialMs: 30_000},
		"600+600": {InitialMs: 36_000_000, IncrementMs: 600_000},
	} {
		got, err := Parse(v)
		if err != nil || got != want {
			t.Errorf("%q: %+v, %v; want %+v", v, got, err, want)
		}
		if got.String() != v {
			t.Errorf("%q written back as %q", v, got.String())
		}
	}
	for _, bad := range []string{"", "5", "5+", "+3", "0+1", "-1+0", "5+-1", "601+0", "5+601", "five+three", "5+1.5",
		"NaN+0", "nan+0", "Inf+0", "+Inf+0", "1e-9+0", "0.000001+0", "0.01+0", "0x1p-2+0", ".5+0", "1e1+0", " 5+0"} {
		if _, err := Parse(bad); game.CodeOf(err) != game.BadInput {
			t.Errorf("%q: %v, want a BAD_USER_INPUT rejection", bad, err)
		}
	}
}

func TestFromOptions(t *testing.T) {
	if c, err := FromOptions(game.Options{"mode": "x"}); c != nil || err != nil {
		t.Errorf("no clock option: %+v, %v", c, err)
	}
	if c, err := FromOptions(game.Options{Option: "1+2"}); err != nil || *c != (Setup{InitialMs: 60_000, IncrementMs: 2000}) {
		t.Errorf("1+2: %+v, %v", c, err)
	}
	if _, err := FromOptions(game.Options{Option: "fast"}); game.CodeOf(err) != game.BadInput {
		t.Errorf("fast: %v", err)
	}
}

func TestAuditStart(t *testing.T) {
	five := &Setup{InitialMs: 300_000, IncrementMs: 3000}
	if err := errors.Join(AuditStart(nil, time.Time{}), AuditStart(five, noon)); err != nil {
		t.Errorf("true starts: %v", err)
	}
	for name, tc := range map[string]struct {
		c  *Setup
		at time.Time
	}{
		"a start time alone":  {nil, noon},
		"a clock without one": {five, time.Time{}},
		"no time at all":      {&Setup{IncrementMs: 1000}, noon},
		"a part of a second":  {&Setup{InitialMs: 1000, IncrementMs: 1500}, noon},
		"an instant clock":    {&Setup{InitialMs: 60}, noon}, // "0.000001+0" as an old server stored it
	} {
		if err := AuditStart(tc.c, tc.at); err == nil {
			t.Errorf("%s passed", name)
		}
	}
}

func TestNoClock(t *testing.T) {
	c := Start(nil, 2, noon)
	if c.On || !c.Deadline(0).IsZero() || c.Late(0, sec(1e6)) {
		t.Fatalf("a game without a clock has a deadline: %+v", c)
	}
	if st := c.Stamp(0, sec(5), true); st != (Stamp{}) {
		t.Errorf("a stamp without a clock: %+v", st)
	}
	if c.Ended(0, Stamp{At: sec(5), LeftMs: 7}).On {
		t.Errorf("a stamp turned the clock on")
	}
	if err := c.Audit(0, Stamp{}, true); err != nil {
		t.Errorf("an empty stamp without a clock: %v", err)
	}
	if err := c.Audit(0, Stamp{At: sec(5)}, true); err == nil || !strings.Contains(err.Error(), "without a clock") {
		t.Errorf("a stamp in a game without a clock passed: %v", err)
	}
	fell, err := c.Flag(0, game.Action{Seat: 0, At: sec(1e6), Do: game.Move{}})
	if fell || err != nil {
		t.Errorf("a move without a clock: %v %v", fell, err)
	}
	if _, err := c.Flag(0, game.Action{Seat: game.System, At: sec(1e6), Do: game.Timeout{}}); game.CodeOf(err) != game.Conflict {
		t.Errorf("a timeout without a clock: %v", err)
	}
	if err := c.AuditFlag(0, FlagFell{Seat: 0, At: sec(1)}); err == nil {
		t.Errorf("a flag without a clock passed the audit")
	}
}

// Three seats, 1+2: each seat's time runs only while it is to act, and the increment is
// added when its turn ends.
func TestTimeRunsForTheSeatToAct(t *testing.T) {
	c := Start(&Setup{InitialMs: 60_000, IncrementMs: 2000}, 3, noon)
	if !c.Deadline(0).Equal(sec(60)) {
		t.Fatalf("seat 0's first deadline %v", c.Deadline(0))
	}
	st := c.Stamp(0, sec(10), true)
	if st != (Stamp{At: sec(10), LeftMs: 52_000}) {
		t.Fatalf("after 10 s with 2 s of increment seat 0 has 52 s: %+v", st)
	}
	before := c
	c = c.Ended(0, st)
	if before.Left[0] != time.Minute || !before.TurnStart.Equal(noon) {
		t.Fatalf("Ended wrote into the clock it was given: %+v", before)
	}
	if c.Left[0] != 52*time.Second || !c.Deadline(1).Equal(sec(70)) {
		t.Fatalf("seat 1's deadline %v, want 12:01:10", c.Deadline(1))
	}
	// A step of seat 1's turn that does not end it: the time, no time left recorded, and
	// the clock runs on from the turn's start.
	if mid := c.Stamp(1, sec(30), false); mid != (Stamp{At: sec(30)}) {
		t.Fatalf("a step inside a turn: %+v", mid)
	}
	c = c.Ended(1, c.Stamp(1, sec(40), true))
	if c.Left[1] != 32*time.Second || c.Left[2] != time.Minute || !c.Deadline(2).Equal(sec(100)) {
		t.Fatalf("after seat 1's 30 s turn: %+v, seat 2's deadline %v", c.Left, c.Deadline(2))
	}
	if c.Late(2, sec(99.999)) || !c.Late(2, sec(100)) {
		t.Errorf("the deadline itself is too late, a millisecond before is not")
	}
}

func TestFlag(t *testing.T) {
	c := Start(&Setup{InitialMs: 30_000}, 2, noon)
	deadline := sec(30)
	for _, tc := range []struct {
		name string
		a    game.Action
		fell bool
	}{
		{"a move in time", game.Action{Seat: 0, At: sec(29.999), Do: game.Move{}}, false},
		{"a move at the deadline", game.Action{Seat: 0, At: deadline, Do: game.Move{}}, true},
		{"a card after it", game.Action{Seat: 0, At: sec(31), Do: cards.PlayCard{}}, true},
		{"the timeout of the deadline", game.Action{Seat: game.System, At: deadline, Do: game.Timeout{Deadline: deadline}}, true},
		{"the same, a little late", game.Action{Seat: game.System, At: sec(30.2), Do: game.Timeout{Deadline: deadline}}, true},
	} {
		fell, err := c.Flag(0, tc.a)
		if err != nil || fell != tc.fell {
			t.Errorf("%s: %v %v", tc.name, fell, err)
		}
	}
	for name, a := range map[string]game.Action{
		"an early timeout":   {Seat: game.System, At: sec(29), Do: game.Timeout{Deadline: deadline}},
		"a stale deadline":   {Seat: game.System, At: sec(90), Do: game.Timeout{Deadline: sec(20)}},
		"a deadline to come": {Seat: game.System, At: sec(90), Do: game.Timeout{Deadline: sec(40)}},
		"no deadline":        {Seat: game.System, At: sec(90), Do: game.Timeout{}},
	} {
		if _, err := c.Flag(0, a); game.CodeOf(err) != game.Conflict {
			t.Errorf("%s: %v, want a CONFLICT rejection", name, err)
		}
	}
	if err := c.AuditFlag(0, FlagFell{Seat: 0, At: deadline}); err != nil {
		t.Errorf("a true flag: %v", err)
	}
	if err := c.AuditFlag(0, FlagFell{Seat: 1, At: deadline}); err == nil {
		t.Errorf("the flag of the seat not to act passed")
	}
	if err := c.AuditFlag(0, FlagFell{Seat: 0, At: sec(29)}); err == nil {
		t.Errorf("a flag before the deadline passed")
	}
}

func TestAudit(t *testing.T) {
	c := Start(&Setup{InitialMs: 60_000, IncrementMs: 1000}, 2, noon)
	for _, tc := range []struct {
		st       Stamp
		endsTurn bool
		says     string
	}{
		{Stamp{At: sec(10), LeftMs: 51_000}, true, ""},
		{Stamp{At: sec(10)}, false, ""},
		{Stamp{At: sec(10), LeftMs: 81_000}, true, "81000 ms left recorded, the clock gives 51000"},
		{Stamp{At: sec(10), LeftMs: 51_000}, false, "51000 ms left recorded, the clock gives 0"},
		{Stamp{At: sec(60), LeftMs: 1000}, true, "after the deadline"},
	} {
		err := c.Audit(0, tc.st, tc.endsTurn)
		if tc.says == "" && err != nil || tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)) {
			t.Errorf("%+v (ends the turn: %v): %v, want %q", tc.st, tc.endsTurn, err, tc.says)
		}
	}
}

// A seat that leaves during its turn at a moment the rules are told: its time runs until
// then, and the next turn starts exactly there.
func TestQuit(t *testing.T) {
	c := Start(&Setup{InitialMs: 60_000, IncrementMs: 2000}, 3, noon)
	q := c.Quit(0, sec(10))
	if !q.Deadline(1).Equal(sec(70)) || q.Left[0] != 50*time.Second || q.Left[1] != time.Minute {
		t.Fatalf("after seat 0 quit at 10 s: seat 1's deadline %v, seat 0 has %v, seat 1 %v", q.Deadline(1), q.Left[0], q.Left[1])
	}
	if left := q.LeftAfter(1, sec(15)); left != 57*time.Second {
		t.Errorf("seat 1 moving 5 s after seat 0 quit has %v", left)
	}
	// Past its deadline, the seat has nothing left, and the next turn starts when it quit.
	if q = c.Quit(0, sec(75)); !q.Deadline(1).Equal(sec(135)) || q.Left[0] != 0 {
		t.Errorf("after seat 0 quit at 75 s: seat 1's deadline %v, seat 0 has %v", q.Deadline(1), q.Left[0])
	}
	if q = (Clock{}).Quit(0, sec(10)); q.On {
		t.Errorf("a game without a clock has one after a seat quit: %+v", q)
	}
}

// The reading shows the control, each seat's time as of the last event, and the seat
// whose clock runs since its turn started; none once the game is over.
func TestRead(t *testing.T) {
	if _, ok := (Clock{}).Read(game.Status{ToAct: []int{0}}); ok {
		t.Fatal("a game without a clock has a reading")
	}
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	c := Start(&Setup{InitialMs: 300_000, IncrementMs: 3000}, 2, at)
	c = c.Ended(0, c.Stamp(0, at.Add(10*time.Second), true))
	live := game.Status{ToAct: []int{1}, Deadline: c.Deadline(1)}
	r, ok := c.Read(live)
	if !ok || r.Control.String() != "5+3" || r.Running != 1 || !r.Since.Equal(at.Add(10*time.Second)) ||
		r.Left[0] != 293*time.Second || r.Left[1] != 300*time.Second {
		t.Fatalf("after White's first move: %+v, %v", r, ok)
	}
	r.Left[0] = 0
	if c.Left[0] != 293*time.Second {
		t.Fatal("the reading shares the clock's memory")
	}
	if r, _ := c.Read(game.Status{Over: true}); r.Running != -1 || !r.Since.IsZero() {
		t.Fatalf("a game over: %+v", r)
	}
}
