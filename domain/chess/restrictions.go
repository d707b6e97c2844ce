package chess

// Restrictions are the card games' power over the move generator. They constrain the
// moves of the side to move and nothing else: what is attacked, and so what is check,
// is always computed on the plain board. The zero value is classic chess.
type Restrictions struct {
	// Frozen pieces may not move (asleep). A frozen king cannot castle, a frozen rook
	// cannot take part in castling. A frozen piece still attacks and gives check.
	Frozen Bitboard
	// Shielded pieces may not be captured, en passant included. A shielded piece giving
	// check must be blocked or escaped from.
	Shielded Bitboard
	// Forbidden squares may not be entered, by a capture, a drop or not. Castling enters
	// the squares the king crosses and lands on and the rook's destination.
	Forbidden Bitboard
	// Grant lets one piece move as another role for this move, in addition to its own
	// movement.
	Grant Grant
	// GrantToKing is the generator as it was before a fix, kept to replay the matches
	// recorded then: the king also moved to the squares another piece was granted, and a
	// granted movement could take the enemy king. Ajedrez Mágico's rules before
	// magic-2026.3 set it; nothing decides a new action with it.
	GrantToKing bool
}

// Grant gives the piece Piece the movement of role As (Knight, Bishop, Rook, Queen or
// King; without castling) on top of its own. A pawn that reaches the last rank with a
// granted move promotes; it may not use a grant to reach its own first rank. The zero
// Grant grants nothing.
type Grant struct {
	Piece PieceID
	As    Role
}

// Freeze adds the pieces with the given IDs to r.Frozen.
func (r *Restrictions) Freeze(p Position, ids ...PieceID) { r.Frozen |= p.SquaresOf(ids...) }

// Shield adds the pieces with the given IDs to r.Shielded. Freeze and Shield build the
// masks from piece IDs, the way card effects name pieces.
func (r *Restrictions) Shield(p Position, ids ...PieceID) { r.Shielded |= p.SquaresOf(ids...) }

// classic is the zero Restrictions the classic entry points pass to the generator.
var classic Restrictions

// resolve finds the square of the granted piece when the grant can apply: the piece is
// the mover's, not frozen, and the role is one that can be granted.
func (g Grant) resolve(p *Position, movable Bitboard) Square {
	if g.Piece == 0 || g.As < Knight || g.As > King {
		return NoSquare
	}
	s, ok := p.SquareOf(g.Piece)
	if !ok || !movable.Has(s) {
		return NoSquare
	}
	return s
}
