package arena

import (
	"fmt"
	"strings"
	"testing"
)

// A position: '@' is the caster; every other free cell is marked by what the caster
// must see: '.' seen, 'x' not seen. Obstacles and void are drawn as in maps.
func checkSight(t *testing.T, name, picture string) {
	t.Helper()
	var from Cell
	var want []Cell // cells that must not be seen
	rows := strings.Split(strings.TrimSpace(picture), "\n")
	for y, row := range rows {
		row = strings.TrimSpace(row)
		for x := 0; x < len(row); x++ {
			switch row[x] {
			case '@':
				from = Cell{x, y}
			case 'x':
				want = append(want, Cell{x, y})
			}
		}
		rows[y] = strings.NewReplacer("@", ".", "x", ".").Replace(row)
	}
	g := mustGrid(t, strings.Join(rows, "\n"))
	hidden := map[Cell]bool{}
	for _, c := range want {
		hidden[c] = true
	}
	var got strings.Builder
	wrong := false
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			c := Cell{x, y}
			ch := g.text[y*g.w+x]
			if c == from {
				ch = '@'
			} else if g.Free(c) {
				seen := g.Sight(from, c)
				if seen {
					ch = '.'
				} else {
					ch = 'x'
				}
				if seen == hidden[c] {
					wrong = true
				}
			}
			got.WriteByte(ch)
		}
		got.WriteByte('\n')
	}
	if wrong {
		t.Errorf("%s: sight differs; got\n%s", name, got.String())
	}
}

func TestSightPositions(t *testing.T) {
	// One rock. f3 is seen: its segment crosses row 4 exactly at the corner c4/b3 and
	// grazes the rock at that corner without entering it; b1 likewise at the corner of
	// a3/b3. b2 and c3 are hidden: their segments enter the rock.
	checkSight(t, "one rock", `
		..xxxx
		.xxxxx
		.#x...
		@.....`)
	// Through a corner between two obstacles (a2 and b3 meet at the corner through which
	// a3 would see b2 and c1): hidden. The same corner with one obstacle: seen.
	checkSight(t, "corner between two obstacles", `
		xxx
		#xx
		@#x`)
	checkSight(t, "corner of one obstacle", `
		xx.
		#..
		@..`)
	checkSight(t, "diagonal neighbours", `
		#x
		@#`)
	// Void never blocks: one sees across a precipice.
	checkSight(t, "across the void", `
		@~~~.
		.~~~.
		.....`)
	// A wall of two: g3 is seen past the corner of e3, f3 is not.
	checkSight(t, "wall", `
		.....xx
		....xxx
		...wwx.
		.......
		@......`)
}

// The walk in Sight, and the table built from it, against the definition read
// independently: for every pair of free cells of every map, each cell of their bounding
// box is tested for an open intersection with the segment in exact rational arithmetic,
// and every lattice point on the segment for the corner rule.
func TestSightMatchesTheDefinition(t *testing.T) {
	for _, m := range Maps() {
		cells := m.Playable()
		for _, a := range cells {
			for _, b := range cells {
				walk, table, slow := m.sightWalk(a, b), m.Sight(a, b), slowSight(m.Grid, a, b)
				if walk != slow || table != slow {
					t.Fatalf("%s: Sight(%v, %v) walks to %v, reads %v in the table, the definition says %v",
						m.ID, a, b, walk, table, slow)
				}
			}
		}
	}
	// Grids drawn to have many corners: a checkerboard of rocks and diagonal walls.
	for _, pic := range []string{checkerboard(9, 9), `
		.#.....#.
		..#...#..
		...#.#...
		.........
		...#.#...
		..#...#..
		.#.....#.`} {
		g := mustGrid(t, pic)
		for _, a := range g.allCells() {
			for _, b := range g.allCells() {
				if fast, slow := g.Sight(a, b), slowSight(g, a, b); fast != slow {
					t.Fatalf("Sight(%v, %v) = %v, the definition says %v in\n%s", a, b, fast, slow, g)
				}
			}
		}
	}
}

// allCells are all the cells of g, obstacles and void included (sight is defined
// between any two cells of the grid; only the cells between them matter).
func (g *Grid) allCells() []Cell {
	var out []Cell
	for i := 0; i < g.w*g.h; i++ {
		out = append(out, g.cell(i))
	}
	return out
}

func checkerboard(w, h int) string {
	var s strings.Builder
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if (x+y)%2 == 1 && x%3 != 0 {
				s.WriteByte('#')
			} else {
				s.WriteByte('.')
			}
		}
		s.WriteByte('\n')
	}
	return s.String()
}

// Symmetry on every pair of free cells of every map: nobody sees without being seen.
// The walk is checked (the table is filled from one direction of it).
func TestSightIsSymmetric(t *testing.T) {
	for _, m := range Maps() {
		cells := m.Playable()
		for i, a := range cells {
			if !m.Sight(a, a) {
				t.Fatalf("%s: %v does not see itself", m.ID, a)
			}
			for _, b := range cells[i+1:] {
				if m.sightWalk(a, b) != m.sightWalk(b, a) || m.Sight(a, b) != m.Sight(b, a) {
					t.Fatalf("%s: Sight(%v, %v) != Sight(%v, %v)", m.ID, a, b, b, a)
				}
			}
		}
	}
}

// Sight on every map is neither everything nor nothing, and neighbours always see each
// other (no cell between them).
func TestSightOnEveryMap(t *testing.T) {
	for _, m := range Maps() {
		seen, pairs := 0, 0
		for _, a := range m.Playable() {
			for d := North; d <= West; d++ {
				if n := a.Step(d); m.Free(n) && !m.Sight(a, n) {
					t.Errorf("%s: %v does not see its neighbour %v", m.ID, a, n)
				}
			}
			for _, b := range m.Playable() {
				pairs++
				if m.Sight(a, b) {
					seen++
				}
			}
		}
		share := float64(seen) / float64(pairs)
		t.Logf("%s: %.0f%% of pairs see each other", m.ID, 100*share)
		if seen == pairs {
			t.Errorf("%s: every cell sees every other: the obstacles do nothing", m.ID)
		}
	}
	m := Maps()[0]
	if m.Sight(Cell{-1, 0}, Cell{0, 0}) || m.Sight(m.Playable()[0], Cell{m.Width(), 0}) {
		t.Error("a cell off the arena sees nothing")
	}
	if (&Grid{}).In(Cell{}) {
		t.Error("an empty grid has no cell")
	}
}

// rat is an exact fraction num/den with den > 0, small enough for int64 products.
type rat struct{ num, den int64 }

func (a rat) less(b rat) bool { return a.num*b.den < b.num*a.den }

func ratMax(a, b rat) rat {
	if a.less(b) {
		return b
	}
	return a
}

func ratMin(a, b rat) rat {
	if a.less(b) {
		return a
	}
	return b
}

// openRange is the open interval of t in which p + t*d lies strictly between lo and hi
// (half-unit coordinates); all when d == 0 and p is inside, none when outside.
func openRange(p, d, lo, hi int64) (rat, rat, bool) {
	if d == 0 {
		return rat{-1, 1}, rat{2, 1}, lo < p && p < hi
	}
	t0, t1 := rat{lo - p, d}, rat{hi - p, d}
	if d < 0 {
		t0, t1 = rat{p - lo, -d}, rat{p - hi, -d}
		t0, t1 = t1, t0
	}
	return t0, t1, true
}

// slowSight applies the definition of the package comment literally, in coordinates of
// half cells (the centre of cell (x, y) is (2x+1, 2y+1), its inside the open square
// (2x, 2x+2) x (2y, 2y+2)).
func slowSight(g *Grid, a, b Cell) bool {
	ax, ay := int64(2*a.X+1), int64(2*a.Y+1)
	dx, dy := int64(2*(b.X-a.X)), int64(2*(b.Y-a.Y))
	inside := func(c Cell) bool { // does the segment, t in [0, 1], meet the open square?
		x0, x1, okx := openRange(ax, dx, int64(2*c.X), int64(2*c.X+2))
		y0, y1, oky := openRange(ay, dy, int64(2*c.Y), int64(2*c.Y+2))
		if !okx || !oky {
			return false
		}
		lo, hi := ratMax(x0, y0), ratMin(x1, y1)
		return lo.less(hi) && lo.less(rat{1, 1}) && (rat{0, 1}).less(hi)
	}
	obstacle := func(c Cell) bool { return g.Kind(c) == Obstacle }
	// Only the cells of the bounding box of a and b can meet the segment.
	x0, x1 := min(a.X, b.X), max(a.X, b.X)
	y0, y1 := min(a.Y, b.Y), max(a.Y, b.Y)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			c := Cell{x, y}
			if c != a && c != b && obstacle(c) && inside(c) {
				return false
			}
		}
	}
	// Lattice points (even coordinates) strictly inside the segment.
	for py := int64(2 * y0); py <= int64(2*y1+2); py += 2 {
		for px := int64(2 * x0); px <= int64(2*x1+2); px += 2 {
			ex, ey := px-ax, py-ay
			if ex*dy-ey*dx != 0 {
				continue
			}
			if dot := ex*dx + ey*dy; dot <= 0 || dot >= dx*dx+dy*dy {
				continue
			}
			i, j := int(px/2), int(py/2)
			var grazed []Cell
			for _, c := range []Cell{{i - 1, j - 1}, {i, j - 1}, {i - 1, j}, {i, j}} {
				if !inside(c) {
					grazed = append(grazed, c)
				}
			}
			if len(grazed) != 2 {
				panic(fmt.Sprintf("a corner grazes %d cells", len(grazed)))
			}
			if obstacle(grazed[0]) && obstacle(grazed[1]) {
				return false
			}
		}
	}
	return true
}
