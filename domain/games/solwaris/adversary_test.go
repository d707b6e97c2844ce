package solwaris

import (
	"reflect"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// What a malicious client sends, one action at a time against the same position: each is
// refused with the code that names what was wrong, and Decide returns no event, so the
// match is left as it stood (the position is compared field by field after every one).
func TestAnAdversarysActionsAreRefusedAndChangeNothing(t *testing.T) {
	s := position(t, `
		1.~..
		.#...
		....2
	`)
	s.Fighters[0].AP = 3 // short of Exécution's 6
	before := s.clone()
	cases := []struct {
		name string
		seat int
		do   any
		code game.Code
	}{
		{"a cell beyond the arena's edge", 0, CastSpell{Spell: "taille", Cell: "z9"}, game.BadInput},
		{"a cell named out of the board", 0, CastSpell{Spell: "taille", Cell: "a0"}, game.BadInput},
		{"a cell with no name", 0, CastSpell{Spell: "taille", Cell: ""}, game.BadInput},
		{"a negative row", 0, CastSpell{Spell: "taille", Cell: "a-1"}, game.BadInput},
		{"the void as a target", 0, CastSpell{Spell: "coup-de-bouclier", Cell: "c1"}, game.IllegalMove},
		{"an obstacle as a target", 0, CastSpell{Spell: "cri-de-guerre", Cell: "b2"}, game.IllegalMove},
		{"a spell the fighter does not hold", 0, CastSpell{Spell: "comete", Cell: "e3"}, game.IllegalMove},
		{"a spell of no class", 0, CastSpell{Spell: "../../etc", Cell: "b1"}, game.IllegalMove},
		{"more AP than the fighter has", 0, CastSpell{Spell: "execution", Cell: "b1"}, game.IllegalMove},
		{"a cast out of turn", 1, CastSpell{Spell: "trait-arcanique", Cell: "a1"}, game.NotYourTurn},
		{"a step out of turn", 1, MoveFighter{Path: []string{"d3"}}, game.NotYourTurn},
		{"an end of another's turn", 1, EndTurn{}, game.NotYourTurn},
		{"a step into the void", 0, MoveFighter{Path: []string{"b1", "c1"}}, game.IllegalMove},
		{"a step off the arena", 0, MoveFighter{Path: []string{"a0"}}, game.BadInput},
		{"a jump", 0, MoveFighter{Path: []string{"a3"}}, game.IllegalMove},
		{"an empty path", 0, MoveFighter{}, game.BadInput},
		{"more MP than the fighter has", 0, MoveFighter{Path: []string{"a2", "a3", "b3", "c3", "d3", "d2", "e2"}}, game.IllegalMove},
		{"a bid in play", 0, Bid{}, game.NotYourTurn},
		{"a pass in play", 1, PassBid{}, game.NotYourTurn},
		{"a grimoire in play", 0, ChooseGrimoire{Class: "arcaniste"}, game.NotYourTurn},
		{"a placement in play", 0, PlaceFighter{Cell: "e1"}, game.NotYourTurn},
		{"a seat that does not exist", 7, EndTurn{}, game.NotYourTurn},
	}
	for _, c := range cases {
		evs, err := (Rules{}).Decide(s, game.Action{Seat: c.seat, At: noon, Do: c.do})
		if game.CodeOf(err) != c.code || evs != nil {
			t.Errorf("%s (%T %+v): %v with %d events, want %s and none", c.name, c.do, c.do, err, len(evs), c.code)
		}
		if !reflect.DeepEqual(s, before) {
			t.Fatalf("%s changed the position", c.name)
		}
	}
}

// In the auction: the designated team may not buy the initiative it holds, a seat may not
// bid past its purse, nor bid twice in a row, nor bid once the auction is closed; a bid
// carries no amount (the price rises by 100 from the server's own figure), so a negative or
// absurd price cannot be sent at all.
func TestAnAdversaryInTheAuction(t *testing.T) {
	s := placed(t, 100, 100)
	d := s.Auction.Designated
	o := 1 - d
	refused(t, s, d, Bid{}, game.NotYourTurn)
	refused(t, s, o, MoveFighter{Path: []string{"a1"}}, game.NotYourTurn)
	s, _ = act(t, s, o, Bid{})
	if s.Auction.Price != BidStep {
		t.Fatalf("the first bid costs %d", s.Auction.Price)
	}
	refused(t, s, o, Bid{}, game.NotYourTurn) // its own bid stands: the other side is to answer
	refused(t, s, d, Bid{}, game.IllegalMove) // 200 is above a purse of 100
	s, _ = act(t, s, d, PassBid{})
	refused(t, s, o, Bid{}, game.NotYourTurn)
	refused(t, s, d, PassBid{}, game.NotYourTurn)
}
