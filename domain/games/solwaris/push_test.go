package solwaris

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
)

// The rules of forced moves (« Poussées, attirances et collisions »), played through
// Decide and Evolve: a push, a pull, a swap, and the anchoring that stops all three. The
// shock of a push blocked by a wall or an entity is in spells_test.go (TestPushShock,
// TestPushIntoEntity).

// The Guerrier's Coup de bouclier pushes the Arcaniste 2 cells east. With the rock at e1,
// the push would stop after one cell and deal a shock of 12; the Arcaniste's own trap at
// d1 stops it there instead: no shock, the trap springs.
func TestATrapStopsAPushWithoutShock(t *testing.T) {
	s := position(t, `
		.12^#
		.....
	`)
	s, evs := act(t, s, 0, CastSpell{Spell: "coup-de-bouclier", Cell: "c1"})
	p := events[Pushed](evs)
	if len(p) != 1 || !slices.Equal(p[0].Path, []string{"d1"}) || p[0].Missed != 0 || p[0].Stop != "trap" {
		t.Fatalf("the push %+v", p)
	}
	if tr := events[TrapTriggered](evs); len(tr) != 1 || tr[0] != (TrapTriggered{Trap: "trap-d1", Fighter: 1, Cell: "d1"}) {
		t.Fatalf("the trap %+v", tr)
	}
	for _, h := range events[Damaged](evs) {
		if h.Shock {
			t.Fatalf("a shock after a push stopped by a trap: %+v", h)
		}
	}
	if s.Fighters[1].Cell.String() != "d1" || !s.Traps[0].Sprung {
		t.Fatalf("the Arcaniste on %s, trap %+v", s.Fighters[1].Cell, s.Traps[0])
	}
	// Without the trap, the same push is blocked by the rock and shocks.
	s = position(t, `
		.12.#
		.....
	`)
	_, evs = act(t, s, 0, CastSpell{Spell: "coup-de-bouclier", Cell: "c1"})
	if h := events[Damaged](evs); len(h) != 2 || !h[1].Shock || h[1].Base != 12 {
		t.Fatalf("without the trap: %+v", h)
	}
}

// A push stops on the first cell of a trap's zone, not only on the trap's own cell: the
// Arcaniste's Onde répulsive pushes the Guerrier 3 cells east; the trap at f1 watches a
// cross of one cell (e1 to g1), so the push stops at e1, its second cell.
func TestAPushStopsOnATrapsZone(t *testing.T) {
	s := arcaniste(position(t, `
		.21..^..
		........
	`))
	s.Traps[0].Zone = arena.Shape{Kind: arena.Cross, Size: 1}
	s, evs := act(t, s, 1, CastSpell{Spell: "onde-repulsive", Cell: "c1"})
	p := events[Pushed](evs)
	if len(p) != 1 || !slices.Equal(p[0].Path, []string{"d1", "e1"}) || p[0].Missed != 0 {
		t.Fatalf("the push %+v", p)
	}
	if tr := events[TrapTriggered](evs); len(tr) != 1 || tr[0].Fighter != 0 || tr[0].Cell != "e1" || s.Fighters[0].Cell.String() != "e1" {
		t.Fatalf("the trap %+v; the Guerrier on %s", tr, s.Fighters[0].Cell)
	}
}

// Crochet (the Guerrier's variant of slot 2) pulls its target 3 cells towards the caster,
// in a straight line from 2 to 5 cells; a pull that is blocked (by the Banner, by the
// caster itself) stops there, with no shock: the rules give one to pushes only.
func TestCrochetPulls(t *testing.T) {
	s := positionOf(t, `
		1....2
		......
		..#...
	`, "guerrier", "arcaniste", "crochet")
	s2, evs := act(t, s, 0, CastSpell{Spell: "crochet", Cell: "f1"})
	if p := events[Pushed](evs); len(p) != 1 || !slices.Equal(p[0].Path, []string{"e1", "d1", "c1"}) || s2.Fighters[1].Cell.String() != "c1" {
		t.Fatalf("the pull %+v", p)
	}
	refused(t, s, 0, CastSpell{Spell: "crochet", Cell: "b1"}, game.IllegalMove) // closer than 2
	refused(t, s, 0, CastSpell{Spell: "crochet", Cell: "c3"}, game.IllegalMove) // an obstacle
	refused(t, s, 0, CastSpell{Spell: "crochet", Cell: "e2"}, game.IllegalMove) // not in a straight line

	// The Guerrier's Banner at c1 stands in the way: the pull stops at d1, short of one
	// cell, with no shock to the Arcaniste nor to the Banner. The Banner does not block
	// the line of sight.
	b := withBanner(s, 0, "c1")
	b, evs = act(t, b, 0, CastSpell{Spell: "crochet", Cell: "f1"})
	p := events[Pushed](evs)
	if len(p) != 1 || !slices.Equal(p[0].Path, []string{"e1", "d1"}) || p[0].Missed != 1 || p[0].Stop != "entity" {
		t.Fatalf("the pull into the Banner %+v", p)
	}
	if h := events[Damaged](evs); len(h) != 1 || h[0].Shock || b.Fighters[2].HP != b.Fighters[2].MaxHP {
		t.Fatalf("a pull's hits %+v", h)
	}

	// Pulled 3 cells from 2 away, the Arcaniste stops against the Guerrier after one cell,
	// two short: no shock, neither to it nor to the caster it runs into.
	s = positionOf(t, `
		1.2...
	`, "guerrier", "arcaniste", "crochet")
	s, evs = act(t, s, 0, CastSpell{Spell: "crochet", Cell: "c1"})
	if p := events[Pushed](evs); len(p) != 1 || !slices.Equal(p[0].Path, []string{"b1"}) || p[0].Missed != 2 || p[0].Struck != 0 {
		t.Fatalf("the pull into the caster %+v", p)
	}
	if h := events[Damaged](evs); len(h) != 1 || s.Fighters[0].HP != 600 {
		t.Fatalf("a pull into its caster hits %+v", h)
	}
}

// A pull onto a trap's cell stops there and springs it, as a push does.
func TestAPullStopsOnATrap(t *testing.T) {
	s := positionOf(t, `
		1..^.2
	`, "guerrier", "arcaniste", "crochet")
	s.Traps[0].Team, s.Traps[0].Layer = 0, 0 // the Guerrier's own trap: he pulls onto it
	s, evs := act(t, s, 0, CastSpell{Spell: "crochet", Cell: "f1"})
	if p := events[Pushed](evs); len(p) != 1 || !slices.Equal(p[0].Path, []string{"e1", "d1"}) || p[0].Stop != "trap" {
		t.Fatalf("the pull %+v", p)
	}
	if tr := events[TrapTriggered](evs); len(tr) != 1 || tr[0].Fighter != 1 || s.Fighters[1].Cell.String() != "d1" {
		t.Fatalf("the trap %+v", tr)
	}
}

// Permutation (the Guerrier's variant of slot 3) and Transposition (the Arcaniste's of
// slot 6) trade the caster's cell with an entity's, an ally's included; an empty cell, a
// cell out of range and an entity out of sight are refused.
func TestSwaps(t *testing.T) {
	s := positionOf(t, `
		1...2.
		......
		#.....
		......
		.....#
	`, "guerrier", "arcaniste", "permutation", "transposition")
	s = withBanner(s, 0, "a4")
	refused(t, s, 0, CastSpell{Spell: "permutation", Cell: "b1"}, game.IllegalMove) // nobody stands there
	refused(t, s, 0, CastSpell{Spell: "permutation", Cell: "a4"}, game.IllegalMove) // the rock at a3 hides the Banner
	s, evs := act(t, s, 0, CastSpell{Spell: "permutation", Cell: "e1"})
	if sw := events[Swapped](evs); len(sw) != 1 || sw[0] != (Swapped{A: 0, B: 1}) || s.Fighters[0].Cell.String() != "e1" || s.Fighters[1].Cell.String() != "a1" {
		t.Fatalf("the swap %+v: Guerrier on %s, Arcaniste on %s", sw, s.Fighters[0].Cell, s.Fighters[1].Cell)
	}
	s, _ = act(t, s, 0, EndTurn{})
	// The Arcaniste, now on a1, cannot reach the Banner behind the rock either; it swaps
	// with the Guerrier on e1, 4 cells away, and is back on its cell.
	refused(t, s, 1, CastSpell{Spell: "transposition", Cell: "a4"}, game.IllegalMove)
	s, evs = act(t, s, 1, CastSpell{Spell: "transposition", Cell: "e1"})
	if len(events[Swapped](evs)) != 1 || s.Fighters[1].Cell.String() != "e1" || s.Fighters[0].Cell.String() != "a1" {
		t.Fatalf("the Transposition %+v", evs)
	}
	s.Fighters[1].Cooldowns = nil
	s.Fighters[0].Cell, _ = arena.ParseCell("a5")
	refused(t, s, 1, CastSpell{Spell: "transposition", Cell: "a5"}, game.IllegalMove) // 8 cells away
}

// Ancrage (the Guerrier's variant of slot 6), cast in play: for its 2 turns no push, no
// pull and no swap moves its holder. Another Guerrier tries all three: the Coup de
// bouclier and the Crochet hit without moving it, the Permutation is refused, and so is
// the anchored Guerrier's own.
func TestAncrageHoldsAgainstPushPullAndSwap(t *testing.T) {
	s := positionOf(t, `
		..1.2...
		........
	`, "guerrier", "guerrier", "ancrage", "crochet", "permutation")
	s.Fighters[1].Spells = append(s.Fighters[1].Spells, "coup-de-bouclier") // beside its variant, for the test
	s, _ = act(t, s, 0, CastSpell{Spell: "ancrage", Cell: "c1"})
	refused(t, s, 0, CastSpell{Spell: "permutation", Cell: "e1"}, game.IllegalMove)
	s, _ = act(t, s, 0, EndTurn{})
	for _, spell := range []string{"coup-de-bouclier", "crochet"} {
		cell := "c1"
		from := s
		if spell == "coup-de-bouclier" {
			from.Fighters = slices.Clone(s.Fighters)
			from.Fighters[1].Cell, _ = arena.ParseCell("d1")
		}
		after, evs := act(t, from, 1, CastSpell{Spell: spell, Cell: cell})
		if len(events[Pushed](evs)) != 0 || after.Fighters[0].Cell.String() != "c1" || len(events[Damaged](evs)) != 1 {
			t.Fatalf("%s on the anchored Guerrier: %+v", spell, evs)
		}
	}
	refused(t, s, 1, CastSpell{Spell: "permutation", Cell: "c1"}, game.IllegalMove)
	v := (Rules{}).View(s, game.Viewpoint{Seats: []int{1}, Teams: []int{1}}).(*View)
	for _, st := range v.Targets {
		if st.Spell == "permutation" && slices.Contains(st.Cells, "c1") {
			t.Fatalf("the view offers a swap with the anchored Guerrier: %v", st.Cells)
		}
	}
}

// A swap is a forced move like the others: landing in a trap's zone springs it. The
// Arcaniste stands in the cross of its own trap laid at d2 (laid around it, so never
// entered); the Guerrier swaps with it and lands in the zone: the trap springs on him and
// his walk is over for the turn.
func TestASwapSpringsATrap(t *testing.T) {
	s := positionOf(t, `
		1.....
		...^2.
	`, "guerrier", "arcaniste", "permutation")
	s.Traps[0].Zone = arena.Shape{Kind: arena.Cross, Size: 1}
	s, evs := act(t, s, 0, CastSpell{Spell: "permutation", Cell: "e2"})
	if tr := events[TrapTriggered](evs); len(tr) != 1 || tr[0] != (TrapTriggered{Trap: "trap-d2", Fighter: 0, Cell: "e2"}) {
		t.Fatalf("the trap %+v", evs)
	}
	if s.Fighters[0].MP != 0 || s.Fighters[1].Cell.String() != "a1" {
		t.Fatalf("after the swap: Guerrier with %d MP, Arcaniste on %s", s.Fighters[0].MP, s.Fighters[1].Cell)
	}
	refused(t, s, 0, MoveFighter{Path: []string{"e1"}}, game.IllegalMove)
}

// Some spells have their own, stronger shock: the Guerrier's Onde de choc pushes the
// enemies around him 2 cells with a shock of 18 a cell not travelled, not the usual 12.
// The Arcaniste beside him, her back to a rock, travels none: 36, as the Guerrier's hit.
func TestOndeDeChocHasItsOwnShock(t *testing.T) {
	s := positionOf(t, `
		.12#
		....
	`, "guerrier", "arcaniste", "onde-de-choc")
	_, evs := act(t, s, 0, CastSpell{Spell: "onde-de-choc", Cell: "b1"})
	p, hits := events[Pushed](evs), events[Damaged](evs)
	if len(p) != 1 || len(p[0].Path) != 0 || p[0].Missed != 2 || p[0].Stop != "obstacle" {
		t.Fatalf("the push %+v", p)
	}
	if len(hits) != 2 || !hits[1].Shock || hits[1].Base != 2*18 || hits[1].Caster != 0 || hits[1].Fighter != 1 {
		t.Fatalf("the hits %+v: want the spell's roll, then a shock of 36 by the Guerrier", hits)
	}
}

// A push of a target off the caster's row and column goes along the axis where the target
// is farther from the caster, horizontally at an equal gap (the rules only say that a
// push « éloigne en ligne droite »). The Arcaniste's Onde répulsive (range 1 to 2, no line
// needed) from b2: the Guerrier on c3, one column and one row away, is pushed east, not
// south.
func TestAPushOffTheLineTakesTheLongerAxis(t *testing.T) {
	for _, c := range []struct {
		picture string
		path    []string
	}{
		{".......\n.2.....\n..1....\n.......", []string{"d3", "e3", "f3"}},
	} {
		s := arcaniste(position(t, c.picture))
		cell := s.Fighters[0].Cell.String()
		_, evs := act(t, s, 1, CastSpell{Spell: "onde-repulsive", Cell: cell})
		if p := events[Pushed](evs); len(p) != 1 || !slices.Equal(p[0].Path, c.path) {
			t.Fatalf("the Guerrier on %s pushed %+v, want along %v", cell, p, c.path)
		}
	}
}
