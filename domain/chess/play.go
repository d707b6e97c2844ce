package chess

// Play plays m, which must be legal in p (from LegalMoves, ParseMove or checked with
// IsLegal): the board, piece IDs, castling rights, en passant, clocks and hash follow.
// Playing an illegal move leaves p in an unspecified state; Game.Play checks first.
func (p *Position) Play(m Move) {
	from, to := m.from(), m.To()
	if m.kind() == kindDrop {
		p.playDrop(Role(from), to)
		return
	}
	if p.promoted != 0 {
		p.promoted = carryPromoted(p.promoted, from, to)
	}
	us, them := p.turn, p.turn^1
	role, id := p.roles[from], p.ids[from]
	if p.ep != NoSquare {
		p.hash ^= zEnPass[p.ep.File()]
		p.ep = NoSquare
	}
	p.halfmove++
	switch m.kind() {
	case kindCastle:
		c := castleSquares[castleIndex(to)]
		rid := p.ids[c.rookFrom]
		p.lift(from, us, King)
		p.lift(c.rookFrom, us, Rook)
		p.place(to, us, King, id)
		p.place(c.rookTo, us, Rook, rid)
		if p.promoted != 0 {
			p.promoted = carryPromoted(p.promoted, c.rookFrom, c.rookTo)
		}
	case kindEnPassant:
		p.lift(to^8, them, Pawn)
		p.lift(from, us, Pawn)
		p.place(to, us, Pawn, id)
		p.halfmove = 0
	default:
		if captured := p.roles[to]; captured != NoRole {
			p.lift(to, them, captured)
			p.halfmove = 0
		}
		p.lift(from, us, role)
		if promo := m.Promotion(); promo != NoRole {
			p.place(to, us, promo, id) // the promoted pawn keeps its ID
			if p.hands != 0 {
				p.promoted |= to.bb() // bughouse passes it on as a pawn
			}
		} else {
			p.place(to, us, role, id)
		}
		if role == Pawn {
			p.halfmove = 0
		}
	}
	if p.castling != 0 {
		if cr := p.castling & castleLoss[from] & castleLoss[to]; cr != p.castling {
			p.hash ^= zCastling[p.castling] ^ zCastling[cr]
			p.castling = cr
		}
	}
	p.turn = them
	p.hash ^= zBlack
	if us == Black {
		p.fullmove++
	}
	if role == Pawn && (from^to) == 16 {
		if ep := (from + to) / 2; p.enPassantLegal(ep) {
			p.ep = ep
			p.hash ^= zEnPass[ep.File()]
		}
	}
}

// castleIndex is the index in castleSquares of the castling whose king lands on to.
func castleIndex(to Square) int {
	switch to {
	case G1:
		return 0
	case C1:
		return 1
	case G8:
		return 2
	}
	return 3
}

// enPassantLegal reports whether the side to move has a legal capture on ep. The square
// is only recorded then, so that positions that differ only by an en-passant square
// nobody can use hash and print the same, as the repetition rule wants.
func (p *Position) enPassantLegal(ep Square) bool {
	us := p.turn
	pawns := pawnAttacks[us^1][ep] & p.byColor[us] & p.byRole[Pawn]
	if pawns == 0 || p.roles[ep] != NoRole {
		return false
	}
	ks := p.kingSquare(us)
	if ks == NoSquare {
		return true
	}
	captured := ep ^ 8
	enemy := p.byColor[us^1] &^ captured.bb()
	for ; pawns != 0; pawns &= pawns - 1 {
		from := pawns.first()
		after := p.occupied() ^ from.bb() ^ captured.bb() | ep.bb()
		if p.attackersTo(ks, after)&enemy == 0 {
			return true
		}
	}
	return false
}

// carryPromoted follows a move from from to to in the set of promoted pieces: a piece
// captured on to leaves it, a promoted piece leaving from takes its mark along.
func carryPromoted(promoted Bitboard, from, to Square) Bitboard {
	b := promoted &^ to.bb()
	if b.Has(from) {
		b ^= from.bb() | to.bb()
	}
	return b
}
