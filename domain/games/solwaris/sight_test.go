package solwaris

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Line of sight in play (« Portée et ligne de vue »): only the ground blocks it. The
// geometry (the segment, its corners, void) is the arena package's, checked on every map
// in arena/sight_test.go; here, what stands on the arena, and a spell that needs no sight.

// Fighters, summons and entities never block sight, though they block passage: the
// Arcaniste's bolt flies over its own Élémentaire and the Guerrier's Banner, both on the
// segment, to the Guerrier 6 cells away.
func TestEntitiesNeverBlockSight(t *testing.T) {
	s := arcaniste(position(t, `
		2.....1
		.......
	`))
	s, _ = act(t, s, 1, CastSpell{Spell: "elementaire-de-flamme", Cell: "c1"})
	s = withBanner(s, 0, "e1")
	v := (Rules{}).View(s, game.Viewpoint{Seats: []int{1}, Teams: []int{1}}).(*View)
	if i := slices.IndexFunc(v.Targets, func(st SpellTargets) bool { return st.Spell == "trait-arcanique" }); i < 0 || !slices.Contains(v.Targets[i].Cells, "g1") {
		t.Fatalf("the view does not offer the bolt on g1: %+v", v.Targets)
	}
	refused(t, s, 1, MoveFighter{Path: []string{"b1", "c1"}}, game.IllegalMove) // passage is blocked
	_, evs := act(t, s, 1, CastSpell{Spell: "trait-arcanique", Cell: "g1"})
	if h := events[Damaged](evs); len(h) != 1 || h[0].Fighter != 0 {
		t.Fatalf("the bolt over two entities: %+v", evs)
	}
}

// Pluie d'étoiles (the Arcaniste's variant of slot 3) needs no sight: cast over the rock
// at d1 it strikes the Guerrier, where the Comète, which needs sight, is refused.
func TestPluieDEtoilesOverAnObstacle(t *testing.T) {
	s := arcaniste(positionOf(t, `
		2..#..1
		.......
	`, "guerrier", "arcaniste", "pluie-d-etoiles"))
	s.Fighters[1].Spells = append(s.Fighters[1].Spells, "comete") // beside its variant, for the comparison
	refused(t, s, 1, CastSpell{Spell: "comete", Cell: "g1"}, game.IllegalMove)
	v := (Rules{}).View(s, game.Viewpoint{Seats: []int{1}, Teams: []int{1}}).(*View)
	onG1 := map[string]bool{}
	for _, st := range v.Targets {
		onG1[st.Spell] = slices.Contains(st.Cells, "g1")
	}
	if !onG1["pluie-d-etoiles"] || onG1["comete"] {
		t.Fatalf("the view offers g1 to %v", onG1)
	}
	s, evs := act(t, s, 1, CastSpell{Spell: "pluie-d-etoiles", Cell: "g1"})
	if h := events[Damaged](evs); len(h) != 1 || h[0].Fighter != 0 || s.Fighters[0].HP != 600-h[0].HPLoss {
		t.Fatalf("the stars over the rock: %+v", evs)
	}
}
