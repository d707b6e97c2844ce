package sovereignchess

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The model's moves: its reading of the move notation, the rules a move must obey, its
// effect, and the list of every legal move of the side to move. One predicate, illegal,
// says whether the rules allow a move; the list is every move a piece the mover controls
// could make to any square within eight of it (every promotion, every castling, every
// defection, bare or with each king step), kept when illegal has nothing to say. So the
// playouts check the engine's list both ways with the same reading of the rules.

// mMove is a move as the notation writes it: "e2e4", "g6g7q" (a promotion), "i1k1O" (a
// castling, written as the king's move), "=y" (a defection) and "=yk6k7" (a defection
// and the king's move off a square of its new colour).
type mMove struct {
	defect   byte
	from, to mSq
	step     bool
	promo    byte
	castle   bool
}

func (m mMove) String() string {
	var b strings.Builder
	if m.defect != 0 {
		b.WriteByte('=')
		b.WriteByte(m.defect)
	}
	if m.step {
		b.WriteString(m.from.String() + m.to.String())
		if m.promo != 0 {
			b.WriteByte(m.promo)
		}
		if m.castle {
			b.WriteByte('O')
		}
	}
	return b.String()
}

// mReadSquare reads a square name at the start of s, a letter and one or two digits
// (greedily, as ranks go to 16), and says how many bytes it took: 0 for none.
func mReadSquare(s string) (mSq, int) {
	n := 1
	for n < len(s) && n < 3 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 3 && s[1:3] > "16" {
		n = 2
	}
	sq, ok := mSquare(s[:n])
	if !ok {
		return mSq{}, 0
	}
	return sq, n
}

func mReadMove(t *testing.T, s string) mMove {
	t.Helper()
	var m mMove
	rest := s
	if strings.HasPrefix(rest, "=") && len(rest) >= 2 {
		m.defect, rest = rest[1], rest[2:]
		if rest == "" {
			return m
		}
	}
	read := func() mSq {
		sq, n := mReadSquare(rest)
		if n == 0 {
			t.Fatalf("model: move %q", s)
		}
		rest = rest[n:]
		return sq
	}
	m.from, m.step = read(), true
	m.to = read()
	switch {
	case rest == "":
	case rest == "O":
		m.castle = true
	case len(rest) == 1 && strings.Contains("qrbnk", rest):
		m.promo = rest[0]
	default:
		t.Fatalf("model: move %q", s)
	}
	return m
}

// mUnmoved marks the squares whose piece has not moved since the start position, for
// castling: "as long as neither piece has moved during the game"; "a king who has only
// defected is still otherwise eligible to castle".
type mUnmoved [16][16]bool

// mUnmovedOf reads the castling field of the notation: the squares of the rooks that
// have not moved ("C" for c1, "c" for c16, a square name such as "a5" elsewhere on an
// edge), or "-"; a king on an edge with such a rook on the same edge has not moved
// either.
func mUnmovedOf(t *testing.T, p mPos, field string) *mUnmoved {
	t.Helper()
	var u mUnmoved
	for rest := field; rest != "-" && rest != ""; {
		c := rest[0]
		switch sq, n := mReadSquare(rest); {
		case n > 0:
			u[sq.x][sq.y], rest = true, rest[n:]
		case c >= 'A' && c <= 'P':
			u[c-'A'][0], rest = true, rest[1:]
		case c >= 'a' && c <= 'p':
			u[c-'a'][15], rest = true, rest[1:]
		default:
			t.Fatalf("model: castling field %q", field)
		}
	}
	edges := func(s mSq) [4]bool { return [4]bool{s.y == 0, s.y == 15, s.x == 0, s.x == 15} }
	for x := range 16 {
		for y := range 16 {
			if p.board[x][y].r != 'k' {
				continue
			}
			for rx := range 16 {
				for ry := range 16 {
					ke, re := edges(mSq{x, y}), edges(mSq{rx, ry})
					shared := ke[0] && re[0] || ke[1] && re[1] || ke[2] && re[2] || ke[3] && re[3]
					if u[rx][ry] && p.board[rx][ry].r == 'r' && shared {
						u[x][y] = true
					}
				}
			}
		}
	}
	return &u
}

// played forgets every square whose piece changed from before to after: what moved
// left one and reached another, a captured piece's square, a king removed by a regime
// change. A bare defection only recolours the king in place: it has not moved.
func (u *mUnmoved) played(before, after mPos, m mMove) {
	if !m.step {
		return
	}
	for x := range 16 {
		for y := range 16 {
			if before.board[x][y] != after.board[x][y] {
				u[x][y] = false
			}
		}
	}
}

// landable reports whether pc coming from a may stop on b: never on a square of its own
// colour (rule 5), and on a square of colour only while the other square of that colour
// is empty (rule 13), or is the one it leaves (board facts 8).
func (p *mPos) landable(pc mPiece, a, b mSq) bool {
	c := mColourOf(b)
	return c == 0 || c != pc.c && (p.at(mTwin(b)).c == 0 || mTwin(b) == a)
}

// stepTo reports whether pc on a may move to the empty square b without capturing.
func (p *mPos) stepTo(pc mPiece, a, b mSq) bool {
	if pc.r != 'p' {
		return p.reaches(pc, a, b)
	}
	dx, dy := b.x-a.x, b.y-a.y
	if mAbs(dx)+mAbs(dy) == 1 {
		return towardCentre(a, b)
	}
	// Two squares away from the closest edge, from the first or second ring, over an
	// empty square.
	if (dx != 0 && dy != 0) || mAbs(dx)+mAbs(dy) != 2 {
		return false
	}
	ex, ey := min(a.x, 15-a.x), min(a.y, 15-a.y)
	away := func(d, pos int) bool { return (pos <= 7 && d > 0) || (pos > 7 && d < 0) }
	ok := dx != 0 && ex <= 1 && ex <= ey && away(dx, a.x) || dy != 0 && ey <= 1 && ey <= ex && away(dy, a.y)
	return ok && p.board[a.x+dx/2][a.y+dy/2].c == 0
}

// illegal says why the rules do not allow m in p, or "" when they do.
func (p mPos) illegal(m mMove, u *mUnmoved) string { return p.illegalUnder(m, p.control(), u) }

// illegalUnder is illegal, ctl being p's control.
func (p mPos) illegalUnder(m mMove, ctl mCtl, u *mUnmoved) string {
	if why := p.fault(m, ctl, u); why != "" {
		return why
	}
	pl := p.turn
	after := p.play(m)
	if k := after.kings(after.owned[pl]); len(k) != 1 {
		return fmt.Sprintf("leaves the mover with %d kings", len(k))
	}
	if after.inCheck(pl) {
		return "leaves the mover's own king attacked"
	}
	return ""
}

// fault says why m breaks a rule of movement in p, whose control is ctl, or "" when it
// breaks none; whether the mover's king is safe afterwards is illegal's to say. The
// reasons are constant strings where they can be: legalMoves asks of thousands of
// candidates a ply, and a failure's message names the move and the position.
func (p mPos) fault(m mMove, ctl mCtl, u *mUnmoved) string {
	pl := p.turn
	mid := p
	if m.defect != 0 {
		// Defection: "to any other color under their control"; the king takes it. "If
		// the player wants to defect to a color controlled by the king itself ... [it]
		// must immediately move the king off the matching square."
		if !controlledBy(ctl, m.defect, pl) || m.defect == p.owned[pl] {
			return fmt.Sprintf("defection to %c, which the mover does not control besides its own (control %v)", m.defect, ctl)
		}
		kings := p.kings(p.owned[pl])
		if len(kings) != 1 {
			return fmt.Sprintf("the mover has %d kings", len(kings))
		}
		k := kings[0]
		onOwn := mColourOf(k) == m.defect
		if onOwn != m.step || (m.step && m.from != k) || m.castle || m.promo != 0 {
			return "a defecting king on a square of its new colour moves off it by a king's step, and only then"
		}
		mid.board[k.x][k.y] = mPiece{m.defect, 'k'}
		mid.owned[pl] = m.defect
		ctl = mid.control()
	}
	if !m.step {
		return ""
	}
	pc, victim := mid.at(m.from), mid.at(m.to)
	if pc.c == 0 || !controlledBy(ctl, pc.c, pl) {
		return "the mover does not control the piece it moves"
	}
	switch {
	case m.castle:
		if why := mid.castlingFault(m, ctl, pl, u); why != "" {
			return why
		}
	case victim.r == 'k':
		return "a king is captured in a two-player game"
	case victim.c != 0 && !controlledBy(ctl, victim.c, 1-pl):
		return "captures a piece the opponent does not control"
	case victim.c != 0 && !mid.reaches(pc, m.from, m.to):
		return "the piece cannot capture that way"
	case victim.c == 0 && !mid.stepTo(pc, m.from, m.to):
		return "the piece cannot move that way"
	}
	if !mid.landable(pc, m.from, m.to) {
		return "lands on a square of its own colour, or of a colour whose other square is taken"
	}
	if pc.r == 'p' && mInZone(m.to) != (m.promo != 0) || pc.r != 'p' && m.promo != 0 {
		return "a pawn entering the centre promotes (to a queen, rook, bishop, knight or king), and nothing else does"
	}
	return ""
}

// castlingFault checks a castling (rule 14 and the Castling section): the mover's king,
// unmoved, goes along a rank or a file over empty squares to any of them; the first
// piece beyond is an unmoved rook the player controls, which lands next to the king on
// the other side; neither moves more than eight squares nor lands where it may not; the
// king is not in check and passes through and lands on no attacked square.
func (p *mPos) castlingFault(m mMove, ctl mCtl, pl int, u *mUnmoved) string {
	king := p.at(m.from)
	if king != (mPiece{p.owned[pl], 'k'}) || !u[m.from.x][m.from.y] {
		return "castling without the mover's unmoved king"
	}
	dx, dy := sign(m.to.x-m.from.x), sign(m.to.y-m.from.y)
	if dx != 0 && dy != 0 {
		return "castling off a rank or a file"
	}
	for s := m.from; ; {
		if p.attacked(s, 1-pl, ctl) {
			return "castling out of, through or into check"
		}
		if s == m.to {
			break
		}
		s = mSq{s.x + dx, s.y + dy}
		if p.at(s).c != 0 {
			return "castling over a piece"
		}
	}
	r := mSq{m.to.x + dx, m.to.y + dy}
	for mOnBoard(r.x, r.y) && p.at(r).c == 0 {
		r = mSq{r.x + dx, r.y + dy}
	}
	if !mOnBoard(r.x, r.y) {
		return "castling without a rook beyond"
	}
	rook, rookTo := p.at(r), mSq{m.to.x - dx, m.to.y - dy}
	switch {
	case rook.r != 'r' || !controlledBy(ctl, rook.c, pl) || !u[r.x][r.y]:
		return "castling with a piece that is not an unmoved rook the player controls"
	case max(mAbs(m.to.x-m.from.x), mAbs(m.to.y-m.from.y)) > 8 || max(mAbs(r.x-rookTo.x), mAbs(r.y-rookTo.y)) > 8:
		return "castling moves a piece more than eight squares"
	case !p.landable(rook, r, rookTo):
		return "castling lands the rook where it may not stand"
	}
	return ""
}

// play is the position after m by the side to move (m is not checked).
func (p mPos) play(m mMove) mPos {
	pl := p.turn
	p.turn = 1 - pl
	if m.defect != 0 {
		for _, k := range p.kings(p.owned[pl]) {
			p.board[k.x][k.y] = mPiece{m.defect, 'k'}
		}
		p.owned[pl] = m.defect
	}
	if !m.step {
		return p
	}
	pc := p.at(m.from)
	p.board[m.from.x][m.from.y] = mPiece{}
	if m.castle {
		dx, dy := sign(m.to.x-m.from.x), sign(m.to.y-m.from.y)
		r := m.to
		for p.at(r).c == 0 {
			r = mSq{r.x + dx, r.y + dy}
		}
		rook := p.at(r)
		p.board[r.x][r.y] = mPiece{}
		p.board[m.to.x][m.to.y] = pc
		p.board[m.to.x-dx][m.to.y-dy] = rook
		return p
	}
	switch m.promo {
	case 0:
	case 'k':
		// A regime change: the old king leaves; the pawn's colour is owned from now on.
		for _, k := range p.kings(p.owned[pl]) {
			p.board[k.x][k.y] = mPiece{}
		}
		p.owned[pl] = pc.c
		pc.r = 'k'
	default:
		pc.r = m.promo
	}
	p.board[m.to.x][m.to.y] = pc
	return p
}

// legalMoves lists every legal move of the side to move: the candidates are every move
// of each piece it controls to each square it could reach at most (eight squares, rule
// 4; two for a pawn or a knight), with each promotion, a castling to each of those
// squares for a king, and each defection to a colour the mover controls, bare or with
// each step of the king; illegal keeps the legal ones.
func (p mPos) legalMoves(u *mUnmoved) []mMove {
	pl, ctl := p.turn, p.control()
	var out []mMove
	try := func(m mMove) {
		if p.illegalUnder(m, ctl, u) == "" {
			out = append(out, m)
		}
	}
	within := func(from mSq, n int, do func(to mSq)) {
		for x := max(from.x-n, 0); x <= min(from.x+n, 15); x++ {
			for y := max(from.y-n, 0); y <= min(from.y+n, 15); y++ {
				if to := (mSq{x, y}); to != from {
					do(to)
				}
			}
		}
	}
	for x := range 16 {
		for y := range 16 {
			pc, from := p.board[x][y], mSq{x, y}
			if pc.c == 0 || !controlledBy(ctl, pc.c, pl) {
				continue
			}
			reach := 8
			if pc.r == 'p' || pc.r == 'n' {
				reach = 2
			}
			within(from, reach, func(to mSq) {
				try(mMove{from: from, to: to, step: true})
				switch pc.r {
				case 'p':
					for _, r := range []byte("qrbnk") {
						try(mMove{from: from, to: to, step: true, promo: r})
					}
				case 'k':
					try(mMove{from: from, to: to, step: true, castle: true})
				}
			})
		}
	}
	k := p.kings(p.owned[pl])
	for _, c := range mColours {
		if !controlledBy(ctl, c, pl) || c == p.owned[pl] || len(k) != 1 {
			continue
		}
		try(mMove{defect: c})
		within(k[0], 1, func(to mSq) { try(mMove{defect: c, from: k[0], to: to, step: true}) })
	}
	return out
}

// compare fails unless the moves offered in p are exactly the model's legal moves,
// listing the position, each move offered that the model finds illegal (and why), and
// each legal move not offered.
func (p mPos) compare(t *testing.T, ctx string, offered []string, u *mUnmoved) {
	t.Helper()
	legal := map[mMove]bool{}
	for _, m := range p.legalMoves(u) {
		legal[m] = true
	}
	var diff []string
	seen := map[mMove]bool{}
	for _, s := range offered {
		m := mReadMove(t, s)
		switch {
		case seen[m]:
			diff = append(diff, s+" is offered twice")
		case !legal[m]:
			diff = append(diff, fmt.Sprintf("%s is offered, and the model finds it illegal: %s", s, p.illegal(m, u)))
		}
		seen[m] = true
	}
	var missing []string
	for m := range legal {
		if !seen[m] {
			missing = append(missing, m.String()+" is legal by the model, and not offered")
		}
	}
	slices.Sort(missing)
	if diff = append(diff, missing...); len(diff) > 0 {
		t.Fatalf("%s: the moves offered are not the model's:\n%s\nunmoved kings and rooks: %s", ctx, strings.Join(diff, "\n"), u.castlers(p))
	}
}

// castlers lists the kings and rooks the model holds unmoved, for a failure's message.
func (u *mUnmoved) castlers(p mPos) string {
	var out []string
	for x := range 16 {
		for y := range 16 {
			if pc := p.board[x][y]; u[x][y] && (pc.r == 'k' || pc.r == 'r') {
				out = append(out, fmt.Sprintf("%c%c %v", pc.c, pc.r, mSq{x, y}))
			}
		}
	}
	return strings.Join(out, ", ")
}
