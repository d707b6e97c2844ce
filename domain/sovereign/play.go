package sovereign

// Play plays m, which must be legal (from LegalMoves or ParseMove): Play does not check.
// Control is recomputed afterwards.
func (p *Position) Play(m Move) {
	pl := p.turn
	switch {
	case m.flags&fEscape != 0:
		p.removeKing(pl)
		p.escaped |= 1 << pl
	case m.flags&fPass != 0:
	default:
		if m.flags&fDefect != 0 {
			k := p.kings[pl]
			p.board[k] = NewPiece(m.defect, King)
			p.owned[pl] = m.defect
		}
		if m.flags&fCastle != 0 {
			p.castle(pl, m.from, m.to)
		} else if m.flags&fStep != 0 {
			p.step(pl, m)
		}
	}
	p.ply++
	p.turn = p.next(pl)
	p.updateControl()
}

func (p *Position) step(pl Player, m Move) {
	from, to := m.from, m.to
	pc, id := p.board[from], p.ids[from]
	if cap := p.board[to]; cap.Role() == King {
		// Royale: a king is captured; its player enters Interregnum, having lost it.
		for q := Player(0); q < Player(p.players); q++ {
			if p.owned[q] == cap.Colour() && p.hasKing&(1<<q) != 0 {
				p.removeKing(q)
			}
		}
	}
	p.board[from], p.ids[from] = 0, 0
	p.board[to], p.ids[to] = pc, id
	if pc.Role() == King {
		if p.isUnmoved(from) {
			p.clearEdges(from)
		}
		p.kings[pl] = to
	}
	p.clearUnmoved(from)
	p.clearUnmoved(to)
	switch m.promo {
	case NoRole:
	case King:
		// Coup d'état (the pawn is of the owned colour) or overthrow (a controlled
		// colour, which becomes the owned one): the old king leaves the board.
		if p.hasKing&(1<<pl) != 0 {
			p.removeKing(pl)
		}
		p.owned[pl] = pc.Colour()
		p.hasKing |= 1 << pl
		p.escaped &^= 1 << pl
		p.kings[pl] = to
		p.board[to] = NewPiece(pc.Colour(), King)
	default:
		p.board[to] = NewPiece(pc.Colour(), m.promo)
	}
}

// castle moves the king from k to to and the rook, the first piece beyond to, onto the
// square next to the king on the side it came from.
func (p *Position) castle(pl Player, k, to Square) {
	dir := lineDir(k, to)
	rook := to
	for p.board[rook] == 0 || rook == to {
		rook = Square(int(rook) + dir)
	}
	kp, kid, rp, rid := p.board[k], p.ids[k], p.board[rook], p.ids[rook]
	p.board[k], p.ids[k], p.board[rook], p.ids[rook] = 0, 0, 0, 0
	p.board[to], p.ids[to] = kp, kid
	rookTo := Square(int(to) - dir)
	p.board[rookTo], p.ids[rookTo] = rp, rid
	p.clearEdges(k)
	p.clearUnmoved(rook)
	p.kings[pl] = to
}

// removeKing takes player pl's king off the board (captured, escaped, or replaced by a
// regime change).
func (p *Position) removeKing(pl Player) {
	k := p.kings[pl]
	if p.isUnmoved(k) {
		p.clearEdges(k)
	}
	p.board[k], p.ids[k] = 0, 0
	p.hasKing &^= 1 << pl
	p.escaped &^= 1 << pl
}

// clearEdges forgets the castling rights of an unmoved king on k that moves or leaves:
// its own, and those of the rooks on its edges that no other unmoved king shares an edge
// with ("as long as neither piece has moved": another king's rook has not moved). The
// notation lists rooks only, and reads a king on an edge with a listed rook as unmoved,
// so a rook no king can use any more leaves the list.
func (p *Position) clearEdges(k Square) {
	p.clearUnmoved(k)
	for s := 0; s < 256; s++ {
		if sq := Square(s); p.isUnmoved(sq) && sameEdge(k, sq) && (p.clearsShared || !p.usableByAnother(k, sq)) {
			p.clearUnmoved(sq)
		}
	}
}

// usableByAnother reports whether an unmoved king other than the one on k stands on an
// edge of s, or is on s.
func (p *Position) usableByAnother(k, s Square) bool {
	for pl := 0; pl < int(p.players); pl++ {
		if o, ok := p.King(Player(pl)); ok && o != k && p.isUnmoved(o) && (o == s || sameEdge(o, s)) {
			return true
		}
	}
	return false
}
