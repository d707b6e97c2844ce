package magicchess

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// The view of the player to act at the first move, with ten cards in hand: what every
// read of the match and the bot's every turn pay (the hand's targets are computed for
// each card).
func BenchmarkViewWithAFullHand(b *testing.B) {
	hand := classicDeck()[:10]
	s := table(b, start, hand, nil)
	p := game.Viewpoint{Seats: []int{0}, Teams: []int{0}}
	b.ReportAllocs()
	for b.Loop() {
		Rules{}.View(s, p).Plays()
	}
}
