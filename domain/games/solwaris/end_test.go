package solwaris

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// The end of a fight (« Comment se termine un combat »): a side with no hero standing
// loses, and its summons do not count. The 40th round and the staked HP share are in
// play_test.go (TestTurnsAndTheFortiethRound), a knock-out of a lone hero in
// spells_test.go (TestKnockOut).

// The Arcaniste's Élémentaire falls: the fight goes on. Its Arcaniste falls with a new
// Élémentaire still standing: the Arcaniste's side has no hero standing and loses.
func TestASideWithOnlyItsSummonLoses(t *testing.T) {
	s := arcaniste(position(t, `
		1.....
		2.....
	`))
	s, _ = act(t, s, 1, CastSpell{Spell: "elementaire-de-flamme", Cell: "b1"})
	s, _ = act(t, s, 1, EndTurn{})
	s, _ = act(t, s, 1, EndTurn{}) // the Élémentaire's turn
	s.Fighters[2].HP = 10
	s, evs := act(t, s, 0, CastSpell{Spell: "taille", Cell: "b1"})
	if len(events[Fallen](evs)) != 1 || s.Phase != PhasePlay {
		t.Fatalf("the Élémentaire falls: %+v, phase %s", evs, s.Phase)
	}
	s.Fighters = append(s.Fighters, summoned(s.catalog(), s.Fighters[1], Summoned{Fighter: 3, Summoner: 1, Entity: "elementaire-de-flamme", Cell: "f2"}))
	s.Fighters[1].HP = 10
	s, evs = act(t, s, 0, CastSpell{Spell: "taille", Cell: "a2"})
	end := events[FightEnded](evs)
	if len(end) != 1 || len(end[0].Winners) != 1 || end[0].Winners[0] != 0 || !s.Fighters[3].Standing() {
		t.Fatalf("the Arcaniste falls beside its Élémentaire: %+v", evs)
	}
	if st := (Rules{}).Status(s); !st.Over || st.Outcome.Winners[0] != 0 {
		t.Fatalf("status %+v", st)
	}
	refused(t, s, 1, EndTurn{}, game.NotYourTurn)
}

// A fight ends once. The Guerrier's Coup de bouclier (9 to 11 damage, push 2) throws the
// Arcaniste, at 20 HP, onto the Guerrier's own trap at d1, which deals 30: the trap's
// blow ends the fight inside the push, and the cast that pushed must not end it again.
// The same holds for a swap and a teleport that land in a trap (they spring it the same
// way, in the middle of a spell's effects).
func TestAFightEndsOnceWhenATrapEndsItInAForcedMove(t *testing.T) {
	s := position(t, `
		.12...
		......
	`)
	s = lay(t, s, 0, "d1", arena.Shape{}, grimoire.Effect{Kind: grimoire.Damage, To: grimoire.ToAll, Min: 30, Max: 30})
	s.Fighters[1].HP = 20
	s, evs := act(t, s, 0, CastSpell{Spell: "coup-de-bouclier", Cell: "c1"})
	if n := len(events[FightEnded](evs)); n != 1 || s.Phase != PhaseOver || !slices.Equal(s.Winners, []int{0}) {
		t.Fatalf("%d FightEnded, phase %s, winners %v: %+v", n, s.Phase, s.Winners, evs)
	}
	if _, ok := evs[len(evs)-1].Event.(FightEnded); !ok {
		t.Fatalf("an event after the end: %+v", evs[len(evs)-1].Event)
	}
}

// A spell's zone strikes everything in it before the fight's end is judged: the hits of
// one effect land together (« à tout le monde »), never in an order that the cells' names
// would choose. The Guerrier's Tourbillon strikes the Arcaniste (at 10 HP, on b1) and its
// Élémentaire (on b3) around it: the Arcaniste falls first in the zone's order, and the
// Élémentaire is struck all the same, then the fight ends, once.
func TestAZoneStrikesAllBeforeTheEnd(t *testing.T) {
	s := position(t, `
		.2.
		.1.
		...
	`)
	s.Fighters = append(s.Fighters, summoned(s.catalog(), s.Fighters[1], Summoned{Fighter: 2, Summoner: 1, Entity: "elementaire-de-flamme", Cell: "b3"}))
	s.Fighters[1].HP = 10
	s, evs := act(t, s, 0, CastSpell{Spell: "tourbillon", Cell: "b2"})
	var struck []int
	for _, h := range events[Damaged](evs) {
		struck = append(struck, h.Fighter)
	}
	if !slices.Equal(struck, []int{1, 2}) || s.Fighters[2].HP >= s.Fighters[2].MaxHP {
		t.Fatalf("the whirlwind struck %v: %+v", struck, evs)
	}
	if n := len(events[FightEnded](evs)); n != 1 || !slices.Equal(s.Winners, []int{0}) {
		t.Fatalf("%d FightEnded, winners %v", n, s.Winners)
	}
	if _, ok := evs[len(evs)-1].Event.(FightEnded); !ok {
		t.Fatalf("an event after the end: %+v", evs[len(evs)-1].Event)
	}
}
