// Package cardchess is what the chess card games (UnfairChess, Ajedrez Mágico) share on
// top of domain/chess and the card kit: the squares a card is aimed at and the shapes
// of the board it measures (ranks, halves, neighbours), reading a move under a turn's
// restrictions with a typed rejection, and the clock's stamp on the actions of a turn
// that may be a card and a move.
package cardchess

import (
	"errors"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Names writes squares as a card's targets.
func Names(sqs ...chess.Square) []string {
	out := make([]string, len(sqs))
	for i, sq := range sqs {
		out[i] = sq.String()
	}
	return out
}

// Offset is the square df files and dr ranks from sq, if it is on the board.
func Offset(sq chess.Square, df, dr int) (chess.Square, bool) {
	f, r := sq.File()+df, sq.Rank()+dr
	if f < 0 || f > 7 || r < 0 || r > 7 {
		return chess.NoSquare, false
	}
	return chess.NewSquare(f, r), true
}

// Ahead is the direction of c's pawns: +1 rank for White, -1 for Black.
func Ahead(c chess.Color) int { return 1 - 2*int(c) }

// RankOf is the rank index (0..7) of c's n-th rank, counted from its side (0: first).
func RankOf(c chess.Color, n int) int {
	if c == chess.White {
		return n
	}
	return 7 - n
}

// RankBB is the set of the squares of rank index r.
func RankBB(r int) chess.Bitboard { return chess.Rank1 << (8 * r) }

// HalfOf is c's half of the board: ranks 1-4 for White, 5-8 for Black.
func HalfOf(c chess.Color) chess.Bitboard {
	if c == chess.White {
		return 0x00000000ffffffff
	}
	return 0xffffffff00000000
}

// BackRanks are the two ranks where no pawn stands.
const BackRanks = chess.Rank1 | chess.Rank8

// MayStand reports whether pc may stand on sq: a pawn never on a back rank.
func MayStand(pc chess.Piece, sq chess.Square) bool {
	return pc.Role != chess.Pawn || !BackRanks.Has(sq)
}

// Neighbours are the eight squares around sq.
func Neighbours(sq chess.Square) chess.Bitboard {
	return chess.Attacks(chess.King, chess.White, sq, 0)
}

// Side is every square holding a piece of colour c.
func Side(p chess.Position, c chess.Color) chess.Bitboard {
	var b chess.Bitboard
	for r := chess.Pawn; r <= chess.King; r++ {
		b |= p.Pieces(c, r)
	}
	return b
}

// ParseMove reads a move of the side to move in p under r: a malformed move is
// BAD_USER_INPUT; a move chess allows but r does not is ILLEGAL_MOVE with the reason
// barred (the game says what bars it); any other illegal move ILLEGAL_MOVE.
func ParseMove(p chess.Position, notation string, r chess.Restrictions, barred string) (chess.Move, error) {
	m, err := p.ParseMoveWith(notation, r)
	if err == nil {
		return m, nil
	}
	if errors.Is(err, chess.ErrMalformedMove) {
		return 0, &game.Error{Code: game.BadInput, Reason: err.Error(), Err: err}
	}
	if _, plain := p.ParseMove(notation); plain == nil {
		return 0, &game.Error{Code: game.IllegalMove, Err: err, Reason: notation + " " + barred}
	}
	return 0, &game.Error{Code: game.IllegalMove, Reason: err.Error(), Err: err}
}

// Stamper is an action's event that records the clock's stamp: Stamped returns it with st.
type Stamper interface {
	Stamped(st clock.Stamp) game.Event
}

// Stamp puts c's stamp on the actions among evs (the events that are Stampers), which
// seat, to act, plays at at: the time on each and, on the last when endsTurn (the seat's
// turn ends with them), what the seat has left. Without a clock evs are as they were.
func Stamp(evs []game.Emitted, c clock.Clock, seat int, at time.Time, endsTurn bool) []game.Emitted {
	if !c.On {
		return evs
	}
	last := -1
	for i, e := range evs {
		if _, ok := e.Event.(Stamper); ok {
			last = i
		}
	}
	for i, e := range evs {
		if s, ok := e.Event.(Stamper); ok {
			evs[i].Event = s.Stamped(c.Stamp(seat, at, i == last && endsTurn))
		}
	}
	return evs
}

// FileBB is the set of the squares of file index f.
func FileBB(f int) chess.Bitboard { return chess.FileA << f }

// Turns groups a two-seat record by turns, for game.Turned: a turn is the run of entries
// one seat played (its cards and its moves together), players[i] the seat of record[i].
func Turns(record []string, players []int) []game.Turn {
	var turns []game.Turn
	for i, play := range record {
		if n := len(turns); n > 0 && turns[n-1].Side == players[i] {
			turns[n-1].Plays = append(turns[n-1].Plays, play)
			continue
		}
		turns = append(turns, game.Turn{Side: players[i], Plays: []string{play}})
	}
	return turns
}

// SideOf is game.Turned's SideOf for a game of two seats: seat 0 plays White, seat 1 Black.
func SideOf(seat int) (int, string, bool) {
	return seat, [2]string{"White", "Black"}[seat&1], seat == 0 || seat == 1
}
