package classic

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// A chess clock (FIDE Article 6), chosen with the option clock="minutes+increment", for
// example "5+3". Time enters as data: each action carries the server's receive time, and
// each MovePlayed records when it was played and what the mover had left. A move that
// arrives after its deadline is not played: the flag has fallen. When nobody moves, the
// engine's scheduler submits a timeout at the deadline Status announces.

// ClockSetup is a match's time control, in GameStarted.
type ClockSetup struct {
	InitialMs   int64 `json:"initialMs"`
	IncrementMs int64 `json:"incrementMs"`
}

// FlagFell ends the game on time (FIDE 6.9): the seat's time ran out. It is a draw when
// the other side has no mating material left.
type FlagFell struct {
	Seat int  `json:"seat"`
	Draw bool `json:"draw,omitempty"`
}

// EventType names the event in the store.
func (FlagFell) EventType() string { return "FlagFell" }

// clock is the running clock of a game; the zero value is a game without a clock.
type clock struct {
	On        bool
	Initial   time.Duration
	Left      [2]time.Duration // by seat
	Increment time.Duration
	TurnStart time.Time // when the side to move started thinking
}

// parseClock reads "minutes+increment".
func parseClock(v string) (ClockSetup, error) {
	m, s, ok := strings.Cut(v, "+")
	minutes, err1 := strconv.ParseFloat(m, 64)
	inc, err2 := strconv.Atoi(s)
	switch {
	case !ok || err1 != nil || err2 != nil:
		return ClockSetup{}, game.Reject(game.BadInput, "option clock %q: write minutes+increment in seconds, such as 5+3 or 0.5+0", v)
	case minutes <= 0 || minutes > 600:
		return ClockSetup{}, game.Reject(game.BadInput, "option clock %q: the minutes must be above 0 and at most 600", v)
	case inc < 0 || inc > 600:
		return ClockSetup{}, game.Reject(game.BadInput, "option clock %q: the increment must be 0 to 600 seconds", v)
	}
	return ClockSetup{InitialMs: int64(minutes * 60_000), IncrementMs: int64(inc) * 1000}, nil
}

func startClock(c *ClockSetup, at time.Time) clock {
	if c == nil {
		return clock{}
	}
	initial := time.Duration(c.InitialMs) * time.Millisecond
	return clock{On: true, Initial: initial, Left: [2]time.Duration{initial, initial}, Increment: time.Duration(c.IncrementMs) * time.Millisecond, TurnStart: at}
}

// deadline is when the side to move (seat) loses on time.
func (c clock) deadline(seat int) time.Time {
	if !c.On {
		return time.Time{}
	}
	return c.TurnStart.Add(c.Left[seat])
}

// afterMove returns what the mover has left after a move at at, increment included.
func (c clock) afterMove(seat int, at time.Time) time.Duration {
	return c.Left[seat] - at.Sub(c.TurnStart) + c.Increment
}

// flagFell decides the end on time of seat.
func flagFell(pos chess.Position, seat int) FlagFell {
	other := chess.Black
	if seat == 1 {
		other = chess.White
	}
	return FlagFell{Seat: seat, Draw: !canMate(pos, other)}
}

// canMate is false when c has a bare king, or a king and one minor piece: no series of
// legal moves lets such material mate (a simplification of FIDE 6.9 that chess servers
// share; it ignores helpmates where the opponent's own pieces box their king in).
func canMate(pos chess.Position, c chess.Color) bool {
	heavy := pos.Pieces(c, chess.Pawn) | pos.Pieces(c, chess.Rook) | pos.Pieces(c, chess.Queen)
	if heavy != 0 {
		return true
	}
	return (pos.Pieces(c, chess.Knight) | pos.Pieces(c, chess.Bishop)).Count() >= 2
}

func (f FlagFell) outcome() game.Outcome {
	if f.Draw {
		return game.Outcome{Winners: []int{}, Reason: "timeout vs insufficient material"}
	}
	return game.Outcome{Winners: []int{1 - f.Seat}, Reason: "timeout"}
}

func (c ClockSetup) String() string {
	return fmt.Sprintf("%g+%d", float64(c.InitialMs)/60_000, c.IncrementMs/1000)
}
