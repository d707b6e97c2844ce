package solwaris

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
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
