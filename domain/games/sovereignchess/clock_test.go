package sovereignchess

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// onClock starts the game e records at noon, each seat with initial time and increment.
func onClock(t *testing.T, e GameStarted, initial, increment time.Duration) State {
	t.Helper()
	e.Clock = &clock.Setup{InitialMs: initial.Milliseconds(), IncrementMs: increment.Milliseconds()}
	e.At = noon
	return from(t, e)
}

// The clocks of these tests start at noon; secs(n) is n seconds later.
var noon = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func secs(n float64) time.Time { return noon.Add(time.Duration(n * float64(time.Second))) }

// royaleStart is a Royale game where White (seat 2) is to move, and Ash (seat 0), Slate
// (seat 3) and Black (seat 1) follow, each with a king.
func royaleStart(t *testing.T) GameStarted {
	return GameStarted{Mode: Royale, Position: notation(t, royaleKings+"wki1", "1 w a s b - 0"), FirstMover: -1, Order: royaleOrder2031}
}

// actAt has seat do something at when (game.System: the engine's timeout) and folds what
// Decide records, every event audited.
func actAt(t *testing.T, st State, seat int, when time.Time, do any) (State, []game.Event) {
	t.Helper()
	evs, err := r.Decide(st, game.Action{Seat: seat, At: when, Do: do})
	if err != nil {
		t.Fatalf("seat %d %+v at %s: %v", seat, do, when.Format(time.TimeOnly), err)
	}
	return fold(t, st, evs)
}

// timeoutAt is the engine's timeout of the deadline Status announces, at when.
func timeoutAt(t *testing.T, st State, when time.Time) (State, []game.Event) {
	t.Helper()
	return actAt(t, st, game.System, when, game.Timeout{Deadline: r.Status(st).Deadline})
}

// turn fails unless seat is the one to act, until deadline.
func turn(t *testing.T, st State, seat int, deadline time.Time) {
	t.Helper()
	s := r.Status(st)
	if s.Over || !slices.Equal(s.ToAct, []int{seat}) || !s.Deadline.Equal(deadline) {
		t.Fatalf("status %+v; want seat %d to act until %s", s, seat, deadline.Format(time.TimeOnly))
	}
}

func TestClockOption(t *testing.T) {
	for _, opts := range []game.Options{{"clock": "3+2"}, {"clock": "3+2", "mode": Royale}} {
		if _, err := r.Plan(opts); err != nil {
			t.Errorf("%v: %v", opts, err)
		}
		evs, err := r.Setup(game.Setup{Options: opts, Seed: []byte(seedFirstMover0), At: noon})
		if err != nil {
			t.Fatal(err)
		}
		e := evs[0].Event.(GameStarted)
		if *e.Clock != (clock.Setup{InitialMs: 180_000, IncrementMs: 2000}) || !e.At.Equal(noon) {
			t.Fatalf("%v: %+v", opts, e)
		}
		st := from(t, e)
		turn(t, st, r.Status(st).ToAct[0], secs(180))
	}
	for _, opts := range []game.Options{{"clock": "3"}, {"clock": "0+0", "mode": Royale}} {
		if _, err := r.Plan(opts); game.CodeOf(err) != game.BadInput {
			t.Errorf("%v: %v", opts, err)
		}
	}
	// Without the option, a match stores what it stored before clocks.
	st, start := seeded(t, nil, seedFirstMover0)
	_, evs := act(t, st, 0, game.Move{Notation: "e2e4"})
	for _, e := range []game.Event{start, evs[0]} {
		if p, err := game.Encode(e); err != nil || strings.Contains(string(p), `"clock"`) || strings.Contains(string(p), `"at"`) || strings.Contains(string(p), `"leftMs"`) {
			t.Errorf("%s without a clock stores %s (%v)", e.EventType(), p, err)
		}
	}
	if _, err := r.Decide(st, game.Action{Seat: game.System, At: secs(1e6), Do: game.Timeout{}}); game.CodeOf(err) != game.Conflict {
		t.Errorf("a timeout without a clock: %v", err)
	}
}

// setupAt deals a game with opts from seed at noon: Setup records the clock's start.
func setupAt(t *testing.T, opts game.Options, seed string) State {
	t.Helper()
	evs, err := r.Setup(game.Setup{Options: opts, Seed: []byte(seed), At: noon})
	if err != nil {
		t.Fatal(err)
	}
	return from(t, evs[0].Event.(GameStarted))
}

// The opening choice is a turn of the chooser, on its own clock and with its increment;
// clocks stay with their seats whichever colour each plays after the choice.
func TestClockThroughTheOpeningChoice(t *testing.T) {
	for _, tc := range []struct {
		option string
		black  int // the seat that plays Black after the choice, and moves next
	}{{Keep, 1}, {Refuse, 0}} {
		st := setupAt(t, game.Options{"clock": "1+2"}, seedFirstMover1)
		turn(t, st, 1, secs(60))
		st, evs := actAt(t, st, 1, secs(10), game.Move{Notation: "e2e4"})
		same(t, "White's first move", evs[0].(MovePlayed).Stamp, clock.Stamp{At: secs(10), LeftMs: 52_000})
		turn(t, st, 0, secs(70)) // the chooser's clock runs
		st, evs = actAt(t, st, 0, secs(20), game.Choose{Option: tc.option})
		same(t, tc.option, evs[0].(OpeningChosen).Stamp, clock.Stamp{At: secs(20), LeftMs: 52_000})
		turn(t, st, tc.black, secs(72))
		st, evs = actAt(t, st, tc.black, secs(30), game.Move{Notation: r.Board(st).LegalMoves[0]})
		same(t, tc.option+": Black's move", evs[0].(MovePlayed).Stamp, clock.Stamp{At: secs(30), LeftMs: 44_000})
		turn(t, st, 1-tc.black, secs(82))
	}
}

// Two players: a move after the deadline is not played, and a timeout with nobody
// acting (here during the opening choice) ends the game the same way: the seat whose
// flag fell loses.
func TestFlagTwoPlayers(t *testing.T) {
	st := onClock(t, GameStarted{Mode: TwoPlayer, Position: notation(t, "wki1 bki16 wpe2 wnf1", "1 w b - 10"), FirstMover: -1}, 30*time.Second, 0)
	st, _ = actAt(t, st, 0, secs(10), game.Move{Notation: "f1e3"})
	over, evs := actAt(t, st, 1, secs(40), game.Move{Notation: "i16i15"})
	same(t, "Black's late move", evs, []game.Event{
		clock.FlagFell{Seat: 1, At: secs(40)},
		GameEnded{Reason: "timeout", Winners: []int{0}, Standings: []string{"won", "lost"}},
	})
	same(t, "status", r.Status(over), game.Status{Phase: PhaseOver, Over: true, Outcome: game.Outcome{Winners: []int{0}, Reason: "timeout"}})
	same(t, "the board", r.Board(over).FEN, r.Board(st).FEN)

	st = setupAt(t, game.Options{"clock": "1+0"}, seedFirstMover1)
	st, _ = actAt(t, st, 1, secs(10), game.Move{Notation: "e2e4"})
	for _, a := range []game.Action{
		{Seat: game.System, At: secs(69), Do: game.Timeout{Deadline: secs(70)}}, // early
		{Seat: game.System, At: secs(80), Do: game.Timeout{Deadline: secs(60)}}, // White's first deadline, gone
	} {
		if _, err := r.Decide(st, a); game.CodeOf(err) != game.Conflict {
			t.Errorf("%+v: %v, want a CONFLICT rejection", a, err)
		}
	}
	_, evs = timeoutAt(t, st, secs(70.5))
	same(t, "the chooser's flag", evs, []game.Event{
		clock.FlagFell{Seat: 0, At: secs(70)}, // at its deadline, not when the timeout came
		GameEnded{Reason: "timeout", Winners: []int{1}, Standings: []string{"lost", "won"}},
	})
}

// Royale: a seat whose flag falls is out of the game as if it had withdrawn, and the
// others play on, the next seat's clock started when the flag fell (its deadline, however
// late the timeout or the late move that finds it), to the last king.
func TestRoyaleFlagsOneByOne(t *testing.T) {
	// White at seat 2, Ash at seat 0, Slate at seat 3, Black at seat 1.
	st := onClock(t, royaleStart(t), time.Minute, 0)
	turn(t, st, 2, secs(60))
	st, evs := timeoutAt(t, st, secs(60.2))
	same(t, "White's flag", evs, []game.Event{clock.FlagFell{Seat: 2, At: secs(60)}, PlayerWithdrew{Seat: 2, Colour: "white", Square: "i1", At: secs(60)}})
	same(t, "the white king", strings.Contains(r.Board(st).FEN, "wk"), false)
	if r.Withdraw(st, 2, secs(61)) != nil {
		t.Errorf("a seat out on time withdraws again")
	}
	turn(t, st, 0, secs(120))
	st, evs = actAt(t, st, 0, secs(70), game.Move{Notation: r.Board(st).LegalMoves[0]})
	same(t, "Ash's time", evs[0].(MovePlayed).Stamp, clock.Stamp{At: secs(70), LeftMs: 50_000})
	turn(t, st, 3, secs(130))
	st, evs = actAt(t, st, 3, secs(131), game.Move{Notation: r.Board(st).LegalMoves[0]})
	same(t, "Slate's late move", evs, []game.Event{clock.FlagFell{Seat: 3, At: secs(130)}, PlayerWithdrew{Seat: 3, Colour: "slate", Square: "p8", At: secs(130)}})
	turn(t, st, 1, secs(190))
	st, evs = timeoutAt(t, st, secs(191))
	same(t, "Black's flag", evs, []game.Event{
		clock.FlagFell{Seat: 1, At: secs(190)},
		PlayerWithdrew{Seat: 1, Colour: "black", Square: "h16", At: secs(190)},
		GameEnded{Reason: "last king standing", Winners: []int{0}, Standings: []string{"won", "lost", "lost", "lost"}},
	})
	same(t, "status", r.Status(st).Outcome, game.Outcome{Winners: []int{0}, Reason: "last king standing"})
}

// A Royale seat that resigns during its turn withdraws when it resigned: its clock stops
// there, and the next seat's starts. A seat that withdraws out of turn stops nobody's
// clock.
func TestRoyaleWithdrawalOnTheClock(t *testing.T) {
	st := onClock(t, royaleStart(t), time.Minute, 2*time.Second)
	st, evs := withdrawAt(t, st, 2, secs(10))
	same(t, "White withdraws", evs, []game.Event{PlayerWithdrew{Seat: 2, Colour: "white", Square: "i1", At: secs(10)}})
	turn(t, st, 0, secs(70))
	st, evs = actAt(t, st, 0, secs(15), game.Move{Notation: r.Board(st).LegalMoves[0]})
	same(t, "Ash's time", evs[0].(MovePlayed).Stamp, clock.Stamp{At: secs(15), LeftMs: 57_000})
	turn(t, st, 3, secs(75))
	st, evs = withdrawAt(t, st, 1, secs(20))
	same(t, "Black withdraws", evs, []game.Event{PlayerWithdrew{Seat: 1, Colour: "black", Square: "h16", At: secs(20)}})
	turn(t, st, 3, secs(75))
	// Past its deadline, a seat that resigns before the engine's timeout withdraws then,
	// as if its flag had been found fallen at that time.
	st = onClock(t, royaleStart(t), time.Minute, 2*time.Second)
	st, _ = withdrawAt(t, st, 2, secs(65))
	turn(t, st, 0, secs(125))
}

// With a clock, a withdrawal always records its time: one without is refused, by Withdraw
// and by the audit.
func TestRoyaleWithdrawalOnTheClockHasItsTime(t *testing.T) {
	st := onClock(t, royaleStart(t), time.Minute, 2*time.Second)
	if evs := r.Withdraw(st, 2, time.Time{}); evs != nil {
		t.Errorf("a withdrawal at no time, with a clock: %v", evs)
	}
	wantAuditError(t, st, PlayerWithdrew{Seat: 2, Colour: "white", Square: "i1"}, "at no time")
	flagged := r.Evolve(st, clock.FlagFell{Seat: 2, At: secs(61)})
	wantAuditError(t, flagged, PlayerWithdrew{Seat: 2, Colour: "white", Square: "i1"}, "the rules give")
}

func TestAuditTheClock(t *testing.T) {
	start := royaleStart(t)
	st := onClock(t, start, time.Minute, 2*time.Second)
	evs, err := r.Decide(st, game.Action{Seat: 2, At: secs(10), Do: game.Move{Notation: "i1i2"}})
	if err != nil {
		t.Fatal(err)
	}
	mv := evs[0].Event.(MovePlayed)
	if err := r.Audit(st, mv); err != nil {
		t.Fatalf("the true move: %v", err)
	}
	more, late := mv, mv
	more.LeftMs += 30_000
	late.At = secs(61)
	wantAuditError(t, st, more, "82000 ms left recorded, the clock gives 52000")
	wantAuditError(t, st, late, "at or after the deadline")
	wantAuditError(t, from(t, start), mv, "clock fields in a game without a clock")
	wantAuditError(t, st, clock.FlagFell{Seat: 0, At: secs(61)}, "seat 2 was to act")
	wantAuditError(t, st, clock.FlagFell{Seat: 2, At: secs(59)}, "before seat 2's deadline")
	wantAuditError(t, from(t, start), clock.FlagFell{Seat: 2, At: secs(61)}, "without a clock")
	flagged := r.Evolve(st, clock.FlagFell{Seat: 2, At: secs(61)})
	wantAuditError(t, flagged, MovePlayed{Seat: 0, Move: "a9a8"}, "MovePlayed recorded where the rules record PlayerWithdrew")
	start.At = noon
	wantAuditError(t, nil, start, "a start time without a clock")
}
