package arena

import (
	"errors"
	"strings"
	"testing"
)

// The figures the rules fix, and the shapes issue 13 asks of the other maps.
func TestMapsAsTheRulesSay(t *testing.T) {
	if n := len(Maps()); n != 9 {
		t.Fatalf("%d maps, the rules rotate nine", n)
	}
	want := map[string]int{"caveau": 149, "grande-plaine": 476}
	for id, n := range want {
		m, err := ByID(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(m.Playable()); got != n {
			t.Errorf("%s has %d playable cells, the rules say %d", id, got, n)
		}
	}
	for _, id := range []string{"gouffre", "anneau"} {
		m, _ := ByID(id)
		if !hasInnerVoid(m.Grid) {
			t.Errorf("%s has no void inside the field (a precipice, a pit)", id)
		}
	}
	sizes := map[int]string{}
	for _, m := range Maps() {
		if other, ok := sizes[len(m.Playable())]; ok {
			t.Errorf("%s and %s have the same size", m.ID, other)
		}
		sizes[len(m.Playable())] = m.ID
		if m.Width() > 30 && m.ID != "grande-plaine" {
			t.Errorf("%s is wider than 30 cells: only the Grande Plaine is that wide", m.ID)
		}
	}
	if _, err := ByID("nowhere"); !errors.Is(err, ErrUnknownMap) {
		t.Errorf("ByID(nowhere) = %v, want ErrUnknownMap", err)
	}
}

// hasInnerVoid says whether some void cell is not connected (by sides, through void)
// to the edge of the grid: a hole in the field rather than its outline.
func hasInnerVoid(g *Grid) bool {
	outside := map[Cell]bool{}
	var stack []Cell
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			c := Cell{x, y}
			if (x == 0 || y == 0 || x == g.Width()-1 || y == g.Height()-1) && g.Kind(c) == Void {
				outside[c] = true
				stack = append(stack, c)
			}
		}
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := North; d <= West; d++ {
			n := c.Step(d)
			if g.In(n) && g.Kind(n) == Void && !outside[n] {
				outside[n] = true
				stack = append(stack, n)
			}
		}
	}
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			if c := (Cell{x, y}); g.Kind(c) == Void && !outside[c] {
				return true
			}
		}
	}
	return false
}

// Every map is fair: turned half a turn around its centre it is the same map with the
// zones swapped, so neither side starts with better ground.
func TestMapsAreFair(t *testing.T) {
	for _, m := range Maps() {
		w, h := m.Width(), m.Height()
		for _, c := range m.Playable() {
			r := Cell{w - 1 - c.X, h - 1 - c.Y}
			if !m.Free(r) {
				t.Errorf("%s: %s is free, its mirror %s is %s", m.ID, c, r, m.Kind(r))
			}
			s, ok := m.ZoneOf(c)
			rs, rok := m.ZoneOf(r)
			if ok != rok || ok && s == rs {
				t.Errorf("%s: zones at %s and its mirror %s do not swap", m.ID, c, r)
			}
		}
	}
}

// The rules name walls of two cells and vaults of four: the maps have both, and rocks.
func TestMapsHaveWallsAndVaults(t *testing.T) {
	sizes := map[int]int{}
	for _, m := range Maps() {
		for _, ob := range m.Obstacles() {
			sizes[len(ob)]++
		}
	}
	for _, n := range []int{1, 2, 4} {
		if sizes[n] == 0 {
			t.Errorf("no obstacle of %d cells on any map", n)
		}
	}
	t.Logf("obstacles by size: %v", sizes)
}

// The embedded file passes the checks of LoadMaps (it would panic at load otherwise);
// here every check is shown to refuse what it must.
func TestLoadMapsRefuses(t *testing.T) {
	header := "map m\nfr: M\nen: M\nplayable: %d\n\n"
	cases := []struct {
		name, text string
		want       error
	}{
		{"no map", "// nothing\n", ErrMapSyntax},
		{"unknown cell", "map m\nfr: M\nen: M\nplayable: 8\n\nAA..\nBB?.\n", ErrMapSyntax},
		{"ragged rows", strings.Replace(header, "%d", "9", 1) + "AAAA.\nBBBB\n", ErrMapSyntax},
		{"count", strings.Replace(header, "%d", "9", 1) + "AAAA\nBBBB\n", ErrPlayableCount},
		{"zones unequal", strings.Replace(header, "%d", "10", 1) + "AAAA.\nBBB..\n", ErrZones},
		{"zones too small", strings.Replace(header, "%d", "6", 1) + "AAA\nBBB\n", ErrZones},
		{"disconnected", strings.Replace(header, "%d", "8", 1) + "AA~BB\nAA~BB\n", ErrDisconnected},
		{"cut by a wall", strings.Replace(header, "%d", "8", 1) + "AA#BB\nAA#BB\n", ErrDisconnected},
		{"obstacle L", strings.Replace(header, "%d", "9", 1) + "AAaa.\nBBBBa\n", ErrObstacleShape},
		{"obstacle of one letter", strings.Replace(header, "%d", "9", 1) + "AAAAa\nBBBB.\n", ErrObstacleShape},
		{"wall of five", strings.Replace(header, "%d", "10", 1) + "AAAA.\nBBBB.\naaaaa\n", ErrObstacleShape},
		{"same id twice", strings.Replace(header, "%d", "8", 1) + "AAAA\nBBBB\n" + strings.Replace(header, "%d", "8", 1) + "AAAA\nBBBB\n", ErrMapSyntax},
		{"no header", "map m\n\nAAAA\nBBBB\n", ErrMapSyntax},
	}
	for _, c := range cases {
		_, err := LoadMaps(c.text)
		var me *MapError
		if !errors.Is(err, c.want) || !errors.As(err, &me) {
			t.Errorf("%s: err = %v, want %v as a *MapError", c.name, err, c.want)
		}
	}
	_, err := LoadMaps("// two maps\n" + strings.Replace(header, "%d", "8", 1) + "AAAA\nBBBB\n" + strings.Replace(header, "%d", "8", 1) + "AAAA\nB?BB\n")
	var me *MapError
	if !errors.As(err, &me) || me.Line != 15 || me.Map != "m" {
		t.Errorf("a bad cell on line 15: %v", err)
	}
	if _, err := ParseGrid("\n\t..\n\t.?\n"); !errors.As(err, &me) || me.Line != 3 {
		t.Errorf("a bad cell on line 3 of a grid: %v", err)
	}
	ok := strings.Replace(header, "%d", "13", 1) + "AAAA\n.aa.\n.#..\nBBBB\n"
	ms, err := LoadMaps(ok)
	if err != nil || len(ms) != 1 || len(ms[0].Obstacles()) != 2 {
		t.Fatalf("a good map: %v, %v", ms, err)
	}
}

// A vault of four and walls of two to four are single obstacles; '#' cells are one
// obstacle each even when they touch.
func TestObstacleGroups(t *testing.T) {
	g := mustGrid(t, `
		vv.ww.##
		vv....#.
		..xxxx..`)
	got := g.Obstacles()
	sizes := []int{4, 2, 1, 1, 1, 4}
	if len(got) != len(sizes) {
		t.Fatalf("obstacles %v", got)
	}
	for i, ob := range got {
		if len(ob) != sizes[i] {
			t.Errorf("obstacle %d is %v, want %d cells", i, ob, sizes[i])
		}
	}
	if g.ObstacleAt(Cell{1, 1}) != g.ObstacleAt(Cell{0, 0}) || g.ObstacleAt(Cell{2, 0}) != -1 {
		t.Error("ObstacleAt does not follow the groups")
	}
	if g.String() != "vv.ww.##\nvv....#.\n..xxxx.." {
		t.Errorf("String does not give the picture back:\n%s", g)
	}
}

func mustGrid(t testing.TB, text string) *Grid {
	t.Helper()
	g, err := ParseGrid(text)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
