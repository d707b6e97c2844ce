package unfair

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
)

// UnfairChess passes the games' conformance suite, with and without a clock: among its
// checks, no card of a hand or a deck reaches a viewer who may not see it.
func TestConformance(t *testing.T) {
	gametest.Run(t, gametest.Game{
		Rules: Rules{},
		Options: map[string]game.Options{
			"":      nil,
			"clock": {"clock": "1+2"},
		},
		Act:             player,
		MaxActions:      600,
		EndsByAgreement: true, // no draw by material: two bare kings play on until the players agree
	})
}

// mating is a move that mates, if the seat to act has one.
func mating(s State) (game.Move, bool) {
	for _, m := range legal(s) {
		_, after, err := s.decideMove(m)
		if err != nil {
			panic(err)
		}
		if st := (Rules{}).Status(after); st.Over && len(st.Outcome.Winners) == 1 {
			return game.Move{Notation: m}, true
		}
	}
	return game.Move{}, false
}
