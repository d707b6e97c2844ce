package grimoire

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
)

// The zones of the catalog, drawn by package arena on an open field: C is the caster,
// T the target cell, * the other cells the spell hits; a spell on the caster's own cell
// has no T, and its caster is @ when the zone covers it. What the texts say ("the target
// cell and its neighbours", "3 cells in a row") is what the arena computes.
func TestZonesAsTheArenaDrawsThem(t *testing.T) {
	for _, tc := range []struct{ spell, picture string }{
		{"taille", `
			.....
			..C..
			..T..
			.....`},
		{"fauche", `
			.....
			..C..
			.*T*.
			.....`},
		{"comete", `
			.......
			...*...
			..*T*..
			...*...
			.......
			.......
			...C...`},
		{"pluie-d-etoiles", `
			.......
			...*...
			..*T*..
			...*...
			.......
			...C...`},
		{"rayon", `
			C.T**..`},
		{"souffle-ardent", `
			.......
			...C...
			...T...
			...*...
			...*...`},
		{"tourbillon", `
			.....
			..*..
			.*C*.
			..*..
			.....`},
		{"cri-de-guerre", `
			.......
			...*...
			..***..
			.**@**.
			..***..
			...*...
			.......`},
	} {
		s, err := SpellByID(tc.spell)
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Fields(tc.picture)
		var caster, target arena.Cell
		want := map[arena.Cell]bool{}
		for y, row := range rows {
			for x, ch := range row {
				c := arena.Cell{X: x, Y: y}
				switch ch {
				case 'C', '@':
					caster = c
				case 'T':
					target = c
				}
				if ch == 'T' || ch == '*' || ch == '@' {
					want[c] = true
				}
			}
		}
		if !strings.Contains(tc.picture, "T") { // a spell on the caster's own cell
			target = caster
		}
		if d := arena.Distance(caster, target); d < s.MinRange || d > s.MaxRange {
			t.Errorf("%s: the picture casts at %d cells, out of range %d..%d", tc.spell, d, s.MinRange, s.MaxRange)
		}
		g, err := arena.ParseGrid(strings.Repeat(strings.Repeat(".", len(rows[0]))+"\n", len(rows)))
		if err != nil {
			t.Fatal(err)
		}
		got := g.Area(s.Zone, caster, target)
		ok := len(got) == len(want)
		for _, c := range got {
			ok = ok && want[c]
		}
		if !ok {
			t.Errorf("%s: zone %v %d covers %v, the picture says %v", tc.spell, s.Zone.Kind, s.Zone.Size, got, want)
		}
	}
}

// A spell's range, read by the arena: the Comet is never cast closer than 3 cells, the
// Javelin only along a row or a column, and Starfall over an obstacle that stops the Comet.
func TestRangesAsTheArenaReadsThem(t *testing.T) {
	g, err := arena.ParseGrid(`
		.........
		.........
		....#....
		.........
		.........`)
	if err != nil {
		t.Fatal(err)
	}
	caster := arena.Cell{X: 4, Y: 4}
	for _, tc := range []struct {
		spell  string
		target arena.Cell
		want   bool
	}{
		{"comete", arena.Cell{X: 4, Y: 1}, false}, // behind the rock
		{"pluie-d-etoiles", arena.Cell{X: 4, Y: 1}, true},
		{"comete", arena.Cell{X: 2, Y: 3}, true},  // 3 cells
		{"comete", arena.Cell{X: 3, Y: 3}, false}, // 2 cells
		{"javelot", arena.Cell{X: 8, Y: 4}, true},
		{"javelot", arena.Cell{X: 7, Y: 3}, false}, // not in line
		{"taille", arena.Cell{X: 4, Y: 3}, true},
		{"oeil-du-mage", caster, true},
		{"oeil-du-mage", arena.Cell{X: 4, Y: 3}, false},
	} {
		s, err := SpellByID(tc.spell)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.CanTarget(caster, tc.target, s.Range()); got != tc.want {
			t.Errorf("%s from %v at %v: %v, want %v", tc.spell, caster, tc.target, got, tc.want)
		}
	}
	c, _ := SpellByID("comete")
	for _, target := range g.Targets(caster, c.Range()) {
		if arena.Distance(caster, target) < 3 {
			t.Errorf("the Comet may be cast at %v, %d cells away", target, arena.Distance(caster, target))
		}
	}
}
