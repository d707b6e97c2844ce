package chess

import "testing"

// The design question "copy-make or make/unmake?", answered by measurement: this
// make/unmake perft restores the position from a small undo record instead of copying
// it. BenchmarkMakeUnmake against BenchmarkPerft/arbiter-make-d5 is the comparison
// recorded in docs/benchmarks.md; TestUnmake keeps it honest.

type undo struct {
	captured   Role
	capturedID PieceID
	hash       uint64
	ep         Square
	castling   CastlingRights
	halfmove   int32
}

func (p *Position) unplay(m Move, u undo) {
	from, to := m.From(), m.To()
	them, us := p.turn, p.turn^1
	switch m.kind() {
	case kindCastle:
		c := castleSquares[castleIndex(to)]
		kid, rid := p.ids[to], p.ids[c.rookTo]
		p.lift(to, us, King)
		p.lift(c.rookTo, us, Rook)
		p.place(from, us, King, kid)
		p.place(c.rookFrom, us, Rook, rid)
	case kindEnPassant:
		id := p.ids[to]
		p.lift(to, us, Pawn)
		p.place(from, us, Pawn, id)
		p.place(to^8, them, Pawn, u.capturedID)
	default:
		id, role := p.ids[to], p.roles[to]
		p.lift(to, us, role)
		if m.Promotion() != NoRole {
			role = Pawn
		}
		p.place(from, us, role, id)
		if u.captured != NoRole {
			p.place(to, them, u.captured, u.capturedID)
		}
	}
	if us == Black {
		p.fullmove--
	}
	p.turn = us
	p.hash, p.ep, p.castling, p.halfmove = u.hash, u.ep, u.castling, u.halfmove
}

func (p *Position) playUndo(m Move) undo {
	u := undo{hash: p.hash, ep: p.ep, castling: p.castling, halfmove: p.halfmove}
	if m.IsEnPassant() {
		u.captured, u.capturedID = Pawn, p.ids[m.To()^8]
	} else if !m.IsCastling() {
		u.captured, u.capturedID = p.roles[m.To()], p.ids[m.To()]
	}
	p.Play(m)
	return u
}

func perftUnmake(p *Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var buf [256]Move
	var n uint64
	for _, m := range p.generate(buf[:0], &classic) {
		u := p.playUndo(m)
		n += perftUnmake(p, depth-1)
		p.unplay(m, u)
	}
	return n
}

func TestUnmake(t *testing.T) {
	for _, tc := range perftPositions[:7] {
		p := mustFEN(t, tc.fen)
		before := p
		if got := perftUnmake(&p, 3); got != tc.counts[2] || p != before {
			t.Errorf("%s: make/unmake perft(3) = %d, want %d; position restored: %v", tc.name, got, tc.counts[2], p == before)
		}
	}
}

func BenchmarkMakeUnmake(b *testing.B) {
	benchNodes(b, func() uint64 { p := StartingPosition(); return perftUnmake(&p, 5) })
}
