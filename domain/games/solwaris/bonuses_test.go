package solwaris

import (
	"fmt"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
)

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

// The cycle (« À chaque tour de héros, ceux du tour précédent disparaissent et deux
// bonus apparaissent sur des cases libres au hasard, jamais deux fois le même ») over
// real matches on every map, for many seeds: at each hero turn, and only then, the
// bonuses lying are replaced by two of different kinds on two different playable cells
// nobody stands on; the event is public, every view shows them, and the audit draws them
// again from the key.
func TestTheBonusCycle(t *testing.T) {
	maps := arena.Maps()
	for seed := range 18 {
		m := maps[seed%len(maps)]
		evs, err := Rules{}.Setup(game.Setup{Plan: game.Plan{Seats: 2, Teams: []int{0, 1}}, Options: game.Options{"map": m.ID},
			Seed: fmt.Appendf(nil, "cycle %d", seed), At: noon, Purses: []int64{0, 0}})
		if err != nil {
			t.Fatal(err)
		}
		s := fold(t, State{}, evs)
		s, _ = audited(t, Rules{}, s, 0, ChooseGrimoire{Class: "guerrier"})
		s, _ = audited(t, Rules{}, s, 1, ChooseGrimoire{Class: "arcaniste"})
		s, _ = audited(t, Rules{}, s, game.System, game.Timeout{Deadline: s.Deadline}) // placed by the seed
		s, evs = audited(t, Rules{}, s, game.System, game.Timeout{Deadline: s.Deadline})
		summoned := false
		for turns := 0; turns < 14; turns++ {
			spawned := events[BonusesSpawned](evs)
			started := events[TurnStarted](evs)
			if len(started) != 1 {
				t.Fatalf("seed %d: %d turns started by one decision", seed, len(started))
			}
			hero := s.Fighters[started[0].Fighter].Hero()
			if !hero {
				if len(spawned) != 0 {
					t.Fatalf("seed %d: a summon's turn draws bonuses %+v", seed, spawned)
				}
			} else {
				if len(spawned) != 1 {
					t.Fatalf("seed %d: a hero's turn draws bonuses %d times", seed, len(spawned))
				}
				if e := evs[slices.IndexFunc(evs, func(e game.Emitted) bool { return e.Event.EventType() == "BonusesSpawned" })]; !e.Visibility.IsPublic() {
					t.Fatalf("seed %d: bonuses drawn are %v", seed, e.Visibility)
				}
				checkBonuses(t, s, spawned[0].Bonuses)
			}
			seat := s.Fighters[s.Actor].Seat
			if f := s.Fighters[s.Actor]; f.Class == "arcaniste" && f.Hero() && !summoned {
				v := (Rules{}).View(s, game.Viewpoint{Seats: []int{seat}, Teams: []int{seat}}).(*View)
				for _, st := range v.Targets {
					if st.Spell == "elementaire-de-flamme" {
						s, _ = audited(t, Rules{}, s, seat, CastSpell{Spell: st.Spell, Cell: st.Cells[0]})
						summoned = true
					}
				}
			}
			s, evs = audited(t, Rules{}, s, seat, EndTurn{})
		}
		if !summoned {
			t.Fatalf("seed %d: the Élémentaire was never summoned", seed)
		}
	}
}

// checkBonuses checks a hero turn's bonuses on s, the state they were drawn in.
func checkBonuses(t *testing.T, s State, bs []Bonus) {
	t.Helper()
	if len(bs) != BonusesPerTurn || bs[0].Kind == bs[1].Kind || bs[0].Cell == bs[1].Cell {
		t.Fatalf("the bonuses %+v", bs)
	}
	for _, b := range bs {
		c, err := s.grid().ParseCell(b.Cell)
		if err != nil || !s.grid().Free(c) || s.at(c) >= 0 || bonusKind(b.Kind).ID == "" {
			t.Fatalf("a bonus %+v on a cell not free, or taken, or of no kind", b)
		}
	}
	if !slices.Equal(s.Bonuses, bs) {
		t.Fatalf("lying %+v after drawing %+v: the previous ones stayed", s.Bonuses, bs)
	}
	for _, p := range []game.Viewpoint{{}, {Seats: []int{0}, Teams: []int{0}}, {Seats: []int{1}, Teams: []int{1}}} {
		if v := (Rules{}).View(s, p).(*View); !slices.Equal(v.Bonuses, bs) {
			t.Fatalf("viewer %+v sees the bonuses %+v, not %+v", p, v.Bonuses, bs)
		}
	}
}

// Bonus kinds are data checked at load: what the file may not say.
func TestBonusKindsAreCheckedAtLoad(t *testing.T) {
	if ks := BonusKinds(); len(ks) < BonusesPerTurn {
		t.Fatalf("the embedded kinds %+v", ks)
	}
	good := `{"id": "ap", "nameFr": "Éclat", "nameEn": "Shard", "ap": 2}, {"id": "mp", "nameFr": "Plume", "nameEn": "Feather", "mp": 2}`
	if _, err := ParseBonusKinds([]byte("[" + good + "]")); err != nil {
		t.Fatalf("good kinds refused: %v", err)
	}
	for name, bad := range map[string]string{
		"not JSON":                `[{"id": "ap",`,
		"an unknown field":        `[{"id": "x", "nameFr": "x", "nameEn": "x", "ap": 2, "pa": 2}, ` + good + `]`,
		"a typo of a figure":      `[{"id": "x", "nameFr": "x", "nameEn": "x", "armor": 20, "armourTurns": 1}, ` + good + `]`,
		"one kind":                `[{"id": "ap", "nameFr": "Éclat", "nameEn": "Shard", "ap": 2}]`,
		"a taken ID":              `[` + good + `, {"id": "ap", "nameFr": "x", "nameEn": "x", "mp": 1}]`,
		"no ID":                   `[{"nameFr": "x", "nameEn": "x", "ap": 2}, ` + good + `]`,
		"no English name":         `[{"id": "x", "nameFr": "x", "ap": 2}, ` + good + `]`,
		"nothing given":           `[{"id": "x", "nameFr": "x", "nameEn": "x"}, ` + good + `]`,
		"a negative figure":       `[{"id": "x", "nameFr": "x", "nameEn": "x", "ap": 3, "mp": -1}, ` + good + `]`,
		"7 AP":                    `[{"id": "x", "nameFr": "x", "nameEn": "x", "ap": 7}, ` + good + `]`,
		"a heal of 201":           `[{"id": "x", "nameFr": "x", "nameEn": "x", "heal": 201}, ` + good + `]`,
		"armour for no time":      `[{"id": "x", "nameFr": "x", "nameEn": "x", "armour": 50}, ` + good + `]`,
		"a duration of no armour": `[{"id": "x", "nameFr": "x", "nameEn": "x", "ap": 1, "armourTurns": 1}, ` + good + `]`,
	} {
		if ks, err := ParseBonusKinds([]byte(bad)); err == nil {
			t.Errorf("%s: accepted as %+v", name, ks)
		}
	}
}
