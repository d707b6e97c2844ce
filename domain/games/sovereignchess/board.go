package sovereignchess

import (
	"fmt"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/sovereign"
)

// Board shows the position: its notation, the legal moves of the seat to move, the
// squares of colour, who owns and controls each army, the seat of each side the notation
// numbers, the blocked squares, the kings in
// check and the Royale players without a king (captured or escaped: both may crown one;
// not a seat that withdrew, which never will: it owns no army, and the notation writes
// its colour "-").
//
// A square is "blocked" when the other square of its colour is occupied: nobody may land
// on it until that square is vacated. The mark's Seat is the seat controlling the piece
// that blocks it, -1 when nobody does (that piece can then neither move nor be captured).
func (Rules) Board(st game.State) game.Board {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return game.Board{}
	}
	pos := s.Game.Position()
	b := game.Board{FEN: pos.Notation(), InCheck: pos.InCheck(pos.Turn()), Checked: s.seats(pos.Checked())}
	if s.Ended == nil && !s.Game.ChoicePending() {
		for _, m := range pos.LegalMoves(nil) {
			b.LegalMoves = append(b.LegalMoves, m.String())
		}
	}
	for c := sovereign.White; c <= sovereign.Violet; c++ {
		squares := sovereign.ColourSquares(c)
		for i, sq := range squares {
			b.Colours = append(b.Colours, game.SquareColour{Square: sq.String(), Colour: c.String()})
			if pc := pos.PieceAt(sq); pc != 0 {
				blocker := s.controller(&pos, pc.Colour())
				note := fmt.Sprintf("the other %s square, %s, holds a %s %s", c, sq, pc.Colour(), pc.Role())
				if blocker < 0 {
					note += " that nobody controls"
				}
				b.Marks = append(b.Marks, game.Mark{Square: squares[1-i].String(), Kind: "blocked", Seat: blocker, Note: note})
			}
		}
		owner := -1
		for pl := range sovereign.Player(pos.Players()) {
			if pos.Owned(pl) == c {
				owner = s.seatOf(pl)
			}
		}
		b.Armies = append(b.Armies, game.Army{Colour: c.String(), Owner: owner, Controller: s.controller(&pos, c)})
	}
	for pl := range sovereign.Player(pos.Players()) {
		side := game.Side{Side: int(pl) + 1, Seat: s.seatOf(pl)}
		if !pos.Withdrawn(pl) {
			side.Colour = pos.Owned(pl).String()
		}
		b.Sides = append(b.Sides, side)
	}
	if pos.Royale() && s.Ended == nil {
		var kingless []sovereign.Player
		for pl := range sovereign.Player(pos.Players()) {
			if _, ok := pos.King(pl); !ok && !pos.Withdrawn(pl) {
				kingless = append(kingless, pl)
			}
		}
		b.Interregnum = s.seats(kingless)
	}
	return b
}

// controller is the seat controlling colour c, or -1.
func (s State) controller(pos *sovereign.Position, c sovereign.Colour) int {
	if pl, ok := pos.Controller(c); ok {
		return s.seatOf(pl)
	}
	return -1
}

// Turns gives the moves, one a turn. With two players a number covers side 1's turn and
// side 2's, as in chess; Royale's moves are numbered one by one (a seat that withdraws
// changes the order of play, which the moves alone do not tell).
func (r Rules) Turns(st game.State) (int, []game.Turn) {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return 1, nil
	}
	start := s.Game.Start()
	if !start.Royale() {
		return 1, game.Alternate(int(start.Turn()), r.MoveList(st))
	}
	var turns []game.Turn
	for _, m := range r.MoveList(st) {
		turns = append(turns, game.Turn{Plays: []string{m}})
	}
	return 1, turns
}

// SideOf names the sides of the two-player game by the colour they start with: side 1
// (White's first move, whichever seat the opening choice gave it) and side 2 (Black).
func (Rules) SideOf(st game.State, seat int) (int, string, bool) {
	s, ok := st.(State)
	if !ok || s.Game == nil || s.Mode == Royale {
		return 0, "", false
	}
	pos := s.Game.Position()
	for pl := range sovereign.Player(pos.Players()) {
		if s.seatOf(pl) == seat {
			return int(pl), [2]string{"White", "Black"}[pl&1], true
		}
	}
	return 0, "", false
}

// MoveList gives the moves played, in the move notation.
func (Rules) MoveList(st game.State) []string {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return nil
	}
	moves := s.Game.Moves()
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	return out
}
