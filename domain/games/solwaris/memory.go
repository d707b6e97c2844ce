package solwaris

import (
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
)

var (
	_ game.Remembering = Rules{}
	_ game.Recalling   = ChooseGrimoire{}
)

// Remembered is the grimoires locked at the launch of a match, each under its class: what
// a player's next chooseGrimoire of that class takes when it names no variants. A seat
// given the default grimoire at the deadline chose nothing, and is not remembered; a match
// that ends before the lock fixes no grimoire.
func (Rules) Remembered(e game.Event) []game.Choice {
	l, ok := e.(GrimoiresLocked)
	if !ok {
		return nil
	}
	var out []game.Choice
	for _, g := range l.Grimoires {
		if slices.Contains(l.Auto, g.Seat) {
			continue
		}
		out = append(out, game.Choice{Seat: g.Seat, Key: g.Class, Values: slices.Clone(g.Variants)})
	}
	return out
}

// Recalls is the class a chooseGrimoire that names no variants (nil, not an empty list)
// takes its variants back under.
func (c ChooseGrimoire) Recalls() (string, string, bool) { return ID, c.Class, c.Variants == nil }

// Recall is the choice with the variants its player last locked with the class; none (a
// class never locked) are its originals.
func (c ChooseGrimoire) Recall(variants []string) any {
	c.Variants = slices.Clone(variants)
	if c.Variants == nil {
		c.Variants = []string{}
	}
	return c
}
