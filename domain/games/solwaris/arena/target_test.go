package arena

import (
	"encoding/json"
	"errors"
	"testing"
)

// checkTargets: '@' casts r; the cells marked '*' are exactly its targets.
func checkTargets(t *testing.T, name string, r Range, picture string) {
	t.Helper()
	g, marks := position(t, picture)
	from := one(t, marks, '@')
	got := g.Targets(from, r)
	if !sameCells(got, marks['*']) {
		m := map[Cell]byte{from: '@'}
		for _, c := range got {
			m[c] = '*'
		}
		t.Errorf("%s: targets\n%swant %s", name, draw(g, m), names(marks['*']))
	}
	for _, c := range g.Playable() {
		in := false
		for _, w := range marks['*'] {
			in = in || w == c
		}
		if g.CanTarget(from, c, r) != in {
			t.Errorf("%s: CanTarget(%v) = %v", name, c, !in)
		}
	}
}

func TestTargets(t *testing.T) {
	// Range 2 to 3 with sight: c1 and b2 are behind the rock; the rock and void are
	// never targets; d3's neighbours are too close.
	checkTargets(t, "range 2-3, sight", Range{Min: 2, Max: 3, Sight: true}, `
		...**..
		..#.**.
		**.@.**
		.**.**.
		~~***..`)
	// The same without sight: the cells behind the rock come back.
	checkTargets(t, "range 2-3, no sight", Range{Min: 2, Max: 3}, `
		..***..
		.*#.**.
		**.@.**
		.**.**.
		~~***..`)
	// In a straight line, with sight: the rock on the row hides what lies past it, the
	// void on the column does not.
	checkTargets(t, "straight 1-3, sight", Range{Min: 1, Max: 3, Straight: true, Sight: true}, `
		...*...
		...~...
		***@*#.
		...*...
		...*...`)
	checkTargets(t, "straight 1-3, no sight", Range{Min: 1, Max: 3, Straight: true}, `
		...*...
		...~...
		***@*#*
		...*...
		...*...`)
	// Range 0: the caster's own cell, and nothing else.
	g, _ := position(t, "...")
	if got := g.Targets(Cell{1, 0}, Range{}); names(got) != "b1" {
		t.Errorf("range 0 targets %s", names(got))
	}
	if len(g.Targets(Cell{5, 5}, Range{Max: 9})) != 0 || len(g.Targets(Cell{1, 0}, Range{Min: 3, Max: 2})) != 0 {
		t.Error("a caster off the arena, or an empty range, targets nothing")
	}
}

// checkArea: '@' casts shape s on target; '*' marks exactly the cells covered.
func checkArea(t *testing.T, s Shape, target string, picture string) {
	t.Helper()
	g, marks := position(t, picture)
	from := one(t, marks, '@')
	to, err := g.ParseCell(target)
	if err != nil {
		t.Fatal(err)
	}
	got := g.Area(s, from, to)
	if !sameCells(got, marks['*']) {
		m := map[Cell]byte{from: '@'}
		for _, c := range got {
			m[c] = '*'
		}
		t.Errorf("%v %d on %s: covers\n%swant %s", s.Kind, s.Size, target, draw(g, m), names(marks['*']))
	}
}

func TestAreas(t *testing.T) {
	checkArea(t, Shape{Single, 3}, "c2", `
		@....
		..*..`)
	// A cross of 2 on d4, clipped: the rock and the void drop out, the cell beyond the
	// rock does not.
	checkArea(t, Shape{Cross, 2}, "d4", `
		@......
		...*...
		...#...
		.*****~
		...*...
		...*...
		.......`)
	checkArea(t, Shape{XCross, 1}, "a1", `
		*...@
		.*...
		.....`)
	checkArea(t, Shape{XCross, 1}, "b2", `
		*.*..
		.*...
		*.*.@`)
	checkArea(t, Shape{Circle, 2}, "d3", `
		...*...
		..***..
		.**#**.
		..*~*..
		...*..@`)
	checkArea(t, Shape{Square, 1}, "b2", `
		***..
		***..
		***.@`)
	checkArea(t, Shape{Ring, 1}, "c2", `
		..*..
		.*.*.
		..*.@`)
	// A line: the target and 3 cells beyond it in the cast direction (east here, the
	// larger gap), through a rock it skips.
	checkArea(t, Shape{Line, 3}, "c3", `
		.......
		.......
		..*#**.
		@......`)
	checkArea(t, Shape{Line, 3}, "b2", `
		.*.
		.*.
		.@.
		...`)
	// Across the cast direction: a barrier of 1 on each side of the target.
	checkArea(t, Shape{Bar, 1}, "c2", `
		.....
		.***.
		.....
		..@..`)
	checkArea(t, Shape{Bar, 2}, "a2", `
		*....
		*...@
		*....
		*....
		.....`)
	// No direction on one's own cell: the target alone.
	g, _ := position(t, "....")
	if got := g.Area(Shape{Line, 4}, Cell{1, 0}, Cell{1, 0}); names(got) != "b1" {
		t.Errorf("a line on one's own cell covers %s", names(got))
	}
}

func TestShapeNames(t *testing.T) {
	for k := Single; k <= Bar; k++ {
		b, err := json.Marshal(Shape{Kind: k, Size: 2})
		if err != nil {
			t.Fatal(err)
		}
		var back Shape
		if err := json.Unmarshal(b, &back); err != nil || back != (Shape{k, 2}) {
			t.Errorf("%s: %s reads back as %v, %v", k, b, back, err)
		}
	}
	var s Shape
	if err := json.Unmarshal([]byte(`{"kind":"blob"}`), &s); !errors.Is(err, ErrUnknownShape) {
		t.Errorf("an unknown shape: %v", err)
	}
}

func TestPush(t *testing.T) {
	cases := []struct {
		name    string
		picture string
		d       Dir
		n       int
		path    string
		missed  int
		stop    Stop
		struck  Cell
	}{
		{"free run", `>....`, East, 3, "b1 c1 d1", 0, NotStopped, Cell{}},
		{"against a rock", `.>..#.`, East, 4, "c1 d1", 2, ByObstacle, Cell{4, 0}},
		{"against an entity", `>.+.`, East, 2, "b1", 1, ByEntity, Cell{2, 0}},
		{"against the edge", `..>`, East, 2, "", 2, ByEdge, Cell{3, 0}},
		{"into the void", `>.~.`, East, 3, "b1", 2, ByVoid, Cell{2, 0}},
		{"north against the edge", ".\n>", North, 3, "a1", 2, ByEdge, Cell{0, -1}},
		{"a wall of two", "..\nww\n>.", North, 1, "", 1, ByObstacle, Cell{0, 1}},
		// A pull towards the caster ('+') stops against the caster.
		{"pull", `+...>`, West, 5, "d1 c1 b1", 2, ByEntity, Cell{0, 0}},
		{"no push", `>.`, East, 0, "", 0, NotStopped, Cell{}},
	}
	for _, c := range cases {
		g, marks := position(t, c.picture)
		from := one(t, marks, '>')
		p := g.Push(from, c.d, c.n, append(marks['+'], from))
		if names(p.Path) != c.path || p.Missed != c.missed || p.Stop != c.stop || p.Struck != c.struck {
			t.Errorf("%s: %+v (path %s), want path %q missed %d by %v at %v",
				c.name, p, names(p.Path), c.path, c.missed, c.stop, c.struck)
		}
	}
}

// On every map, the targets of the eight benchmark spells from every fifth free cell
// are exactly the free cells that pass each condition checked one by one, sight walked
// rather than read from the table.
func TestTargetsOnEveryMap(t *testing.T) {
	for _, m := range Maps() {
		for k := 0; k < len(m.Playable()); k += 5 {
			from := m.Playable()[k]
			for _, r := range eightSpells {
				var want []Cell
				for _, c := range m.Playable() {
					d := Distance(from, c)
					if d >= r.Min && d <= r.Max && (!r.Straight || Straight(from, c)) && (!r.Sight || m.sightWalk(from, c)) {
						want = append(want, c)
					}
				}
				if got := m.Targets(from, r); !sameCells(got, want) {
					t.Fatalf("%s: %+v from %v: %s, want %s", m.ID, r, from, names(got), names(want))
				}
			}
		}
	}
}
