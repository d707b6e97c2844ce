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
