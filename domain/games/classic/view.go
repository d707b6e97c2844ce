package classic

import (
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/tactic"
)

// View is a chess match as a viewer sees it: all of it, since chess hides nothing. The
// legal moves are those of the side to move, which everyone may work out from the board.
type View struct {
	Board game.Board // the position, whether the side to move is in check, its legal moves
	Moves []string   // the moves played, in SAN

	// What Plays needs, as public as the rest: the position, and the seat to move when
	// the viewer holds it and may play (-1 otherwise).
	pos  chess.Position
	seat int
}

var _ game.Viewed = Rules{}

// View shows the match to p.
func (r Rules) View(st game.State, p game.Viewpoint) game.View {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return nil
	}
	v := &View{Board: r.Board(s), Moves: r.MoveList(s), pos: s.Game.Position(), seat: -1}
	if seat := Seat(v.pos.Turn()); p.Holds(seat) && !p.Over {
		v.seat = seat
	}
	return v
}

// Plays lists the legal moves when the viewer holds the side to move, each scored by
// what it mates or takes.
func (v *View) Plays() []game.Play {
	if v.seat < 0 {
		return nil
	}
	out := make([]game.Play, len(v.Board.LegalMoves))
	for i, uci := range v.Board.LegalMoves {
		out[i] = game.Play{Seat: v.seat, Do: game.Move{Notation: uci}, Kind: game.KindMove, Score: tactic.Chess(v.pos, uci)}
	}
	return out
}

// ShownBoard is the board (game.BoardView).
func (v *View) ShownBoard() game.Board { return v.Board }

// ShownMoves is the record (game.BoardView).
func (v *View) ShownMoves() []string { return v.Moves }
