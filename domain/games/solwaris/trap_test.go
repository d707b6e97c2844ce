package solwaris

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// A trap laid by an effect (the trap-laying classes come next; the mechanism is here) is
// its team's alone: the laying event is the team's, the other side's view shows nothing
// of it and walks as if it were not there; entering its zone springs it, ends the walk,
// and its effects strike what stands in its zone, as a hit of its layer.
func TestTrapLaidAndSprung(t *testing.T) {
	s := position(t, `
		1.....
		......
		.....2
	`)
	rng, n := stream(s.Key, s.Version, 0)
	d := &decision{r: Rules{}, s: s, at: noon, rng: rng, v0: s.Version, n: n}
	c, _ := arena.ParseCell("c3")
	d.apply(0, nil, grimoire.Effect{Kind: grimoire.Trap, To: grimoire.ToCell, Zone: &arena.Shape{Kind: arena.Cross, Size: 1}, Duration: 8,
		Effects: []grimoire.Effect{{Kind: grimoire.Damage, To: grimoire.ToAll, Min: 20, Max: 20}}}, s.Fighters[0].Cell, c, nil)
	laid := d.out[0]
	if laid.Visibility != (Rules{}).Sight(laid.Event) || laid.Visibility.IsPublic() {
		t.Fatalf("a trap laid is %q", laid.Visibility)
	}
	if sh := laid.Event.(TrapLaid).Shadow().(TrapLaid); sh.Cell != "" || len(sh.Effects) != 0 {
		t.Fatalf("the shadow of a trap shows %+v", sh)
	}
	s = d.s
	s.Actor = 1
	s.Fighters[1].MP = 6
	v := (Rules{}).View(s, game.Viewpoint{Seats: []int{1}, Teams: []int{1}}).(*View)
	if len(v.Traps) != 0 {
		t.Fatalf("the other side sees %+v", v.Traps)
	}
	for _, r := range v.Reachable {
		if r.Cell == "a3" && r.Cost != 5 {
			t.Fatalf("a3 costs %d in the other side's view: computed around the trap", r.Cost)
		}
	}
	if mine := (Rules{}).View(s, game.Viewpoint{Seats: []int{0}, Teams: []int{0}}).(*View); len(mine.Traps) != 1 || mine.Traps[0].Cell != "c3" {
		t.Fatalf("its team sees %+v", mine.Traps)
	}
	// The Arcaniste walks west along row 3: d3 is in the trap's cross, the walk ends there.
	s, evs := act(t, s, 1, MoveFighter{Path: []string{"e3", "d3", "c3", "b3"}})
	hits := events[Damaged](evs)
	if f := s.Fighters[1]; f.Cell.String() != "d3" || f.MP != 0 || len(events[TrapTriggered](evs)) != 1 {
		t.Fatalf("after the trap: %s with %d MP, %+v", f.Cell, f.MP, evs)
	}
	if len(hits) != 1 || hits[0].Fighter != 1 || hits[0].Caster != 0 || hits[0].Base != 20 {
		t.Fatalf("the trap's hits %+v", hits)
	}
}
