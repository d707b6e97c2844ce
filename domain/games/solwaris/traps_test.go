package solwaris

import (
	"slices"
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
	d := &decision{r: Rules{}, s: s, at: noon, rng: stream(s, s.Version, 0), v0: s.Version}
	c, _ := arena.ParseCell("c3")
	d.apply(0, nil, grimoire.Effect{Kind: grimoire.Trap, To: grimoire.ToCell, Zone: &arena.Shape{Kind: arena.Cross, Size: 1}, Duration: 8,
		Effects: []grimoire.Effect{{Kind: grimoire.Damage, To: grimoire.ToAll, Min: 20, Max: 20}}}, s.Fighters[0].Cell, c, nil)
	laid := d.out[0]
	if laid.Visibility != (Rules{}).Sight(laid.Event) || laid.Visibility.IsPublic() {
		t.Fatalf("a trap laid is %q", laid.Visibility)
	}
	if sh := laid.Event.(TrapLaid).Shadow(); sh != (Concealed{}) {
		t.Fatalf("the shadow of a trap is %#v", sh)
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

// lay has fighter f lay a trap of zone on cell, with effects, as a trap spell of the next
// classes will (the mechanism is part 1's; no class of part 1 lays one).
func lay(t *testing.T, s State, f int, cell string, zone arena.Shape, effects ...grimoire.Effect) State {
	t.Helper()
	d := &decision{r: Rules{}, s: s, at: noon, rng: stream(s, s.Version, 0), v0: s.Version}
	c, err := arena.ParseCell(cell)
	if err != nil {
		t.Fatal(err)
	}
	d.apply(f, nil, grimoire.Effect{Kind: grimoire.Trap, To: grimoire.ToCell, Zone: &zone, Duration: grimoire.TrapTurns, Effects: effects}, s.Fighters[f].Cell, c, nil)
	return d.s
}

// A trap stays 8 turns, then vanishes: laid on its layer's turn of round 1, it is gone at
// the start of its layer's turn of round 9. Every fighter, the layer included (its turn
// of laying counted), has had exactly 8 turns with it on the arena, whether the layer
// plays first or second in the round.
func TestATrapLastsEightTurns(t *testing.T) {
	for layer := range 2 {
		s := position(t, `
			1....
			.....
			....2
		`)
		if layer == 1 {
			s, _ = act(t, s, 0, EndTurn{})
		}
		s = lay(t, s, layer, "c2", arena.Shape{})
		with := map[int]int{layer: 1}
		for len(s.Traps) > 0 {
			var evs []game.Emitted
			s, evs = act(t, s, s.Fighters[s.Actor].Seat, EndTurn{})
			ts := events[TurnStarted](evs)[0]
			if len(s.Traps) == 0 {
				if ts.Fighter != layer || ts.Turn != 9 {
					t.Fatalf("laid by fighter %d in round 1, the trap vanished at fighter %d's turn of round %d", layer, ts.Fighter, ts.Turn)
				}
				break
			}
			with[ts.Fighter]++
		}
		if with[0] != grimoire.TrapTurns || with[1] != grimoire.TrapTurns {
			t.Fatalf("laid by fighter %d: turns with the trap on the arena %v, want 8 each", layer, with)
		}
	}
}

// A trap springs on whoever enters its zone, its layer included: the Guerrier walks into
// his own team's trap at c1, which strikes him as his own hit, and his walk ends there:
// the rest of the path is lost, and so are his MP.
func TestTheLayerTriggersItsOwnTrap(t *testing.T) {
	s := position(t, `
		1.*...
		......
		.....2
	`)
	s.Traps[0].Effects = []grimoire.Effect{{Kind: grimoire.Damage, To: grimoire.ToAll, Min: 20, Max: 20}}
	s, evs := act(t, s, 0, MoveFighter{Path: []string{"b1", "c1", "d1", "e1"}})
	if tr := events[TrapTriggered](evs); len(tr) != 1 || tr[0] != (TrapTriggered{Trap: "trap-c1", Fighter: 0, Cell: "c1"}) {
		t.Fatalf("the trap %+v", evs)
	}
	if h := events[Damaged](evs); len(h) != 1 || h[0].Fighter != 0 || h[0].Caster != 0 || h[0].Base != 20 {
		t.Fatalf("the trap's hit %+v", h)
	}
	if f := s.Fighters[0]; f.Cell.String() != "c1" || f.MP != 0 {
		t.Fatalf("after the trap: on %s with %d MP", f.Cell, f.MP)
	}
	refused(t, s, 0, MoveFighter{Path: []string{"d1"}}, game.IllegalMove)
	if _, err := (Rules{}).Decide(s, game.Action{Seat: 0, At: noon, Do: CastSpell{Spell: "bond", Cell: "e1"}}); err != nil {
		t.Fatalf("the trap ends the walk, not the turn: %v", err)
	}
}

// A fighter that falls in a trap during its own turn ends it: the Arcaniste's Élémentaire,
// at 10 HP, walks into the Guerrier's trap at c2, which strikes for 20; its turn is over
// and the next round starts with the Guerrier's. The fight goes on: only heroes count.
func TestASummonFallenInATrapEndsItsTurn(t *testing.T) {
	s := arcaniste(position(t, `
		1.....
		..*...
		....2.
	`))
	s.Traps[0].Effects = []grimoire.Effect{{Kind: grimoire.Damage, To: grimoire.ToAll, Min: 20, Max: 20}}
	s, _ = act(t, s, 1, CastSpell{Spell: "elementaire-de-flamme", Cell: "d2"})
	s, _ = act(t, s, 1, EndTurn{})
	s.Fighters[2].HP = 10
	s, evs := act(t, s, 1, MoveFighter{Path: []string{"c2", "b2"}})
	if len(events[Fallen](evs)) != 1 || len(events[TurnEnded](evs)) != 1 || s.Phase != PhasePlay || s.Actor != 0 || s.Turn != 2 {
		t.Fatalf("the Élémentaire in the trap: %+v; actor %d, round %d", evs, s.Actor, s.Turn)
	}
}

// A sprung trap is named by an ID drawn from the secret key, never by its place in the
// match's list of traps, which would tell the other side how many it cannot see: the
// Arcaniste lays three traps; the Guerrier walks into the last, and the public event names
// it by the ID its laying recorded (its team's alone).
func TestASprungTrapCountsNoOtherTrap(t *testing.T) {
	s := position(t, `
		1.....
		......
		.....2
	`)
	var laid []TrapLaid
	for _, c := range []string{"f1", "e2", "c1"} {
		before := len(s.Traps)
		s = lay(t, s, 1, c, arena.Shape{})
		laid = append(laid, TrapLaid{ID: s.Traps[before].ID})
	}
	if laid[0].ID == laid[1].ID || laid[1].ID == laid[2].ID || len(laid[2].ID) != 16 {
		t.Fatalf("the trap IDs %+v", laid)
	}
	_, evs := act(t, s, 0, MoveFighter{Path: []string{"b1", "c1", "d1"}})
	if tr := events[TrapTriggered](evs); len(tr) != 1 || tr[0].Trap != laid[2].ID {
		t.Fatalf("the third trap springs as %+v; laid as %+v", tr, laid)
	}
}

// A lasting effect ends at the start of its caster's turn of the round it names; a caster
// that falls has no such turn, so its place in the order counts (as a fallen layer's does
// for its traps): the effect ends at the turn the caster would have started, or the first
// one after. The Arcaniste's Élémentaire (after her in the order) puts a resistance on
// the Guerrier until its turn of the next round, and falls at once; the Guerrier and the
// Arcaniste play that round with it on; no one plays from the Élémentaire's place, so it
// ends at the start of the round after, the Guerrier's turn. Without the rule it would
// never end.
func TestALastingEffectOfAFallenCasterEnds(t *testing.T) {
	s := arcaniste(position(t, `
		1.....
		..*...
		....2.
	`))
	s.Traps[0].Effects = []grimoire.Effect{{Kind: grimoire.Damage, To: grimoire.ToAll, Min: 20, Max: 20}}
	s, _ = act(t, s, 1, CastSpell{Spell: "elementaire-de-flamme", Cell: "d2"})
	s, _ = act(t, s, 1, EndTurn{})
	if s.Actor != 2 {
		t.Fatalf("after the summon, fighter %d acts; order %v", s.Actor, s.Order)
	}
	round := s.Turn
	s.Fighters[0].Lasting = []Lasting{{Kind: "resistance", Amount: 20, Caster: 2, Ends: round + 1}}
	s.Fighters[2].HP = 10
	s, evs := act(t, s, 1, MoveFighter{Path: []string{"c2"}})
	if len(events[Fallen](evs)) != 1 || s.Fighters[2].OnArena || s.Actor != 0 || s.Turn != round+1 {
		t.Fatalf("the Élémentaire in the trap: %+v; actor %d, round %d", evs, s.Actor, s.Turn)
	}
	if len(s.Fighters[0].Lasting) != 1 {
		t.Fatalf("the Guerrier's turn of round %d starts without the effect, before the caster's place", round+1)
	}
	s, _ = act(t, s, 0, EndTurn{})
	if s.Actor != 1 || len(s.Fighters[0].Lasting) != 1 {
		t.Fatalf("the Arcaniste's turn of round %d: fighter %d acts, the Guerrier's effects %+v", round+1, s.Actor, s.Fighters[0].Lasting)
	}
	s, _ = act(t, s, 1, EndTurn{})
	if s.Actor != 0 || s.Turn != round+2 || len(s.Fighters[0].Lasting) != 0 {
		t.Fatalf("round %d, fighter %d acts: the fallen caster's effect is %+v", s.Turn, s.Actor, s.Fighters[0].Lasting)
	}
}

// A trap springs on whoever enters its zone (« quiconque entre dans sa zone »): a move
// from a cell outside the zone into it. A fighter that stood in the zone when the trap
// was laid has not entered it: it walks within the zone, or is pushed within it, without
// springing it, and springs it when it comes back in from outside.
func TestATrapSpringsOnEnteringItsZone(t *testing.T) {
	s := position(t, `
		..1..
		..^..
		.....
		....2
	`)
	s.Traps[0].Zone = arena.Shape{Kind: arena.Cross, Size: 1} // c1, b2, c2, d2, c3
	s, evs := act(t, s, 0, MoveFighter{Path: []string{"c2", "c3", "c4"}})
	if len(events[TrapTriggered](evs)) != 0 || s.Fighters[0].Cell.String() != "c4" || s.Fighters[0].MP != 3 {
		t.Fatalf("a walk from inside the zone: on %s with %d MP, %+v", s.Fighters[0].Cell, s.Fighters[0].MP, evs)
	}
	s, evs = act(t, s, 0, MoveFighter{Path: []string{"c3", "d3"}})
	if tr := events[TrapTriggered](evs); len(tr) != 1 || tr[0].Cell != "c3" || s.Fighters[0].Cell.String() != "c3" || s.Fighters[0].MP != 0 {
		t.Fatalf("back into the zone from c4: on %s, %+v", s.Fighters[0].Cell, evs)
	}

	// The Guerrier's Coup de bouclier pushes the Arcaniste from d2, inside the zone, 2
	// cells west to c2 and b2, inside it still: no trap springs.
	s = position(t, `
		.....
		..^21
		.....
	`)
	s.Traps[0].Zone = arena.Shape{Kind: arena.Cross, Size: 1}
	s, evs = act(t, s, 0, CastSpell{Spell: "coup-de-bouclier", Cell: "d2"})
	if p := events[Pushed](evs); len(p) != 1 || !slices.Equal(p[0].Path, []string{"c2", "b2"}) || len(events[TrapTriggered](evs)) != 0 || s.Traps[0].Sprung {
		t.Fatalf("a push within the zone: %+v", evs)
	}
}
