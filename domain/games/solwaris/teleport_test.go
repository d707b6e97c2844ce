package solwaris

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Bond (the Guerrier's slot 3) and Téléportation (the Arcaniste's slot 6) put their caster
// on a free cell up to 4 cells away in sight, over whatever stands between; a taken cell,
// an obstacle, a cell out of range or out of sight are refused.
func TestTeleports(t *testing.T) {
	s := position(t, `
		1.#...
		......
		...2..
	`)
	refused(t, s, 0, CastSpell{Spell: "bond", Cell: "d3"}, game.IllegalMove) // the Arcaniste stands there
	refused(t, s, 0, CastSpell{Spell: "bond", Cell: "c1"}, game.IllegalMove) // a rock
	refused(t, s, 0, CastSpell{Spell: "bond", Cell: "d1"}, game.IllegalMove) // behind the rock
	refused(t, s, 0, CastSpell{Spell: "bond", Cell: "f2"}, game.IllegalMove) // 6 cells away
	s, evs := act(t, s, 0, CastSpell{Spell: "bond", Cell: "c3"})             // 4 cells away
	if tp := events[Teleported](evs); len(tp) != 1 || tp[0] != (Teleported{Fighter: 0, Cell: "c3"}) || s.Fighters[0].Cell.String() != "c3" {
		t.Fatalf("Bond %+v", evs)
	}
	s, _ = act(t, s, 0, EndTurn{})
	// The Arcaniste on d3 blinks to a3, 3 cells west, over the Guerrier on c3: a fighter
	// blocks the way, never the sight.
	s, evs = act(t, s, 1, CastSpell{Spell: "teleportation", Cell: "a3"})
	if tp := events[Teleported](evs); len(tp) != 1 || s.Fighters[1].Cell.String() != "a3" {
		t.Fatalf("Téléportation %+v", evs)
	}
}

// A teleport into a trap's zone springs it and ends the caster's movement: the Guerrier
// bonds onto b3, the Arcaniste's trap.
func TestATeleportSpringsATrap(t *testing.T) {
	s := position(t, `
		1.....
		......
		.^..2.
	`)
	s, evs := act(t, s, 0, CastSpell{Spell: "bond", Cell: "b3"})
	if tr := events[TrapTriggered](evs); len(tr) != 1 || tr[0] != (TrapTriggered{Trap: "trap-b3", Fighter: 0, Cell: "b3"}) || s.Fighters[0].MP != 0 {
		t.Fatalf("the trap %+v, %d MP left", evs, s.Fighters[0].MP)
	}
}
