package chess

// The legal move generator. It never plays a move to see whether the king survives it:
// the squares a piece may go to are cut down by a check mask (capture the checker or
// block it) and, for a pinned piece, by the line through king and pinner. The king's
// own moves test the destination with the king lifted off the board so that it cannot
// hide behind itself. En passant, which removes two pieces from one line, is tested by
// looking for a slider on the king after the capture. Drops (drops.go) go to the empty
// squares of the check mask: a drop cannot uncover a check, only block one.

// LegalMoves appends the legal moves of the side to move to dst and returns it.
func (p *Position) LegalMoves(dst []Move) []Move { return p.generate(dst, &classic) }

// LegalMovesWith is LegalMoves under the card games' restrictions.
func (p *Position) LegalMovesWith(dst []Move, r Restrictions) []Move {
	return p.generate(dst, &r)
}

// IsLegal reports whether m is a legal move in p.
func (p Position) IsLegal(m Move) bool { return p.IsLegalWith(m, Restrictions{}) }

// IsLegalWith reports whether m is a legal move in p under r. Only the moves of m's piece
// are generated (a drop's, which leaves no square, are all of them).
func (p Position) IsLegalWith(m Move, r Restrictions) bool {
	only := allSquares
	if !m.IsDrop() {
		only = m.from().bb()
	}
	var buf [64]Move
	for _, l := range p.generateFrom(buf[:0], &r, only, false) {
		if l == m {
			return true
		}
	}
	return false
}

// hasLegalMove reports whether the side to move has a legal move under r: generate,
// stopped at the first kind of piece that has one.
func (p *Position) hasLegalMove(r *Restrictions) bool {
	var buf [256]Move
	return len(p.generateFrom(buf[:0], r, allSquares, true)) > 0
}

// allSquares is every square: generateFrom's scope for every move.
const allSquares = ^Bitboard(0)

func (p *Position) generate(dst []Move, r *Restrictions) []Move {
	return p.generateFrom(dst, r, allSquares, false)
}

// generateFrom is generate narrowed to the moves of the pieces on only: what they are
// is not changed by looking at fewer of them, which is what lets a single move be parsed
// or checked without the others. Drops, which leave no square, are in the scope only when
// only is every square. With first, it returns as soon as one kind of piece has a move
// (some moves, not all), for a caller that asks whether there is any.
func (p *Position) generateFrom(dst []Move, r *Restrictions, only Bitboard, first bool) []Move {
	n := len(dst)
	us, them := p.turn, p.turn^1
	own, enemy := p.byColor[us], p.byColor[them]
	occ := own | enemy
	ks := p.kingSquare(us)
	if ks == NoSquare {
		return dst
	}
	checkers := p.attackersTo(ks, occ) & enemy

	// allowed is where any move may end: not on one's own piece, not on a shielded piece,
	// not on a forbidden square, never on the enemy king (a granted movement may reach it
	// where no piece of the position attacks it; no move takes a king). In classic chess it
	// is just ^own.
	allowed := ^(own | enemy&r.Shielded | r.Forbidden | enemy&p.byRole[King])
	if r.GrantToKing {
		allowed |= enemy & p.byRole[King]
	}
	movable := own &^ r.Frozen
	gs := r.Grant.resolve(p, movable)
	var granted Bitboard
	if gs != NoSquare {
		granted = attacksOf(r.Grant.As, us, gs, occ)
		movable &^= gs.bb() // generated once, below, with its own and granted movement
	}
	movable &= only

	if movable.Has(ks) || gs == ks && only.Has(ks) {
		kt := kingAttacks[ks]
		if gs == ks || r.GrantToKing {
			kt |= granted // the king's own grant; another piece's is that piece's alone
		}
		dst = p.kingMoves(dst, ks, kt&allowed, occ, enemy)
	}
	if checkers.more() || first && len(dst) > n {
		return dst // double check: only the king may move; or a move was found
	}

	checkMask := ^Bitboard(0)
	if checkers != 0 {
		c := checkers.first()
		checkMask = between[ks][c] | c.bb()
	}
	targets := allowed & checkMask
	pinned := p.pinned(ks, own, enemy, occ)

	for b := p.byRole[Knight] & movable &^ pinned; b != 0; b &= b - 1 {
		s := b.first()
		dst = appendMoves(dst, s, knightAttacks[s]&targets)
	}
	if first && len(dst) > n {
		return dst
	}
	for role := Bishop; role <= Queen; role++ {
		for b := p.byRole[role] & movable; b != 0; b &= b - 1 {
			s := b.first()
			t := attacksOf(role, us, s, occ) & targets
			if pinned.Has(s) {
				t &= line[ks][s]
			}
			dst = appendMoves(dst, s, t)
		}
	}
	if first && len(dst) > n {
		return dst
	}

	dst = p.pawnMoves(dst, p.byRole[Pawn]&movable, pinned, targets, ks, enemy, occ)
	if p.ep != NoSquare {
		dst = p.enPassant(dst, own&p.byRole[Pawn]&^r.Frozen&only, checkMask, r, ks, enemy, occ)
	}
	if checkers == 0 && !r.Frozen.Has(ks) && p.castling != 0 && only.Has(ks) {
		dst = p.castlings(dst, ks, r, occ, enemy)
	}

	if p.holds(us) && only == allSquares {
		dst = p.dropMoves(dst, targets&^occ)
	}

	if gs != NoSquare && gs != ks && only.Has(gs) {
		t := granted
		if p.roles[gs] == Pawn {
			t = pawnPushesAndCaptures(us, gs, occ, enemy) | granted&^backRank(us)
		} else {
			t |= attacksOf(p.roles[gs], us, gs, occ)
		}
		if t &= targets; pinned.Has(gs) {
			t &= line[ks][gs]
		}
		if p.roles[gs] == Pawn {
			dst = appendPawnMoves(dst, gs, t)
		} else {
			dst = appendMoves(dst, gs, t)
		}
	}
	return dst
}

// pinned is the set of own pieces that stand alone between their king and an enemy
// slider looking at it.
func (p *Position) pinned(ks Square, own, enemy, occ Bitboard) Bitboard {
	var pinned Bitboard
	snipers := rookAttacks(ks, 0)&(p.byRole[Rook]|p.byRole[Queen]) |
		bishopAttacks(ks, 0)&(p.byRole[Bishop]|p.byRole[Queen])
	for snipers &= enemy; snipers != 0; snipers &= snipers - 1 {
		b := between[ks][snipers.first()] & occ
		if b != 0 && !b.more() && b&own != 0 {
			pinned |= b
		}
	}
	return pinned
}

func (p *Position) kingMoves(dst []Move, ks Square, t Bitboard, occ, enemy Bitboard) []Move {
	occ &^= ks.bb()
	for ; t != 0; t &= t - 1 {
		to := t.first()
		if p.attackersTo(to, occ)&enemy == 0 {
			dst = append(dst, newMove(ks, to, kindNormal))
		}
	}
	return dst
}

// pawnMoves generates pushes and captures set-wise for the unpinned pawns and square by
// square for the pinned ones (rare).
func (p *Position) pawnMoves(dst []Move, pawns, pinned, targets Bitboard, ks Square, enemy, occ Bitboard) []Move {
	free := pawns &^ pinned
	empty := ^occ
	if p.turn == White {
		one := free << 8 & empty
		two := (one & Rank3) << 8 & empty & targets
		dst = appendShifted(dst, one&targets, 8)
		dst = appendShifted(dst, two, 16)
		dst = appendShifted(dst, (free&^FileA)<<7&enemy&targets, 7)
		dst = appendShifted(dst, (free&^FileH)<<9&enemy&targets, 9)
	} else {
		one := free >> 8 & empty
		two := (one & Rank6) >> 8 & empty & targets
		dst = appendShifted(dst, one&targets, -8)
		dst = appendShifted(dst, two, -16)
		dst = appendShifted(dst, (free&^FileH)>>7&enemy&targets, -7)
		dst = appendShifted(dst, (free&^FileA)>>9&enemy&targets, -9)
	}
	for b := pawns & pinned; b != 0; b &= b - 1 {
		s := b.first()
		dst = appendPawnMoves(dst, s, pawnPushesAndCaptures(p.turn, s, occ, enemy)&targets&line[ks][s])
	}
	return dst
}

// pawnPushesAndCaptures is where a pawn on s may go, en passant aside.
func pawnPushesAndCaptures(c Color, s Square, occ, enemy Bitboard) Bitboard {
	b := s.bb()
	var one, two Bitboard
	if c == White {
		one = b << 8 &^ occ
		two = (one & Rank3) << 8 &^ occ
	} else {
		one = b >> 8 &^ occ
		two = (one & Rank6) >> 8 &^ occ
	}
	return one | two | pawnAttacks[c][s]&enemy
}

func backRank(c Color) Bitboard {
	if c == White {
		return Rank1
	}
	return Rank8
}

func (p *Position) enPassant(dst []Move, pawns, checkMask Bitboard, r *Restrictions, ks Square, enemy, occ Bitboard) []Move {
	ep := p.ep
	captured := ep ^ 8 // the pawn that just moved two squares, one rank behind ep
	if r.Forbidden.Has(ep) || r.Shielded.Has(captured) || checkMask&(ep.bb()|captured.bb()) == 0 {
		return dst
	}
	diag := enemy & (p.byRole[Bishop] | p.byRole[Queen])
	orth := enemy & (p.byRole[Rook] | p.byRole[Queen])
	for b := pawnAttacks[p.turn^1][ep] & pawns; b != 0; b &= b - 1 {
		from := b.first()
		after := occ ^ from.bb() ^ captured.bb() | ep.bb()
		if bishopAttacks(ks, after)&diag == 0 && rookAttacks(ks, after)&orth == 0 {
			dst = append(dst, newMove(from, ep, kindEnPassant))
		}
	}
	return dst
}

// castleSquares are, per right, the king's and rook's squares before and after.
var castleSquares = [4]struct {
	right                              CastlingRights
	kingFrom, kingTo, rookFrom, rookTo Square
}{
	{WhiteKingSide, E1, G1, H1, F1},
	{WhiteQueenSide, E1, C1, A1, D1},
	{BlackKingSide, E8, G8, H8, F8},
	{BlackQueenSide, E8, C8, A8, D8},
}

func (p *Position) castlings(dst []Move, ks Square, r *Restrictions, occ, enemy Bitboard) []Move {
	for _, c := range castleSquares[2*p.turn : 2*p.turn+2] {
		if p.castling&c.right == 0 || ks != c.kingFrom || r.Frozen.Has(c.rookFrom) ||
			between[ks][c.rookFrom]&occ != 0 {
			continue
		}
		path := between[ks][c.kingTo] | c.kingTo.bb()
		if (path|c.rookTo.bb())&r.Forbidden != 0 {
			continue
		}
		safe := true
		for b := path; b != 0; b &= b - 1 {
			if p.attackersTo(b.first(), occ)&enemy != 0 {
				safe = false
				break
			}
		}
		if safe {
			dst = append(dst, newMove(ks, c.kingTo, kindCastle))
		}
	}
	return dst
}

func appendMoves(dst []Move, from Square, t Bitboard) []Move {
	for ; t != 0; t &= t - 1 {
		dst = append(dst, newMove(from, t.first(), kindNormal))
	}
	return dst
}

// appendShifted appends a pawn move to each square of t from the square delta behind it,
// expanding moves to the last rank into the four promotions.
func appendShifted(dst []Move, t Bitboard, delta int) []Move {
	for b := t &^ (Rank1 | Rank8); b != 0; b &= b - 1 {
		to := b.first()
		dst = append(dst, newMove(Square(int(to)-delta), to, kindNormal))
	}
	for b := t & (Rank1 | Rank8); b != 0; b &= b - 1 {
		to := b.first()
		dst = appendPromotions(dst, Square(int(to)-delta), to)
	}
	return dst
}

func appendPawnMoves(dst []Move, from Square, t Bitboard) []Move {
	dst = appendMoves(dst, from, t&^(Rank1|Rank8))
	for b := t & (Rank1 | Rank8); b != 0; b &= b - 1 {
		dst = appendPromotions(dst, from, b.first())
	}
	return dst
}

func appendPromotions(dst []Move, from, to Square) []Move {
	return append(dst,
		newPromotion(from, to, Queen), newPromotion(from, to, Rook),
		newPromotion(from, to, Bishop), newPromotion(from, to, Knight))
}
