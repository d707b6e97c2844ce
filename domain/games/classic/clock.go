package classic

import (
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// A chess clock (FIDE Article 6), chosen with the option clock="minutes+increment", for
// example "5+3" (domain/clock, which every game shares). Time enters as data: each action
// carries the server's receive time, and each MovePlayed records when it was played and
// what the mover had left. A move that arrives after its deadline is not played: the flag
// has fallen. When nobody moves, the engine's scheduler submits a timeout at the deadline
// Status announces.

// ClockSetup is a match's time control, in GameStarted.
type ClockSetup = clock.Setup

// FlagFell ends the game on time (FIDE 6.9): the seat's time ran out. It is a draw when
// the other side has no mating material left. At (schema 2) is when the flag fell: the
// seat's deadline, not the later moment the engine's timer or a late move found it. An
// event of schema 1 has no At: it folds as it always did, the clock left as it was.
type FlagFell struct {
	Seat int       `json:"seat"`
	Draw bool      `json:"draw,omitempty"`
	At   time.Time `json:"at,omitzero"`
}

// flagSchema is FlagFell's schema version: 2 added At; a payload of schema 1 reads as
// one of schema 2 without it.
const flagSchema = 2

// EventType names the event in the store.
func (FlagFell) EventType() string { return "FlagFell" }

// flagFell decides the end on time of seat, whose flag fell at at.
func flagFell(pos chess.Position, seat int, at time.Time) FlagFell {
	other := chess.Black
	if seat == 1 {
		other = chess.White
	}
	return FlagFell{Seat: seat, Draw: !canMate(pos, other), At: at}
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
