package sovereign

// Move generation is pseudo-legal generation followed by make-and-test: every candidate
// is played into a copy, control is recomputed, and the mover's king (the new one, after
// a regime change) must not be attacked. Control can flip with any capture, any move onto
// or off a square of colour and any regime change, and a flip can turn a blocker into an
// attacker anywhere on the board, so pin masks as in classic chess would be a rule engine
// of their own; a copy and a recount are fast enough (see docs/benchmarks.md).

// LegalMoves appends the legal moves of the player to move to moves and returns it. In
// Royale it returns the single escape move when the king must escape, a single pass when
// the player has no move at all, and nothing once the game is over.
func (p *Position) LegalMoves(moves []Move) []Move {
	start := len(moves)
	if p.Royale() {
		if p.RoyaleOver() {
			return moves
		}
		moves = p.pseudo(moves)
		if p.mustEscape(moves[start:]) {
			return append(moves[:start], Move{flags: fEscape})
		}
		if len(moves) == start {
			moves = append(moves, Move{flags: fPass})
		}
		return moves
	}
	moves = p.pseudo(moves)
	out := moves[:start]
	var child Position
	for _, m := range moves[start:] {
		if p.legalInto(m, &child) {
			out = append(out, m)
		}
	}
	return out
}

// IsLegal reports whether m is a legal move here.
func (p *Position) IsLegal(m Move) bool {
	var buf [512]Move
	for _, l := range p.LegalMoves(buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}

// legalInto plays the pseudo-legal two-player move m into child and reports whether it
// is legal: it captures no king, the mover's king is not attacked afterwards and, for
// castling, was not in check and does not pass through an attacked square.
//
// Only a defection can bring a capture of a king: the opponent's king is never attacked
// when the turn starts, but a king that defects turns into a colour that may take a king
// standing on a square of its old colour. Two-player chess has no capture of a king:
// such a forced move is not a way off the square, so it is not generated as legal.
func (p *Position) legalInto(m Move, child *Position) bool {
	pl := p.turn
	if m.flags&fStep != 0 && m.flags&fCastle == 0 && p.board[m.to].Role() == King && !p.kingTakes {
		return false
	}
	if m.flags&fCastle != 0 {
		en := p.enemies(pl)
		dir := lineDir(m.from, m.to)
		for s := m.from; ; s = Square(int(s) + dir) {
			if p.attacked(s, en) {
				return false
			}
			if s == m.to {
				break
			}
		}
	}
	*child = *p
	child.Play(m)
	k, ok := child.King(pl)
	return ok && !child.attacked(k, child.enemies(pl))
}

// lineDir is the square offset of one step from a toward b along a rank or a file.
func lineDir(a, b Square) int {
	switch {
	case a.Rank() == b.Rank() && b > a:
		return 1
	case a.Rank() == b.Rank():
		return -1
	case b > a:
		return 16
	default:
		return -16
	}
}

// pseudo appends the moves of the player to move that obey every rule but the one about
// one's own king: moves of the pieces it controls, castlings and defections.
func (p *Position) pseudo(moves []Move) []Move {
	pl := p.turn
	mine, enemy := p.controls[pl], p.enemies(pl)
	for i := 0; i < 256; i++ {
		pc := p.board[i]
		if pc == 0 || mine&(1<<pc.Colour()) == 0 {
			continue
		}
		moves = p.pieceMoves(moves, Square(i), pc, enemy, 0)
	}
	if k, ok := p.King(pl); ok {
		if p.isUnmoved(k) {
			moves = p.castlings(moves, k, mine)
		}
		moves = p.defections(moves, pl, k)
	}
	return moves
}

// landable reports whether a piece of colour c coming from from may stop on the empty or
// capturable square to: never on a square of its own colour, and on a square of colour
// only if the other square of that colour is empty or is the one it leaves (decisions 8).
func (p *Position) landable(c Colour, from, to Square) bool {
	sc := squareColour[to]
	if sc == NoColour {
		return true
	}
	return sc != c && (p.board[twin[to]] == 0 || twin[to] == from)
}

// pieceMoves appends the moves of the piece pc on s; flags are added to each (fDefect
// for the king's move after a defection).
func (p *Position) pieceMoves(moves []Move, s Square, pc Piece, enemy uint16, flags uint8) []Move {
	c := pc.Colour()
	add := func(to Square) {
		m := Move{from: s, to: to, flags: fStep | flags}
		if flags&fDefect != 0 {
			m.defect = c
		}
		moves = append(moves, m)
	}
	first, last := 0, 8
	switch pc.Role() {
	case Pawn:
		return p.pawnMoves(moves, s, c, enemy)
	case Knight:
		for i, n := 0, int(knightLen[s]); i < n; i++ {
			t := knightTo[s][i]
			if q := p.board[t]; (q == 0 || enemy&(1<<q.Colour()) != 0) && p.landable(c, s, t) {
				add(t)
			}
		}
		return moves
	case King:
		for d := 0; d < 8; d++ {
			if rayLen[s][d] == 0 {
				continue
			}
			t := rays[s][d][0]
			if q := p.board[t]; (q == 0 || enemy&(1<<q.Colour()) != 0) && p.landable(c, s, t) {
				add(t)
			}
		}
		return moves
	case Rook:
		last = 4
	case Bishop:
		first = 4
	}
	for d := first; d < last; d++ {
		ray := &rays[s][d]
		for i, n := 0, int(rayLen[s][d]); i < n; i++ {
			t := ray[i]
			q := p.board[t]
			if q != 0 {
				if enemy&(1<<q.Colour()) != 0 && p.landable(c, s, t) {
					add(t)
				}
				break
			}
			if p.landable(c, s, t) {
				add(t)
			}
		}
	}
	return moves
}

// The roles a pawn may promote to, in the order moves are generated.
var promotions = [...]Role{Queen, Rook, Bishop, Knight, King}

func (p *Position) pawnMoves(moves []Move, s Square, c Colour, enemy uint16) []Move {
	add := func(to Square) {
		if inZone(to) {
			for _, r := range promotions {
				moves = append(moves, Move{from: s, to: to, promo: r, flags: fStep})
			}
			return
		}
		moves = append(moves, stepMove(s, to))
	}
	for i, n := 0, int(pawnStepLen[s]); i < n; i++ {
		if t := pawnStep[s][i]; p.board[t] == 0 && p.landable(c, s, t) {
			add(t)
		}
	}
	for i, n := 0, int(pawnDoubleLen[s]); i < n; i++ {
		if d := pawnDouble[s][i]; p.board[d[0]] == 0 && p.board[d[1]] == 0 && p.landable(c, s, d[1]) {
			add(d[1])
		}
	}
	for i, n := 0, int(pawnCaptLen[s]); i < n; i++ {
		if t := pawnCapture[s][i]; p.board[t] != 0 && enemy&(1<<p.board[t].Colour()) != 0 && p.landable(c, s, t) {
			add(t)
		}
	}
	return moves
}
