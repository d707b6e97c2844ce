// Package clock is the game clock that every game of Arbiter shares: a time control
// chosen with the match option clock="minutes+increment" (for example "5+3"), one time
// per seat that runs while the seat is to act, and an increment added once per turn. It
// is pure, like the rules that use it: each action carries the server's receive time, and
// the event that ends a turn records when and what the seat had left ([Stamp]), so that
// folding the events gives the clock back and an audit can compute each value again. A
// game keeps a [Clock] in its state for its deadline, the flag ([Clock.Flag]), the stamps, and
// their audit.
package clock

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Option is the name of the match option that sets the time control.
const Option = "clock"

// Setup is a match's time control, as its start event records it.
type Setup struct {
	InitialMs   int64 `json:"initialMs"`
	IncrementMs int64 `json:"incrementMs"`
}

// The bounds of a time control. The shortest base time is one second: below it a seat's
// flag falls before its first move can reach the server. The longest is ten hours, and
// an increment is 0 to 600 whole seconds.
const (
	MinInitialMs   = 1_000
	MaxInitialMs   = 600 * 60_000
	MaxIncrementMs = 600_000
)

// Parse reads "minutes+increment": minutes written in plain decimal digits (5, 0.5),
// giving a base time (rounded to the millisecond) from MinInitialMs to MaxInitialMs, and an
// increment in whole seconds (0 to 600). Anything else (NaN, 1e-9, a base time under a
// second) is a BAD_USER_INPUT rejection.
func Parse(v string) (Setup, error) {
	m, s, ok := strings.Cut(v, "+")
	minutes, err1 := strconv.ParseFloat(m, 64)
	inc, err2 := strconv.Atoi(s)
	switch {
	case !ok || err1 != nil || err2 != nil || !plainDecimal(m):
		return Setup{}, game.Reject(game.BadInput, "option clock %q: write minutes+increment in seconds, such as 5+3 or 0.5+0", v)
	case minutes*60_000 < MinInitialMs || minutes*60_000 > MaxInitialMs:
		return Setup{}, game.Reject(game.BadInput, "option clock %q: the base time must be 1 second (0.0167 minutes) to 600 minutes", v)
	case inc < 0 || inc > MaxIncrementMs/1000:
		return Setup{}, game.Reject(game.BadInput, "option clock %q: the increment must be 0 to 600 seconds", v)
	}
	return Setup{InitialMs: int64(math.Round(minutes * 60_000)), IncrementMs: int64(inc) * 1000}, nil
}

// plainDecimal reports whether v is digits with at most one decimal point: ParseFloat
// alone also takes NaN, Inf, exponents and hexadecimal.
func plainDecimal(v string) bool {
	dot := false
	for i, r := range v {
		switch {
		case r >= '0' && r <= '9':
		case r == '.' && !dot && i > 0:
			dot = true
		default:
			return false
		}
	}
	return v != ""
}

// FromOptions reads the time control of a match's options: nil when the option is not
// given, a BAD_USER_INPUT rejection when it is malformed.
func FromOptions(opts game.Options) (*Setup, error) {
	v, ok := opts[Option]
	if !ok {
		return nil, nil
	}
	c, err := Parse(v)
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// AuditStart checks the time control a start event records (nil: none) with the time
// its first turn starts: both or neither, and a control that Parse may give.
func AuditStart(c *Setup, at time.Time) error {
	switch {
	case c == nil && !at.IsZero():
		return errors.New("a start time without a clock")
	case c == nil:
		return nil
	case at.IsZero():
		return fmt.Errorf("a clock %s without the time it starts", c)
	case c.InitialMs < MinInitialMs || c.InitialMs > MaxInitialMs || c.IncrementMs < 0 || c.IncrementMs > MaxIncrementMs || c.IncrementMs%1000 != 0:
		return fmt.Errorf("a clock of %d ms plus %d ms, which the option clock cannot set", c.InitialMs, c.IncrementMs)
	}
	return nil
}

func (c Setup) String() string {
	return fmt.Sprintf("%g+%d", float64(c.InitialMs)/60_000, c.IncrementMs/1000)
}

// Clock is the running clock of a game; the zero value is a game without a clock. It is a
// value: its methods return a new Clock and never write to memory that a copy shares, so
// a state that holds one may be copied freely.
type Clock struct {
	On        bool
	Initial   time.Duration
	Increment time.Duration
	Left      []time.Duration // by seat: what each had left when its last turn ended
	TurnStart time.Time       // when the current turn started: the clock of the seat to act runs from there
	// Paused says that no clock runs now though the game goes on (Ajedrez Mágico's
	// reaction windows): a reading shows none running. The game sets it on the clock it
	// shows; it is never stored.
	Paused bool
}

// Start is the clock of a game of seats seats, with the time control c (nil: no clock),
// when the first turn starts at at.
func Start(c *Setup, seats int, at time.Time) Clock {
	if c == nil {
		return Clock{}
	}
	initial := time.Duration(c.InitialMs) * time.Millisecond
	left := make([]time.Duration, seats)
	for i := range left {
		left[i] = initial
	}
	return Clock{On: true, Initial: initial, Left: left, Increment: time.Duration(c.IncrementMs) * time.Millisecond, TurnStart: at}
}

// Deadline is when seat, to act, runs out of time; zero without a clock.
func (c Clock) Deadline(seat int) time.Time {
	if !c.On {
		return time.Time{}
	}
	return c.TurnStart.Add(c.Left[seat])
}

// Late reports whether an action of seat, to act, at at comes at or after its deadline.
func (c Clock) Late(seat int, at time.Time) bool {
	return c.On && !at.Before(c.Deadline(seat))
}

// LeftAfter is what seat, to act, has left when it ends its turn at at: its time less the
// time the turn took, plus the increment.
func (c Clock) LeftAfter(seat int, at time.Time) time.Duration {
	return c.Left[seat] - at.Sub(c.TurnStart) + c.Increment
}

// Ended is the clock after seat's turn ended as st records: seat has st.LeftMs left, and
// the next turn starts at st.At. Without a clock it is c.
func (c Clock) Ended(seat int, st Stamp) Clock {
	if !c.On {
		return c
	}
	left := make([]time.Duration, len(c.Left))
	copy(left, c.Left)
	left[seat] = st.Left()
	c.Left, c.TurnStart = left, st.At
	return c
}

// Quit is the clock after seat, to act, left the game during its turn at at (Royale: a
// seat that resigns withdraws): its time ran until then, with no increment since it plays
// no more (never below zero), and the next turn starts at at.
func (c Clock) Quit(seat int, at time.Time) Clock {
	if !c.On {
		return c
	}
	left := max(c.LeftAfter(seat, at)-c.Increment, 0)
	return c.Ended(seat, Stamp{At: at, LeftMs: left.Milliseconds()})
}

// Flag says whether the flag of seat, to act, has fallen when action a arrives: a game
// ends the seat's time (FlagFell) instead of playing the action. It has when a player's
// action comes at or after the deadline, and when a is the engine's game.Timeout of
// exactly this deadline, once it has passed. A timeout that is not due (no clock, a
// deadline that moved, or early) is a CONFLICT rejection: nothing happens. The caller has
// checked that a player's action comes from seat.
func (c Clock) Flag(seat int, a game.Action) (bool, error) {
	t, timeout := a.Do.(game.Timeout)
	if !timeout {
		return a.Seat != game.System && c.Late(seat, a.At), nil
	}
	switch deadline := c.Deadline(seat); {
	case !c.On:
		return false, game.Reject(game.Conflict, "no flag has fallen: the game is played without a clock")
	case !t.Deadline.Equal(deadline):
		return false, game.Reject(game.Conflict, "no flag has fallen: seat %d's deadline is %s, not %s", seat, deadline.Format(time.RFC3339Nano), t.Deadline.Format(time.RFC3339Nano))
	case a.At.Before(deadline):
		return false, game.Reject(game.Conflict, "no flag has fallen: seat %d's deadline %s has not passed", seat, deadline.Format(time.RFC3339Nano))
	}
	return true, nil
}

// Stamp is what an action's event records of the clock: when the action was played and,
// on the action that ends its actor's turn, what the actor had left (the increment
// included). Both are empty without a clock, so that such a game stores what it stored
// before clocks; LeftMs is empty too on an action that does not end the turn.
type Stamp struct {
	At     time.Time `json:"at,omitzero"`
	LeftMs int64     `json:"leftMs,omitempty"`
}

// Left is the time left the stamp records.
func (st Stamp) Left() time.Duration { return time.Duration(st.LeftMs) * time.Millisecond }

// Stamp is the stamp of an action of seat, to act, at at, which ends its turn or not.
func (c Clock) Stamp(seat int, at time.Time, endsTurn bool) Stamp {
	if !c.On {
		return Stamp{}
	}
	st := Stamp{At: at}
	if endsTurn {
		st.LeftMs = c.LeftAfter(seat, at).Milliseconds()
	}
	return st
}

// Audit checks a recorded stamp of an action of seat, to act: empty without a clock;
// with one, an action before the deadline and the time left that the clock gives.
func (c Clock) Audit(seat int, st Stamp, endsTurn bool) error {
	if !c.On {
		if st != (Stamp{}) {
			return errors.New("carries clock fields in a game without a clock")
		}
		return nil
	}
	if deadline := c.Deadline(seat); c.Late(seat, st.At) {
		return fmt.Errorf("at %s, at or after the deadline %s", st.At.Format(time.RFC3339Nano), deadline.Format(time.RFC3339Nano))
	}
	if want := c.Stamp(seat, st.At, endsTurn).LeftMs; st.LeftMs != want {
		return fmt.Errorf("%d ms left recorded, the clock gives %d", st.LeftMs, want)
	}
	return nil
}

// FlagFell records that a seat's time ran out at At, for the games that have no draw on
// time: what follows (a loss, or a withdrawal from a game that goes on) is the game's. At
// is the seat's deadline, when the flag fell (Fell), not the later moment the late action
// or the engine's timeout found it, which a loaded server may reach well after. Events
// recorded before session 14 hold that later moment; they fold as they were recorded
// (a Royale's next turn starts at their At), and AuditFlag takes both.
type FlagFell struct {
	Seat int       `json:"seat"`
	At   time.Time `json:"at"`
}

// Fell is the FlagFell of seat, to act, once its deadline has passed (Flag): its flag
// fell at the deadline.
func (c Clock) Fell(seat int) FlagFell { return FlagFell{Seat: seat, At: c.Deadline(seat)} }

// EventType names the event in the store.
func (FlagFell) EventType() string { return "FlagFell" }

// AuditFlag checks a recorded FlagFell when seat was to act: a clock, that seat, and a
// time at or after its deadline.
func (c Clock) AuditFlag(seat int, f FlagFell) error {
	switch {
	case !c.On:
		return errors.New("FlagFell in a game without a clock")
	case f.Seat != seat:
		return fmt.Errorf("FlagFell of seat %d recorded, but seat %d was to act", f.Seat, seat)
	case !c.Late(seat, f.At):
		return fmt.Errorf("FlagFell at %s, before seat %d's deadline %s", f.At.Format(time.RFC3339Nano), seat, c.Deadline(seat).Format(time.RFC3339Nano))
	}
	return nil
}

// Timed is implemented by the rules of a game that may be played with a clock, so that
// the API can show the clock of a state (the zero Clock when the match has none).
type Timed interface {
	Clock(st game.State) Clock
}

// Reading is the clock as a client shows it, as of the last event: each seat's time left
// then, and the seat whose clock has been running since Since. A client counts the
// running seat's time down from Left[Running] at Since.
type Reading struct {
	Control Setup
	Left    []time.Duration // by seat
	Running int             // the seat whose clock runs; -1 when none does (the game is over)
	Since   time.Time       // when Running's clock started; zero when none runs
}

// Read is the reading of c when the game's status is gs: the clock of the seat to act
// runs when the status sets its deadline. It is false without a clock.
func (c Clock) Read(gs game.Status) (Reading, bool) {
	if !c.On {
		return Reading{}, false
	}
	r := Reading{
		Control: Setup{InitialMs: c.Initial.Milliseconds(), IncrementMs: c.Increment.Milliseconds()},
		Left:    append([]time.Duration(nil), c.Left...),
		Running: -1,
	}
	if !gs.Over && !c.Paused && !gs.Deadline.IsZero() && len(gs.ToAct) == 1 {
		r.Running, r.Since = gs.ToAct[0], c.TurnStart
	}
	return r, true
}
