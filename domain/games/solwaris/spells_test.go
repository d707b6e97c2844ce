package solwaris

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/combat"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// events returns the events of type T among evs.
func events[T game.Event](evs []game.Emitted) []T {
	var out []T
	for _, e := range evs {
		if t, ok := e.Event.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

// arcaniste gives the turn to seat 1's Arcaniste.
func arcaniste(s State) State {
	s.Actor = 1
	s.Fighters[1].AP, s.Fighters[1].MP = 14, 6
	return s
}

// A melee blow: its AP, a roll between the spell's bounds, the HP lost; at most twice a
// turn.
func TestTaille(t *testing.T) {
	s := position(t, `
		12..
		....
	`)
	s, evs := act(t, s, 0, CastSpell{Spell: "taille", Cell: "b1"})
	hit := events[Damaged](evs)
	if len(hit) != 1 || hit[0].Base < 27 || hit[0].Base > 33 || s.Fighters[1].HP != 460-hit[0].HPLoss || s.Fighters[0].AP != 8 {
		t.Fatalf("after Taille: %+v, HP %d, AP %d", hit, s.Fighters[1].HP, s.Fighters[0].AP)
	}
	s, _ = act(t, s, 0, CastSpell{Spell: "taille", Cell: "b1"})
	refused(t, s, 0, CastSpell{Spell: "taille", Cell: "b1"}, game.IllegalMove) // twice a turn
	refused(t, s, 0, CastSpell{Spell: "fireball", Cell: "b1"}, game.IllegalMove)
	refused(t, s, 0, CastSpell{Spell: "taille", Cell: "q9"}, game.BadInput)
}

// Comète does not reach closer than 3 cells; an obstacle on the segment blocks a spell
// that needs sight, void does not.
func TestRangeAndSight(t *testing.T) {
	s := arcaniste(position(t, `
		1.#..2
		......
		...~..
		.....1
	`))
	refused(t, s, 1, CastSpell{Spell: "comete", Cell: "f2"}, game.IllegalMove)          // distance 1
	refused(t, s, 1, CastSpell{Spell: "trait-arcanique", Cell: "a1"}, game.IllegalMove) // the rock at c1
	if _, err := (Rules{}).Decide(s, game.Action{Seat: 1, Do: CastSpell{Spell: "trait-arcanique", Cell: "c4"}}); err != nil {
		t.Fatalf("over the void: %v", err)
	}
	v := (Rules{}).View(s, game.Viewpoint{Seats: []int{1}, Teams: []int{1}}).(*View)
	for _, st := range v.Targets {
		for _, c := range st.Cells {
			if _, err := (Rules{}).Decide(s, game.Action{Seat: 1, Do: CastSpell{Spell: st.Spell, Cell: c}}); err != nil {
				t.Fatalf("the view lists %s on %s, which is refused: %v", st.Spell, c, err)
			}
			if st.Spell == "comete" && (c == "f2" || c == "e1" || c == "d1") {
				t.Fatalf("the view lists Comète on %s, closer than 3", c)
			}
		}
	}
}

// A push blocked by a wall stops and deals 12 per cell not travelled, as a hit of the
// caster; an anchored fighter is not moved at all.
func TestPushShock(t *testing.T) {
	s := position(t, `
		.12#
		....
	`)
	s2, evs := act(t, s, 0, CastSpell{Spell: "coup-de-bouclier", Cell: "c1"})
	p := events[Pushed](evs)
	hits := events[Damaged](evs)
	if len(p) != 1 || len(p[0].Path) != 0 || p[0].Missed != 2 || p[0].Stop != "obstacle" {
		t.Fatalf("the push %+v", p)
	}
	if len(hits) != 2 || !hits[1].Shock || hits[1].Base != 2*combat.ShockPerCell {
		t.Fatalf("the hits %+v", hits)
	}
	if s2.Fighters[1].HP != 460-hits[0].HPLoss-hits[1].HPLoss {
		t.Fatalf("HP %d after %+v", s2.Fighters[1].HP, hits)
	}
	// Anchored, the Arcaniste does not move and takes no shock.
	s.Fighters[1].Lasting = []Lasting{{Kind: "state", State: "anchored", Caster: 1, Ends: 3}}
	_, evs = act(t, s, 0, CastSpell{Spell: "coup-de-bouclier", Cell: "c1"})
	if len(events[Pushed](evs)) != 0 || len(events[Damaged](evs)) != 1 {
		t.Fatalf("an anchored fighter pushed: %+v", evs)
	}
}

// A push of 2 into an entity next to the victim: the victim takes the shock of 2 cells,
// the entity struck half of it.
func TestPushIntoEntity(t *testing.T) {
	s := position(t, `
		.12.
		....
	`)
	s.Fighters = append(s.Fighters, summoned(grimoire.Embedded(), s.Fighters[0], Summoned{Fighter: 2, Summoner: 0, Entity: "banniere", Cell: "d1"}))
	_, evs := act(t, s, 0, CastSpell{Spell: "coup-de-bouclier", Cell: "c1"})
	hits := events[Damaged](evs)
	if len(hits) != 3 || hits[1].Fighter != 1 || hits[1].Base != 24 || hits[2].Fighter != 2 || hits[2].Base != 12 {
		t.Fatalf("the hits %+v", hits)
	}
}

// Resistance applies first, then armour takes what it let through.
func TestResistanceThenArmour(t *testing.T) {
	s := position(t, `
		12..
	`)
	s.Fighters[1].Lasting = []Lasting{{Kind: "resistance", Amount: 50, Caster: 1, Ends: 3}}
	s.Fighters[1].Stocks = []combat.Stock{{Points: 10, Ends: 3}}
	s, evs := act(t, s, 0, CastSpell{Spell: "execution", Cell: "b1"})
	h := events[Damaged](evs)[0]
	want := combat.Hit{Base: h.Base, Critical: h.Critical, Resistance: 50}.Damage()
	if h.Resistance != 50 || h.Dealt != want || h.Absorbed != min(10, want) || h.HPLoss != want-h.Absorbed || s.Fighters[1].HP != 460-h.HPLoss {
		t.Fatalf("the hit %+v, want %d dealt", h, want)
	}
}

// MP removal is tried point by point against the class's resistance, and between two of
// its turns a fighter loses at most 4; removed out of its turn, the points are taken from
// its next one.
func TestRemovalCap(t *testing.T) {
	s := arcaniste(position(t, `
		1.2.
	`))
	s.Fighters[0].MPLost = 3
	s, evs := act(t, s, 1, CastSpell{Spell: "entrave", Cell: "a1"})
	r := events[PointsRemoved](evs)[0]
	if r.Kind != "mp" || r.Capped != 1 || r.Removed+r.Resisted != 1 || s.Fighters[0].MPDue != r.Removed {
		t.Fatalf("removal %+v, due %d", r, s.Fighters[0].MPDue)
	}
	s, _ = act(t, s, 1, EndTurn{})
	if s.Actor != 0 || s.Fighters[0].MP != 6-r.Removed {
		t.Fatalf("the Guerrier starts its turn with %d MP after losing %d", s.Fighters[0].MP, r.Removed)
	}
}

// The Élémentaire de flamme plays its own turn of 10 s, with its own AP and MP, right
// after its summoner's; a banner plays none.
func TestSummonTurn(t *testing.T) {
	s := arcaniste(position(t, `
		1.....
		....2.
	`))
	s, _ = act(t, s, 1, CastSpell{Spell: "elementaire-de-flamme", Cell: "e1"})
	if len(s.Fighters) != 3 || s.Fighters[2].Entity != "elementaire-de-flamme" {
		t.Fatalf("fighters %+v", s.Fighters)
	}
	refused(t, s, 1, CastSpell{Spell: "elementaire-de-flamme", Cell: "f1"}, game.IllegalMove) // a cooldown
	s, evs := act(t, s, 1, EndTurn{})
	ts := events[TurnStarted](evs)
	if len(ts) != 1 || ts[0].Fighter != 2 || ts[0].AP != 6 || ts[0].MP != 3 || ts[0].Deadline != noon.Add(SummonTime) {
		t.Fatalf("after the Arcaniste's turn: %+v", evs)
	}
	if len(events[BonusesSpawned](evs)) != 0 {
		t.Fatal("a summon's turn draws bonuses")
	}
	if st := (Rules{}).Status(s); st.ToAct[0] != 1 {
		t.Fatalf("the summon's seat does not act: %+v", st)
	}
	s, evs = act(t, s, 1, EndTurn{})
	if ts := events[TurnStarted](evs); len(ts) != 1 || ts[0].Fighter != 0 || ts[0].Turn != 2 {
		t.Fatalf("after the summon's turn: %+v", evs)
	}
}

// A side with no hero standing loses.
func TestKnockOut(t *testing.T) {
	s := position(t, `
		12..
	`)
	s.Fighters[1].HP = 5
	s, evs := act(t, s, 0, CastSpell{Spell: "taille", Cell: "b1"})
	if len(events[Fallen](evs)) != 1 || s.Phase != PhaseOver || s.Winners[0] != 0 {
		t.Fatalf("after the last blow: %+v", evs)
	}
	refused(t, s, 0, EndTurn{}, game.NotYourTurn)
}
