package sovereign

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"
	"testing"
)

// A deliberately naive reference generator, sharing nothing with the fast one but the
// notation: a [x][y] board, control recomputed by iterating to a fixpoint, moves written
// straight from the rulebook's words with coordinates and float distances, check found by
// generating every opponent capture, and legality by make-and-test on a fresh copy.

type refPos struct {
	b       [16][16]Piece
	owned   []Colour
	turn    int
	unmoved map[[2]int]bool // squares of unmoved rooks and kings
	escaped []bool
}

func refFrom(p Position) *refPos {
	r := &refPos{owned: make([]Colour, p.Players()), turn: int(p.Turn()), unmoved: map[[2]int]bool{}, escaped: make([]bool, p.Players())}
	for x := 0; x < 16; x++ {
		for y := 0; y < 16; y++ {
			r.b[x][y] = p.PieceAt(SquareAt(x, y))
			if p.isUnmoved(SquareAt(x, y)) {
				r.unmoved[[2]int{x, y}] = true
			}
		}
	}
	for pl := range r.owned {
		r.owned[pl] = p.Owned(Player(pl))
		r.escaped[pl] = p.Escaped(Player(pl))
	}
	return r
}

func (r *refPos) clone() *refPos {
	c := *r
	c.owned = append([]Colour(nil), r.owned...)
	c.escaped = append([]bool(nil), r.escaped...)
	c.unmoved = map[[2]int]bool{}
	for k, v := range r.unmoved {
		c.unmoved[k] = v
	}
	return &c
}

var refColourSquares = map[[2]int]Colour{}

func init() {
	for c, names := range colourSquareNames {
		for _, n := range names {
			refColourSquares[[2]int{int(n[0] - 'a'), atoi(n[1:]) - 1}] = Colour(c)
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func refSquareColour(x, y int) (Colour, bool) {
	c, ok := refColourSquares[[2]int{x, y}]
	return c, ok
}

func refTwin(x, y int) (int, int) { return 15 - x, 15 - y }

// control: a map colour -> player, by repeated passes until nothing changes.
func (r *refPos) control() map[Colour]int {
	ctl := map[Colour]int{}
	owner := map[Colour]int{}
	for pl, c := range r.owned {
		ctl[c], owner[c] = pl, pl
	}
	for changed := true; changed; {
		changed = false
		for sq, c := range refColourSquares {
			pc := r.b[sq[0]][sq[1]]
			if pc == 0 {
				continue
			}
			if _, done := ctl[c]; done {
				continue
			}
			if pl, ok := ctl[pc.Colour()]; ok {
				if _, own := owner[c]; !own {
					ctl[c] = pl
					changed = true
				}
			}
		}
	}
	return ctl
}

func refName(x, y int) string { return fmt.Sprintf("%c%d", 'a'+x, y+1) }

func refKing(r *refPos, pl int) (int, int, bool) {
	for x := 0; x < 16; x++ {
		for y := 0; y < 16; y++ {
			if pc := r.b[x][y]; pc.Role() == King && pc.Colour() == r.owned[pl] {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}

type refMove struct {
	fx, fy, tx, ty int
	promo          Role
	castle         bool
	defect         Colour
	hasDefect      bool
	step           bool
}

func (m refMove) String() string {
	s := ""
	if m.hasDefect {
		s = "=" + string(m.defect.Letter())
	}
	if m.step {
		s += refName(m.fx, m.fy) + refName(m.tx, m.ty)
		if m.promo != NoRole {
			s += string(m.promo.Letter())
		}
		if m.castle {
			s += "O"
		}
	}
	return s
}

// canLand: rules 5 and 13, with the decision that a piece may go straight to the twin.
func (r *refPos) canLand(c Colour, fx, fy, tx, ty int) bool {
	sc, ok := refSquareColour(tx, ty)
	if !ok {
		return true
	}
	if sc == c {
		return false
	}
	wx, wy := refTwin(tx, ty)
	return r.b[wx][wy] == 0 || (wx == fx && wy == fy)
}

func dist(v int) float64 { return math.Abs(float64(v) - 7.5) }

func towardLines(x, y, nx, ny int) bool { return dist(nx) < dist(x) || dist(ny) < dist(y) }

func inside(x, y int) bool { return x >= 0 && y >= 0 && x < 16 && y < 16 }

// pieceMoves lists the moves of the piece on (x, y) for player pl, captures only of
// pieces another player controls.
func (r *refPos) pieceMoves(pl, x, y int, ctl map[Colour]int) []refMove {
	pc := r.b[x][y]
	c := pc.Colour()
	var out []refMove
	enemy := func(q Piece) bool {
		o, ok := ctl[q.Colour()]
		return ok && o != pl
	}
	try := func(tx, ty int, capture, quiet bool) bool { // reports whether the square was empty
		if !inside(tx, ty) {
			return false
		}
		q := r.b[tx][ty]
		if q != 0 && !(capture && enemy(q)) {
			return false
		}
		if q == 0 && !quiet {
			return true
		}
		if r.canLand(c, x, y, tx, ty) {
			if pc.Role() == Pawn && tx >= 6 && tx <= 9 && ty >= 6 && ty <= 9 {
				for _, pr := range []Role{Queen, Rook, Bishop, Knight, King} {
					out = append(out, refMove{fx: x, fy: y, tx: tx, ty: ty, promo: pr, step: true})
				}
			} else {
				out = append(out, refMove{fx: x, fy: y, tx: tx, ty: ty, step: true})
			}
		}
		return q == 0
	}
	all := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	switch pc.Role() {
	case King:
		for _, d := range all {
			try(x+d[0], y+d[1], true, true)
		}
	case Knight:
		for _, d := range [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
			try(x+d[0], y+d[1], true, true)
		}
	case Queen, Rook, Bishop:
		for i, d := range all {
			if (pc.Role() == Rook && i >= 4) || (pc.Role() == Bishop && i < 4) {
				continue
			}
			for k := 1; k <= 8 && try(x+k*d[0], y+k*d[1], true, true); k++ {
			}
		}
	case Pawn:
		for i, d := range all {
			nx, ny := x+d[0], y+d[1]
			if !inside(nx, ny) || !towardLines(x, y, nx, ny) {
				continue
			}
			if i < 4 {
				try(nx, ny, false, true)
			} else {
				try(nx, ny, true, false)
			}
		}
		// Rings 1 and 2: two squares away from the closest edge(s).
		ex, ey := min(x, 15-x), min(y, 15-y)
		if min(ex, ey) <= 1 {
			var ds [][2]int
			sx, sy := 1, 1
			if x >= 8 {
				sx = -1
			}
			if y >= 8 {
				sy = -1
			}
			if ex <= ey {
				ds = append(ds, [2]int{sx, 0})
			}
			if ey <= ex {
				ds = append(ds, [2]int{0, sy})
			}
			for _, d := range ds {
				if r.b[x+d[0]][y+d[1]] == 0 {
					try(x+2*d[0], y+2*d[1], false, true)
				}
			}
		}
	}
	return out
}

// attacked: could any piece another player controls capture a piece of player pl on (x, y)?
func (r *refPos) attacked(pl, x, y int) bool {
	t := r.clone()
	if t.b[x][y] == 0 {
		t.b[x][y] = NewPiece(t.owned[pl], King) // a stand-in to be captured
	}
	ctl := t.control()
	for ax := 0; ax < 16; ax++ {
		for ay := 0; ay < 16; ay++ {
			pc := t.b[ax][ay]
			o, ok := ctl[pc.Colour()]
			if pc == 0 || !ok || o == pl {
				continue
			}
			for _, m := range t.pieceMoves(o, ax, ay, ctl) {
				if m.tx == x && m.ty == y {
					return true
				}
			}
		}
	}
	return false
}

func (r *refPos) inCheck(pl int) bool {
	x, y, ok := refKing(r, pl)
	return ok && r.attacked(pl, x, y)
}

func (r *refPos) clearEdgeRights(x, y int) {
	for k := range r.unmoved {
		if ((y == 0 || y == 15) && k[1] == y) || ((x == 0 || x == 15) && k[0] == x) || (k[0] == x && k[1] == y) {
			delete(r.unmoved, k)
		}
	}
}

func (r *refPos) removeKing(pl int) {
	if x, y, ok := refKing(r, pl); ok {
		if r.unmoved[[2]int{x, y}] {
			r.clearEdgeRights(x, y)
		}
		r.b[x][y] = 0
	}
}

func (r *refPos) play(m refMove) {
	pl := r.turn
	if m.hasDefect {
		x, y, _ := refKing(r, pl)
		r.b[x][y] = NewPiece(m.defect, King)
		r.owned[pl] = m.defect
	}
	if m.step {
		pc := r.b[m.fx][m.fy]
		if m.castle {
			dx, dy := sign(m.tx-m.fx), sign(m.ty-m.fy)
			rx, ry := m.tx+dx, m.ty+dy
			for r.b[rx][ry] == 0 {
				rx, ry = rx+dx, ry+dy
			}
			rook := r.b[rx][ry]
			r.b[rx][ry], r.b[m.fx][m.fy] = 0, 0
			r.b[m.tx][m.ty], r.b[m.tx-dx][m.ty-dy] = pc, rook
			r.clearEdgeRights(m.fx, m.fy)
			delete(r.unmoved, [2]int{rx, ry})
		} else {
			if q := r.b[m.tx][m.ty]; q.Role() == King {
				for o, c := range r.owned {
					if c == q.Colour() {
						r.removeKing(o)
						r.escaped[o] = false
					}
				}
			}
			if pc.Role() == King && r.unmoved[[2]int{m.fx, m.fy}] {
				r.clearEdgeRights(m.fx, m.fy)
			}
			if m.promo == King {
				r.removeKing(pl)
				r.owned[pl] = pc.Colour()
				r.escaped[pl] = false
			}
			r.b[m.fx][m.fy] = 0
			if m.promo != NoRole {
				pc = NewPiece(pc.Colour(), m.promo)
			}
			r.b[m.tx][m.ty] = pc
			delete(r.unmoved, [2]int{m.fx, m.fy})
			delete(r.unmoved, [2]int{m.tx, m.ty})
		}
	}
	r.turn = (r.turn + 1) % len(r.owned)
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// pseudo lists every move of the player to move, the own-king rule aside.
func (r *refPos) pseudo() []refMove {
	pl := r.turn
	ctl := r.control()
	var out []refMove
	for x := 0; x < 16; x++ {
		for y := 0; y < 16; y++ {
			if pc := r.b[x][y]; pc != 0 {
				if o, ok := ctl[pc.Colour()]; ok && o == pl {
					out = append(out, r.pieceMoves(pl, x, y, ctl)...)
				}
			}
		}
	}
	kx, ky, ok := refKing(r, pl)
	if !ok {
		return out
	}
	// Castling: along each edge the king stands on, towards an unmoved controlled rook.
	if r.unmoved[[2]int{kx, ky}] {
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			if (d[1] == 0 && ky != 0 && ky != 15) || (d[0] == 0 && kx != 0 && kx != 15) {
				continue
			}
			n := 1
			for inside(kx+n*d[0], ky+n*d[1]) && r.b[kx+n*d[0]][ky+n*d[1]] == 0 {
				n++
			}
			rx, ry := kx+n*d[0], ky+n*d[1]
			if !inside(rx, ry) || n == 1 || !r.unmoved[[2]int{rx, ry}] || r.b[rx][ry].Role() != Rook {
				continue
			}
			if o, ok := ctl[r.b[rx][ry].Colour()]; !ok || o != pl {
				continue
			}
			for k := 1; k < n; k++ {
				if k <= 8 && n-k+1 <= 8 {
					out = append(out, refMove{fx: kx, fy: ky, tx: kx + k*d[0], ty: ky + k*d[1], castle: true, step: true})
				}
			}
		}
	}
	// Defections, with the forced king move when the king stands on its new colour.
	for c := Colour(0); c < 12; c++ {
		if o, ok := ctl[c]; !ok || o != pl || c == r.owned[pl] {
			continue
		}
		if sc, ok := refSquareColour(kx, ky); ok && sc == c {
			mid := r.clone()
			mid.b[kx][ky] = NewPiece(c, King)
			mid.owned[pl] = c
			for _, m := range mid.pieceMoves(pl, kx, ky, mid.control()) {
				m.hasDefect, m.defect = true, c
				out = append(out, m)
			}
			continue
		}
		out = append(out, refMove{hasDefect: true, defect: c})
	}
	return out
}

func (r *refPos) legal() []string {
	pl := r.turn
	var out []string
	royale := len(r.owned) == 4
	kings := 0
	for o := range r.owned {
		if _, _, ok := refKing(r, o); ok {
			kings++
		}
	}
	if royale && kings <= 1 {
		return nil
	}
	pseudo := r.pseudo()
	safe := 0
	for _, m := range pseudo {
		if m.castle && !royale {
			bad := false
			for k := 0; ; k++ {
				x, y := m.fx+k*sign(m.tx-m.fx), m.fy+k*sign(m.ty-m.fy)
				if r.attacked(pl, x, y) {
					bad = true
				}
				if x == m.tx && y == m.ty {
					break
				}
			}
			if bad {
				continue
			}
		}
		c := r.clone()
		c.play(m)
		ok := !c.inCheck(pl)
		if _, _, has := refKing(c, pl); !has && !royale {
			ok = false
		}
		if !royale { // no king is ever captured in the two-player game
			_, _, had := refKing(r, 1-pl)
			if _, _, has := refKing(c, 1-pl); had && !has {
				ok = false
			}
		}
		if ok {
			safe++
		}
		if ok || royale {
			out = append(out, m.String())
		}
	}
	if royale {
		if _, _, has := refKing(r, pl); has && !r.inCheck(pl) && safe == 0 {
			return []string{"escape"}
		}
		if len(out) == 0 {
			return []string{"pass"}
		}
	}
	sort.Strings(out)
	return out
}

func fastLegal(p Position) []string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		out = append(out, m.String())
	}
	sort.Strings(out)
	return out
}

func refPerft(r *refPos, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, s := range r.legal() {
		c := r.clone()
		c.play(refParse(r, s))
		n += refPerft(c, depth-1)
	}
	return n
}

// refParse finds the move s among the reference's own pseudo-legal moves.
func refParse(r *refPos, s string) refMove {
	switch s {
	case "escape":
		return refMove{}
	case "pass":
		return refMove{}
	}
	for _, m := range r.pseudo() {
		if m.String() == s {
			return m
		}
	}
	panic("reference: no move " + s)
}

func TestReferencePerftStart(t *testing.T) {
	depth := 3
	if testing.Short() {
		depth = 2
	}
	r := refFrom(StartPosition())
	for d := 1; d <= depth; d++ {
		if got, want := Perft(StartPosition(), d), refPerft(r, d); got != want {
			t.Errorf("perft(%d) = %d, reference %d", d, got, want)
		}
	}
}

// TestReferenceRandomPlayouts compares the move lists of both generators along seeded
// random games, two-player and Royale, and counts the kinds of moves met on the way so
// that a change which stops reaching defections or promotions shows.
func TestReferenceRandomPlayouts(t *testing.T) {
	games, plies := 12, 160
	if testing.Short() {
		games = 3
	}
	seen := map[string]int{}
	for g := 0; g < games; g++ {
		rng := rand.New(rand.NewSource(int64(g)))
		p := StartPosition()
		if g%3 == 2 {
			p = RoyaleStartPosition()
		}
		for ply := 0; ply < plies; ply++ {
			want := refFrom(p).legal()
			got := fastLegal(p)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("game %d ply %d %s\nfast %v\nref  %v", g, ply, p.Notation(), diff(got, want), diff(want, got))
			}
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			m := pickMove(rng, p, moves)
			note(seen, p, m)
			p.Play(m)
			if back, err := Parse(p.Notation()); err != nil || back.Notation() != p.Notation() {
				t.Fatalf("%s does not round-trip: %v", p.Notation(), err)
			}
		}
	}
	t.Logf("moves met: %v", seen)
	for _, k := range []string{"capture", "defection", "promotion", "king promotion", "colour square"} {
		if seen[k] == 0 && !testing.Short() {
			t.Errorf("the playouts never met a %s", k)
		}
	}
}

// pickMove prefers captures, promotions and regime changes, so that random games reach
// the rules that matter within a few hundred plies.
func pickMove(rng *rand.Rand, p Position, moves []Move) Move {
	var rare, good []Move
	for _, m := range moves {
		_, d := m.Defection()
		switch {
		case d || m.Promotion() != NoRole || m.IsCastling():
			rare = append(rare, m)
		case p.PieceAt(m.From()).Role() == Pawn || squareColour[m.To()] != NoColour || p.PieceAt(m.To()) != 0:
			good = append(good, m)
		}
	}
	switch {
	case len(rare) > 0 && rng.Intn(2) == 0:
		return rare[rng.Intn(len(rare))]
	case len(good) > 0 && rng.Intn(2) == 0:
		return good[rng.Intn(len(good))]
	}
	return moves[rng.Intn(len(moves))]
}

func note(seen map[string]int, p Position, m Move) {
	if m.HasStep() && p.PieceAt(m.To()) != 0 && !m.IsCastling() {
		seen["capture"]++
	}
	if _, d := m.Defection(); d {
		seen["defection"]++
	}
	switch m.Promotion() {
	case NoRole:
	case King:
		seen["king promotion"]++
	default:
		seen["promotion"]++
	}
	if m.IsCastling() {
		seen["castling"]++
	}
	if m.IsEscape() {
		seen["escape"]++
	}
	if m.HasStep() && squareColour[m.To()] != NoColour {
		seen["colour square"]++
	}
}

func diff(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
}
