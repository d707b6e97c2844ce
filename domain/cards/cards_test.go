package cards

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

func TestSlotIn(t *testing.T) {
	hand := []string{"wall", "", "poison", "wall"}
	known := func(id string) bool { return id == "wall" || id == "poison" || id == "truce" }
	for _, c := range []struct {
		play   PlayCard
		slot   int
		code   game.Code
		reason string
	}{
		{PlayCard{Slot: 2}, 2, "", ""},
		{PlayCard{Slot: 0, Card: "wall"}, 0, "", ""}, // both, alike
		{PlayCard{Slot: 3, Card: "wall"}, 3, "", ""}, // the slot names which copy
		{PlayCard{Slot: 2, Card: "wall"}, -1, game.BadInput, "slot 2 of your hand holds poison, not wall: name one card (its ID, its slot, or both alike)"},
		{PlayCard{Slot: 2, Card: "joker"}, -1, game.BadInput, `Toy has no card "joker"`},
		{PlayCard{Slot: 1, Card: "wall"}, -1, game.IllegalMove, "slot 1 of your hand is empty"},
		{PlayCard{Slot: -1, Card: "wall"}, 0, "", ""},
		{PlayCard{Slot: -1, Card: "poison"}, 2, "", ""},
		{PlayCard{Slot: 4}, -1, game.BadInput, "a hand has slots 0 to 3, not 4"},
		{PlayCard{Slot: 1}, -1, game.IllegalMove, "slot 1 of your hand is empty"},
		{PlayCard{Slot: -1}, -1, game.BadInput, "name the card by its ID or by its slot"},
		{PlayCard{Slot: -1, Card: "joker"}, -1, game.BadInput, `Toy has no card "joker"`},
		{PlayCard{Slot: -1, Card: "truce"}, -1, game.IllegalMove, "truce is not in your hand"},
	} {
		slot, err := c.play.SlotIn(hand, "Toy", known)
		var reason string
		if e, ok := err.(*game.Error); ok {
			reason = e.Reason
		}
		if slot != c.slot || game.CodeOf(err) != c.code || reason != c.reason {
			t.Errorf("%+v: slot %d, %v; want slot %d, %s: %s", c.play, slot, err, c.slot, c.code, c.reason)
		}
	}
}
