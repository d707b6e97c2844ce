package unfair

import (
	"github.com/arbiter-games/arbiter/domain/cardchess"
	"github.com/arbiter-games/arbiter/domain/chess"
)

// Restrictions bind the seat to act during its turn, for its moves and for its cards
// alike: its sleeping pieces, the pieces shackled by the opponent's last card and, under
// frost, its pawns may not move; it may not enter the squares barred by the opponent's
// last card; it may not capture (nor destroy by a card) a piece the opponent shielded,
// nor anything under a truce.
//
// A restriction never makes a stalemate: when the seat to act would have no legal action
// (no move and no playable card) under its restrictions but has one without them, they
// are all suspended for that turn (RestrictionsSuspended is recorded, and Board's marks
// say "suspended").

// bound is what binds seat during its turn, suspension aside.
func (s *State) bound(seat int) chess.Restrictions {
	var r chess.Restrictions
	us := colour(seat)
	for _, st := range s.Statuses {
		sq, ok := s.Pos.SquareOf(st.Piece)
		if !ok {
			continue
		}
		pc, _ := s.Pos.PieceAt(sq)
		switch {
		case st.Kind == Sleep && pc.Color == us:
			r.Frozen |= chess.BB(sq)
		case st.Kind == Shield && st.By != seat && pc.Color != us:
			r.Shielded |= chess.BB(sq)
		}
	}
	b := s.Bars[seat]
	r.Forbidden = b.Squares
	r.Frozen |= s.Pos.SquaresOf(b.Pieces...)
	if b.Pawns {
		r.Frozen |= s.Pos.Pieces(us, chess.Pawn)
	}
	if b.Truce {
		r.Shielded = s.side(us.Other())
	}
	return r
}

// restrictions are what the seat to act plays under now.
func (s *State) restrictions() chess.Restrictions {
	if s.Suspended {
		return chess.Restrictions{}
	}
	return s.bound(s.toAct())
}

// suspends reports whether seat's restrictions would leave it without a legal action
// (a move, or a card it may play) that it has without them; seat must be the seat to act.
// A card counts as much as a move: a seat with no move but a playable teleport is not
// stalemated, and restrictions that took the teleport away would make it so.
func (s *State) suspends(seat int) bool {
	r := s.bound(seat)
	if s.v.movesAgainstStalemate {
		return r != (chess.Restrictions{}) && len(s.movesUnder(r)) == 0 && len(s.movesUnder(chess.Restrictions{})) > 0
	}
	if r == (chess.Restrictions{}) || s.canAct(seat) {
		return false
	}
	free := *s
	free.Suspended = true
	return free.canAct(seat)
}

// canAct reports whether seat, the seat to act at the start of its turn, has a legal move
// or a card it may play under the restrictions it plays under now.
func (s *State) canAct(seat int) bool {
	if len(s.moves()) > 0 {
		return true
	}
	for slot, c := range s.Sides[seat].Hand {
		if c == "" {
			continue
		}
		if _, plays, _ := s.options(seat, slot); len(plays) > 0 {
			return true
		}
	}
	return false
}

// side is every square holding a piece of colour c.
func (s *State) side(c chess.Color) chess.Bitboard { return cardchess.Side(s.Pos, c) }

// The questions cards ask of the restrictions, for the seat to act.

// free reports whether the seat to act may move its piece on sq.
func (s *State) free(sq chess.Square) bool { return !s.restrictions().Frozen.Has(sq) }

// open reports whether the seat to act may bring a piece onto sq.
func (s *State) open(sq chess.Square) bool { return !s.restrictions().Forbidden.Has(sq) }

// takable reports whether the seat to act may capture or destroy the piece on sq: an
// enemy piece, not a king, neither shielded nor under a truce.
func (s *State) takable(sq chess.Square) bool {
	pc, ok := s.Pos.PieceAt(sq)
	return ok && pc.Color != s.Pos.Turn() && pc.Role != chess.King && !s.restrictions().Shielded.Has(sq)
}
