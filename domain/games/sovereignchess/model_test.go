package sovereignchess

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/internal/longtest"
)

// An independent model of two-player Sovereign Chess, written from the rules files
// (shared/rules/sovereign-chess.en.txt and sovereign-chess-board.md) and from nothing
// in domain/sovereign: its own reading of the notation, its own squares of colour, its
// own control (a fixpoint from the owned colours), its own attacks and its own effect of
// a move. Seeded random games are played through Decide, Audit and Evolve, and every
// move the rules record is checked against it: the mover controls what it moves, the
// piece moves as its role may, never onto a square of its own colour nor onto a colour
// whose twin square is taken, captures only what the opponent controls and never a king;
// a defection goes to a colour the mover controls and moves the king off a square of its
// new colour when it stands on one; the position recorded after the move is the model's;
// the mover's king is not attacked after it; each player keeps one king, of its owned
// colour; no Royale event appears; a checkmate is a king in check, a stalemate is not.

// mPiece is a piece as the notation writes it: colour letter and role letter; 0 is empty.
type mPiece struct{ c, r byte }

// mPos is a two-player position: board[x][y], x = file a..p, y = rank 1..16 from 0.
type mPos struct {
	board [16][16]mPiece
	owned [2]byte // each player's owned colour letter
	turn  int     // 0: the player written "1"
}

type mSq struct{ x, y int }

// mColourSquares are the squares of colour of the board facts file, section 2.
var mColourSquares = map[byte][2]string{
	'w': {"h9", "i8"}, 'b': {"h8", "i9"}, 'a': {"g7", "j10"}, 's': {"g10", "j7"},
	'p': {"i6", "h11"}, 'v': {"h6", "i11"}, 'r': {"e12", "l5"}, 'n': {"e5", "l12"},
	'o': {"f9", "k8"}, 'c': {"f8", "k9"}, 'y': {"f11", "k6"}, 'g': {"f6", "k11"},
}

func mSquare(name string) (mSq, bool) {
	if len(name) < 2 || name[0] < 'a' || name[0] > 'p' {
		return mSq{}, false
	}
	r, err := strconv.Atoi(name[1:])
	if err != nil || r < 1 || r > 16 {
		return mSq{}, false
	}
	return mSq{int(name[0] - 'a'), r - 1}, true
}

// mColourOf is the colour of a square of colour, or 0.
func mColourOf(s mSq) byte {
	for c, names := range mColourSquares {
		for _, n := range names {
			if q, _ := mSquare(n); q == s {
				return c
			}
		}
	}
	return 0
}

func mTwin(s mSq) mSq { return mSq{15 - s.x, 15 - s.y} }

// mParse reads the notation: rank 16 first, pieces as colour+role letters, digits for
// empty runs; then the side to move ("1" or "2") and the two owned colours.
func mParse(t *testing.T, notation string) mPos {
	t.Helper()
	f := strings.Fields(notation)
	if len(f) < 4 {
		t.Fatalf("model: notation %q", notation)
	}
	var p mPos
	ranks := strings.Split(f[0], "/")
	if len(ranks) != 16 {
		t.Fatalf("model: %d ranks in %q", len(ranks), notation)
	}
	for i, rank := range ranks {
		y, x := 15-i, 0
		for j := 0; j < len(rank); {
			if rank[j] >= '0' && rank[j] <= '9' {
				k := j
				for k < len(rank) && rank[k] >= '0' && rank[k] <= '9' {
					k++
				}
				n, _ := strconv.Atoi(rank[j:k])
				x, j = x+n, k
				continue
			}
			p.board[x][y] = mPiece{rank[j], rank[j+1]}
			x, j = x+1, j+2
		}
		if x != 16 {
			t.Fatalf("model: rank %d of %q has %d files", y+1, notation, x)
		}
	}
	p.turn = int(f[1][0] - '1')
	p.owned = [2]byte{f[2][0], f[3][0]}
	return p
}

func (p *mPos) at(s mSq) mPiece { return p.board[s.x][s.y] }

// control is who controls each colour: the owners their colours, then, until nothing
// changes, a colour whose occupied square holds a piece of a colour a player controls,
// unless the other player owns it (rules 11 and 13; chains and cycles fall out).
func (p *mPos) control() map[byte]int {
	ctl := map[byte]int{p.owned[0]: 0, p.owned[1]: 1}
	for changed := true; changed; {
		changed = false
		for c, names := range mColourSquares {
			if _, ok := ctl[c]; ok {
				continue
			}
			for _, n := range names {
				s, _ := mSquare(n)
				if pc := p.at(s); pc.c != 0 {
					if pl, ok := ctl[pc.c]; ok {
						ctl[c], changed = pl, true
					}
				}
			}
		}
	}
	return ctl
}

func controlledBy(ctl map[byte]int, c byte, pl int) bool {
	who, ok := ctl[c]
	return ok && who == pl
}

func mAbs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// towardCentre reports whether a pawn step from a to b brings it closer to at least one
// brown line (x = 7.5 or y = 7.5).
func towardCentre(a, b mSq) bool {
	return mAbs(2*b.x-15) < mAbs(2*a.x-15) || mAbs(2*b.y-15) < mAbs(2*a.y-15)
}

func mInZone(s mSq) bool { return s.x >= 6 && s.x <= 9 && s.y >= 6 && s.y <= 9 }

// clearLine reports whether a and b are on one line at most eight squares apart with
// nothing between them.
func (p *mPos) clearLine(a, b mSq) bool {
	dx, dy := b.x-a.x, b.y-a.y
	n := max(mAbs(dx), mAbs(dy))
	if n == 0 || n > 8 || (dx != 0 && dy != 0 && mAbs(dx) != mAbs(dy)) {
		return false
	}
	sx, sy := sign(dx), sign(dy)
	for i := 1; i < n; i++ {
		if p.board[a.x+i*sx][a.y+i*sy].c != 0 {
			return false
		}
	}
	return true
}

func sign(v int) int { return cmp.Compare(v, 0) }

// reaches reports whether pc on a could capture on b by its movement (rule 4 and the
// movement of pieces; a pawn captures diagonally toward a brown line).
func (p *mPos) reaches(pc mPiece, a, b mSq) bool {
	dx, dy := mAbs(b.x-a.x), mAbs(b.y-a.y)
	switch pc.r {
	case 'k':
		return max(dx, dy) == 1
	case 'n':
		return dx*dy == 2
	case 'r':
		return (dx == 0 || dy == 0) && p.clearLine(a, b)
	case 'b':
		return dx == dy && p.clearLine(a, b)
	case 'q':
		return p.clearLine(a, b)
	case 'p':
		return dx == 1 && dy == 1 && towardCentre(a, b)
	}
	return false
}

// attacked reports whether a piece player by controls could capture on s: never a piece
// of the colour of the square s (rule 5).
func (p *mPos) attacked(s mSq, by int, ctl map[byte]int) bool {
	for x := range 16 {
		for y := range 16 {
			pc := p.board[x][y]
			if pc.c == 0 || !controlledBy(ctl, pc.c, by) || pc.c == mColourOf(s) {
				continue
			}
			if p.reaches(pc, mSq{x, y}, s) {
				return true
			}
		}
	}
	return false
}

// kings lists the squares of the kings of colour c.
func (p *mPos) kings(c byte) []mSq {
	var out []mSq
	for x := range 16 {
		for y := range 16 {
			if p.board[x][y] == (mPiece{c, 'k'}) {
				out = append(out, mSq{x, y})
			}
		}
	}
	return out
}

func (p *mPos) inCheck(pl int) bool {
	k := p.kings(p.owned[pl])
	return len(k) == 1 && p.attacked(k[0], 1-pl, p.control())
}

// mMove is the move notation read by the model.
type mMove struct {
	defect   byte
	from, to mSq
	step     bool
	promo    byte
	castle   bool
}

func mReadMove(t *testing.T, s string) mMove {
	t.Helper()
	var m mMove
	rest := s
	if strings.HasPrefix(rest, "=") {
		m.defect, rest = rest[1], rest[2:]
		if rest == "" {
			return m
		}
	}
	// from and to: a letter and one or two digits each; a greedy rank, as ranks go to 16.
	read := func() mSq {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' && i < 3 {
			i++
		}
		if i == 3 && rest[1:3] > "16" {
			i = 2
		}
		sq, ok := mSquare(rest[:i])
		if !ok {
			t.Fatalf("model: move %q", s)
		}
		rest = rest[i:]
		return sq
	}
	m.from, m.step = read(), true
	m.to = read()
	switch rest {
	case "":
	case "O":
		m.castle = true
	default:
		m.promo = rest[0]
	}
	return m
}

// check checks the move notation, played from before, against the rules, and that after
// is what it gives.
func (before mPos) check(t *testing.T, ctx, notation string, after mPos) (captured bool) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s: %s", ctx, notation, fmt.Sprintf(format, args...))
	}
	pl := before.turn
	m := mReadMove(t, notation)
	mid := before
	ctl := before.control()
	kings := mid.kings(mid.owned[pl])
	if len(kings) != 1 {
		fail("the mover has %d kings", len(kings))
	}
	if m.defect != 0 {
		// Defection: to a colour the mover controls but does not own; the king takes it.
		if !controlledBy(ctl, m.defect, pl) || m.defect == mid.owned[pl] {
			fail("defection to %c, which the mover does not control (control %v)", m.defect, ctl)
		}
		k := kings[0]
		mid.board[k.x][k.y] = mPiece{m.defect, 'k'}
		mid.owned[pl] = m.defect
		onOwn := mColourOf(k) == m.defect
		if onOwn != m.step || (m.step && m.from != k) {
			fail("a defecting king on a square of its new colour moves off it, and only then")
		}
		ctl = mid.control()
	}
	next := mid
	if m.step {
		pc := mid.at(m.from)
		if pc.c == 0 || !controlledBy(ctl, pc.c, pl) {
			fail("the mover does not control the piece on %v", m.from)
		}
		victim := mid.at(m.to)
		captured = victim.c != 0 && !m.castle
		switch {
		case m.castle:
			m.checkCastling(fail, &mid, ctl, pl, pc)
		case victim.c != 0 && victim.r == 'k':
			fail("a king is captured in a two-player game")
		case victim.c != 0 && !controlledBy(ctl, victim.c, 1-pl):
			fail("captures %c%c, which the opponent does not control", victim.c, victim.r)
		case victim.c != 0 && !mid.reaches(pc, m.from, m.to):
			fail("%c%c cannot capture that way", pc.c, pc.r)
		case victim.c == 0 && !mid.stepTo(pc, m.from, m.to):
			fail("%c%c cannot move that way", pc.c, pc.r)
		}
		if c := mColourOf(m.to); c != 0 && (c == pc.c || (mid.at(mTwin(m.to)).c != 0 && mTwin(m.to) != m.from)) {
			fail("lands on a square of colour %c that it may not occupy", c)
		}
		if pc.r == 'p' && mInZone(m.to) != (m.promo != 0) || pc.r != 'p' && m.promo != 0 || m.promo == 'p' {
			fail("promotion %q of %c%c to %v", m.promo, pc.c, pc.r, m.to)
		}
		next.apply(m, pl)
	}
	next.turn = 1 - pl
	if next.board != after.board || next.owned != after.owned || after.turn != next.turn {
		fail("the rules record %v, the model gives %v", after, next)
	}
	if after.inCheck(pl) {
		fail("leaves the mover's own king attacked")
	}
	for q := range 2 {
		if k := after.kings(after.owned[q]); len(k) != 1 {
			fail("player %d has %d kings of its colour %c", q, len(k), after.owned[q])
		}
	}
	nk := 0
	for x := range 16 {
		for y := range 16 {
			pc := after.board[x][y]
			if pc.r == 'k' {
				nk++
			}
			if pc.r == 'p' && mInZone(mSq{x, y}) {
				fail("a pawn stands in the centre")
			}
		}
	}
	if nk != 2 {
		fail("%d kings on the board", nk)
	}

	for c, names := range mColourSquares {
		a, _ := mSquare(names[0])
		b, _ := mSquare(names[1])
		if after.at(a).c != 0 && after.at(b).c != 0 {
			fail("both squares of colour %c are occupied", c)
		}
	}
	return captured
}

// offered checks what the model can tell of every move listed as legal without playing
// it: the mover controls what it moves or the colour it defects to, and takes no king.
func (p mPos) offered(t *testing.T, ctx string, moves []string) {
	t.Helper()
	pl, ctl := p.turn, p.control()
	for _, notation := range moves {
		m := mReadMove(t, notation)
		if m.defect != 0 && (!controlledBy(ctl, m.defect, pl) || m.defect == p.owned[pl]) {
			t.Fatalf("%s: %s offered: the mover does not control %c", ctx, notation, m.defect)
		}
		if !m.step {
			continue
		}
		pc, victim := p.at(m.from), p.at(m.to)
		if m.defect == 0 && !controlledBy(ctl, pc.c, pl) || m.defect != 0 && pc != (mPiece{p.owned[pl], 'k'}) {
			t.Fatalf("%s: %s offered: the mover may not move %c%c", ctx, notation, pc.c, pc.r)
		}
		if victim.r == 'k' && !m.castle {
			t.Fatalf("%s: %s offered: it captures a king in a two-player game", ctx, notation)
		}
	}
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

// checkCastling checks a castling (rule 14 and section 8): a king on an edge, the empty
// squares between it and a rook the player controls, the king stopping on one of them,
// neither moving more than eight squares; not out of, through or into check.
func (m mMove) checkCastling(fail func(string, ...any), p *mPos, ctl map[byte]int, pl int, king mPiece) {
	if king.r != 'k' {
		fail("castling without the king")
	}
	dx, dy := sign(m.to.x-m.from.x), sign(m.to.y-m.from.y)
	if dx != 0 && dy != 0 {
		fail("castling off a line")
	}
	s := m.from
	for {
		if p.attacked(s, 1-pl, ctl) {
			fail("castling out of, through or into check at %v", s)
		}
		if s == m.to {
			break
		}
		s = mSq{s.x + dx, s.y + dy}
		if p.at(s).c != 0 {
			fail("castling over a piece")
		}
	}
	r := mSq{m.to.x + dx, m.to.y + dy}
	for p.at(r).c == 0 {
		r = mSq{r.x + dx, r.y + dy}
	}
	rook := p.at(r)
	if rook.r != 'r' || !controlledBy(ctl, rook.c, pl) {
		fail("castling with %c%c, not a rook the player controls", rook.c, rook.r)
	}
	if max(mAbs(m.to.x-m.from.x), mAbs(m.to.y-m.from.y)) > 8 || max(mAbs(r.x-m.to.x), mAbs(r.y-m.to.y))-1 > 8 {
		fail("castling over more than eight squares")
	}
}

// apply plays the step of m (a defection is already made) by player pl.
func (p *mPos) apply(m mMove, pl int) {
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
		return
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
}

// TestModelPlayouts plays seeded random two-player games through Decide, Audit and
// Evolve and checks every move against the model. The moves are drawn among those Board
// lists, uniformly in odd games, and in even games with defections, promotions and
// castlings favoured so that the rules they bring come up within a few hundred plies.
func TestModelPlayouts(t *testing.T) {
	// A few seconds by default; SOVEREIGN_MODEL_GAMES=300 for a long run (the defection
	// that took a king came up in game 97 of 300).
	games, long := longtest.Games(t, "SOVEREIGN_MODEL_GAMES", 6, 24)
	plies := 300
	if long {
		plies = 1000
	}
	total, offered, seen := 0, 0, map[string]int{}
	for g := range games {
		st, started := seeded(t, nil, fmt.Sprintf("model-%d", g))
		rng := rand.New(rand.NewPCG(uint64(g), 0x50e))
		cur := started.Position
		for ply := 0; ply < plies; ply++ {
			status := r.Status(st)
			if status.Over {
				break
			}
			seat := status.ToAct[0]
			var do any
			if len(status.Choices) > 0 {
				do = game.Choose{Option: status.Choices[rng.IntN(len(status.Choices))]}
			} else {
				moves := r.Board(st).LegalMoves
				mParse(t, cur).offered(t, fmt.Sprintf("game %d ply %d from %s", g, ply, cur), moves)
				offered += len(moves)
				do = game.Move{Notation: pickModelMove(rng, moves, g%2 == 0)}
			}
			var evs []game.Event
			st, evs = act(t, st, seat, do)
			for _, e := range evs {
				ctx := fmt.Sprintf("game %d ply %d from %s", g, ply, cur)
				switch e := e.(type) {
				case MovePlayed:
					if mParse(t, cur).check(t, ctx, e.Move, mParse(t, e.Position)) {
						seen["capture"]++
					}
					cur = e.Position
					total++
					seen[moveKind(e.Move)]++
				case KingCaptured, InterregnumBegun, KingEscaped, ChecksAnnounced, PlayerWithdrew:
					t.Fatalf("%s: %s in a two-player game", ctx, e.EventType())
				case GameEnded:
					loser := mParse(t, cur)
					switch check := loser.inCheck(loser.turn); {
					case e.Reason == "checkmate" && !check, e.Reason == "stalemate" && check:
						t.Fatalf("%s: %s with the king in check %v", ctx, e.Reason, check)
					}
					seen["end: "+e.Reason]++
				}
			}
		}
	}
	t.Logf("%d games, %d moves played and %d offered checked against the model: %v", games, total, offered, seen)
	for _, k := range []string{"defection", "promotion", "capture"} {
		if seen[k] == 0 && !testing.Short() {
			t.Errorf("the playouts never met a %s", k)
		}
	}
}

// pickModelMove draws a move: uniformly, or when favour is set a regime change or a
// castling half the time when there is one.
func pickModelMove(rng *rand.Rand, moves []string, favour bool) string {
	var rare []string
	for _, m := range moves {
		if k := moveKind(m); k == "defection" || k == "promotion" || k == "castling" {
			rare = append(rare, m)
		}
	}
	if favour && len(rare) > 0 && rng.IntN(2) == 0 {
		return rare[rng.IntN(len(rare))]
	}
	return moves[rng.IntN(len(moves))]
}

func moveKind(m string) string {
	switch last := m[len(m)-1]; {
	case m[0] == '=':
		return "defection"
	case last == 'O':
		return "castling"
	case last >= 'a' && last <= 'z':
		return "promotion"
	}
	return "move"
}
