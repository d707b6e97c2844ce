package solwaris

import "testing"

// The rules of terrain bonuses (« Les bonus de terrain »), played through Decide and
// Evolve: who picks one up and how. "+" is a bonus of 2 AP. A hero walking over one is in
// play_test.go (TestWalk).

// A summon that plays picks up a bonus by walking over it, like a hero.
func TestASummonPicksUpABonus(t *testing.T) {
	s := arcaniste(position(t, `
		1...+..
		...2...
	`))
	s, _ = act(t, s, 1, CastSpell{Spell: "elementaire-de-flamme", Cell: "d1"})
	s, _ = act(t, s, 1, EndTurn{}) // a summon's turn draws no new bonuses: the Arcaniste's stay
	s, evs := act(t, s, 1, MoveFighter{Path: []string{"e1", "f1"}})
	if b := events[BonusTaken](evs); len(b) != 1 || b[0] != (BonusTaken{Fighter: 2, Kind: "ap", Cell: "e1"}) || s.Fighters[2].AP != 6+2 {
		t.Fatalf("the Élémentaire's walk: %+v, AP %d", evs, s.Fighters[2].AP)
	}
}

// A fighter pushed or pulled onto a bonus (or over it) takes it; out of its turn, the AP
// it gives come with its next turn.
func TestPushedOrPulledOntoABonus(t *testing.T) {
	s := position(t, `
		.12+.
		.....
	`)
	s, evs := act(t, s, 0, CastSpell{Spell: "coup-de-bouclier", Cell: "c1"})
	if b := events[BonusTaken](evs); len(b) != 1 || b[0] != (BonusTaken{Fighter: 1, Kind: "ap", Cell: "d1"}) || len(s.Bonuses) != 0 {
		t.Fatalf("pushed over the bonus: %+v", evs)
	}
	s, evs = act(t, s, 0, EndTurn{})
	if ts := events[TurnStarted](evs); len(ts) != 1 || ts[0].Fighter != 1 || ts[0].AP != 14+2 {
		t.Fatalf("the Arcaniste's next turn: %+v", ts)
	}

	s = positionOf(t, `
		1..+.2
	`, "guerrier", "arcaniste", "crochet")
	s, evs = act(t, s, 0, CastSpell{Spell: "crochet", Cell: "f1"})
	if b := events[BonusTaken](evs); len(b) != 1 || b[0].Fighter != 1 || s.Fighters[1].Cell.String() != "c1" {
		t.Fatalf("pulled over the bonus: %+v", evs)
	}
}

// A teleport onto a bonus and a swap onto one take it.
func TestTeleportedOrSwappedOntoABonus(t *testing.T) {
	s := arcaniste(position(t, `
		1.....
		...+.2
	`))
	s, evs := act(t, s, 1, CastSpell{Spell: "teleportation", Cell: "d2"})
	if b := events[BonusTaken](evs); len(b) != 1 || b[0] != (BonusTaken{Fighter: 1, Kind: "ap", Cell: "d2"}) || s.Fighters[1].AP != 14-2+2 {
		t.Fatalf("teleported onto the bonus: %+v, AP %d", evs, s.Fighters[1].AP)
	}

	// The Guerrier's Banner was planted on a bonus; a Permutation with it puts the
	// Guerrier there, and he takes it.
	s = positionOf(t, `
		1.....
		.....2
	`, "guerrier", "arcaniste", "permutation")
	s = withBanner(s, 0, "c2")
	s.Bonuses = []Bonus{{Kind: "mp", Cell: "c2"}}
	s, evs = act(t, s, 0, CastSpell{Spell: "permutation", Cell: "c2"})
	if b := events[BonusTaken](evs); len(b) != 1 || b[0] != (BonusTaken{Fighter: 0, Kind: "mp", Cell: "c2"}) || s.Fighters[0].MP != 6+2 {
		t.Fatalf("swapped onto the bonus: %+v, MP %d", evs, s.Fighters[0].MP)
	}
}

// A Banner is an inert entity: pushed over a bonus, it leaves it where it lies.
func TestABannerPicksUpNothing(t *testing.T) {
	s := position(t, `
		1....
		.....
		....2
	`)
	s, _ = act(t, s, 0, CastSpell{Spell: "banniere", Cell: "b1"})
	s.Bonuses = []Bonus{{Kind: "ap", Cell: "c1"}}
	s, evs := act(t, s, 0, CastSpell{Spell: "coup-de-bouclier", Cell: "b1"})
	if p := events[Pushed](evs); len(p) != 1 || p[0].Fighter != 2 || s.Fighters[2].Cell.String() != "d1" {
		t.Fatalf("the Banner pushed: %+v", evs)
	}
	if len(events[BonusTaken](evs)) != 0 || len(s.Bonuses) != 1 {
		t.Fatalf("a Banner took a bonus: %+v", evs)
	}
}
