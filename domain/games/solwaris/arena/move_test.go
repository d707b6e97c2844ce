package arena

import (
	"errors"
	"testing"
)

// The cells a fighter on '@' reaches with 3 MP, each drawn with its cost; '+' is an
// entity: it blocks the way but not the cells behind it, which are reached around it.
const walk = `
	~~323.
	.#2123
	#21@+.
	.32123
	..3#3.`

func TestReachable(t *testing.T) {
	g, marks := position(t, walk)
	from := one(t, marks, '@')
	blocked := append(marks['+'], from) // the mover's own cell is ignored
	want := map[Cell]byte{from: '@', marks['+'][0]: '+'}
	for ch := byte('1'); ch <= '9'; ch++ {
		for _, c := range marks[ch] {
			want[c] = ch
		}
	}
	steps := g.Reachable(from, 3, blocked)
	got := map[Cell]byte{from: '@', marks['+'][0]: '+'}
	for k, s := range steps {
		got[s.Cell] = byte('0' + s.Cost)
		if k > 0 && steps[k-1].Cost > s.Cost {
			t.Errorf("%v listed after the dearer %v", s, steps[k-1])
		}
	}
	if draw(g, got) != draw(g, want) {
		t.Errorf("reachable with 3 MP:\n%s\nwant\n%s", draw(g, got), draw(g, want))
	}
	if len(g.Reachable(from, 0, blocked)) != 0 || len(g.Reachable(Cell{-1, 0}, 3, nil)) != 0 {
		t.Error("no MP or no cell, no reach")
	}
	// Walled in on all sides by obstacles, void and entities: nowhere to go.
	g2, m2 := position(t, `
		.#.
		~@+
		.+.`)
	if s := g2.Reachable(one(t, m2, '@'), 6, m2['+']); len(s) != 0 {
		t.Errorf("a walled-in fighter reaches %v", s)
	}
}

func TestPath(t *testing.T) {
	g, marks := position(t, walk)
	from, blocked := one(t, marks, '@'), marks['+']
	// Around the entity, on the side found first (North before South).
	p, err := g.Path(from, Cell{5, 2}, blocked)
	if err != nil || names(p) != "d2 e2 f2 f3" {
		t.Errorf("path d3 to f3 = %s, %v; want d2 e2 f2 f3", names(p), err)
	}
	// Every reachable cell has a shortest path as long as its cost, which ValidatePath
	// accepts.
	for _, s := range g.Reachable(from, 20, blocked) {
		p, err := g.Path(from, s.Cell, blocked)
		if err != nil || len(p) != s.Cost || p[len(p)-1] != s.Cell {
			t.Fatalf("path to %v (cost %d) = %v, %v", s.Cell, s.Cost, p, err)
		}
		if err := g.ValidatePath(from, p, blocked); err != nil {
			t.Fatalf("the path to %v is refused: %v", s.Cell, err)
		}
	}
	if p, err := g.Path(from, from, blocked); err != nil || len(p) != 0 {
		t.Errorf("path to itself = %v, %v", p, err)
	}
	for _, to := range []Cell{{4, 2}, {1, 1}, {0, 0}, {9, 9}} { // entity, rock, void, off the arena
		if _, err := g.Path(from, to, blocked); !errors.Is(err, ErrNoPath) {
			t.Errorf("path to %v: %v, want ErrNoPath", to, err)
		}
	}
	g2, m2 := position(t, `
		@.#.
		..#.
		++#.`)
	if _, err := g2.Path(one(t, m2, '@'), Cell{3, 0}, m2['+']); !errors.Is(err, ErrNoPath) {
		t.Errorf("across a wall: %v, want ErrNoPath", err)
	}
}

func TestValidatePath(t *testing.T) {
	g, marks := position(t, walk)
	from := one(t, marks, '@') // d3
	blocked := append(marks['+'], from)
	cells := func(s ...string) []Cell {
		out := make([]Cell, len(s))
		for i, n := range s {
			c, err := g.ParseCell(n)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = c
		}
		return out
	}
	if err := g.ValidatePath(from, cells("d2", "d3", "c3", "b3", "b4"), blocked); err != nil {
		t.Errorf("a walk through its own start cell is refused: %v", err)
	}
	for _, c := range []struct {
		path []Cell
		step int
		want error
	}{
		{cells("e3"), 0, ErrBlocked},
		{cells("d2", "b2"), 1, ErrNotAdjacent},
		{cells("c2"), 0, ErrNotAdjacent},
		{cells("c3", "b3", "a3"), 2, ErrNotFree},
		{cells("d2", "d1", "c1", "b1"), 3, ErrNotFree},
		{cells("d4", "d5"), 1, ErrNotFree},
		{[]Cell{{3, 3}, {3, 4}, {3, 5}}, 1, ErrNotFree},
	} {
		err := g.ValidatePath(from, c.path, blocked)
		var pe *PathError
		if !errors.Is(err, c.want) || !errors.As(err, &pe) || pe.Step != c.step {
			t.Errorf("path %s: %v, want %v at step %d", names(c.path), err, c.want, c.step+1)
		}
	}
	if err := g.ValidatePath(from, nil, blocked); !errors.Is(err, ErrEmptyPath) {
		t.Errorf("empty path: %v", err)
	}
	if err := g.ValidatePath(from, []Cell{{3, 5}}, blocked); !errors.Is(err, ErrNotAdjacent) {
		t.Errorf("off the arena: %v", err)
	}
}

// On every map, from every 17th free cell with every 23rd free cell occupied: the cells
// Reachable lists with 6 MP are exactly those with a path of at most 6 steps, each at the
// cost of its shortest path, and every such path passes ValidatePath.
func TestMovementOnEveryMap(t *testing.T) {
	for _, m := range Maps() {
		var blocked []Cell
		for k := 0; k < len(m.Playable()); k += 23 {
			blocked = append(blocked, m.Playable()[k])
		}
		for k := 1; k < len(m.Playable()); k += 17 {
			from := m.Playable()[k]
			cost := map[Cell]int{}
			for _, s := range m.Reachable(from, 6, blocked) {
				cost[s.Cell] = s.Cost
			}
			for _, to := range m.Playable() {
				if to == from {
					continue
				}
				p, err := m.Path(from, to, blocked)
				c, listed := cost[to]
				switch {
				case err != nil && listed:
					t.Fatalf("%s: %v listed at cost %d from %v, but no path: %v", m.ID, to, c, from, err)
				case err == nil && len(p) <= 6 != listed:
					t.Fatalf("%s: %v is %d steps from %v; listed %v", m.ID, to, len(p), from, listed)
				case err == nil && listed && len(p) != c:
					t.Fatalf("%s: %v costs %d, its shortest path has %d steps", m.ID, to, c, len(p))
				}
				if err == nil {
					if err := m.ValidatePath(from, p, blocked); err != nil {
						t.Fatalf("%s: the path from %v to %v is refused: %v", m.ID, from, to, err)
					}
				}
			}
		}
	}
}
