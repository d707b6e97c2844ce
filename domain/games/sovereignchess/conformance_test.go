package sovereignchess

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
)

// Sovereign Chess passes the games' conformance suite: two players and Royale, with and
// without a clock.
func TestConformance(t *testing.T) {
	gametest.Run(t, gametest.Game{
		Rules: Rules{},
		Options: map[string]game.Options{
			"":             nil,
			"clock":        {"clock": "1+0"},
			"Royale":       {"mode": Royale},
			"Royale+clock": {"mode": Royale, "clock": "1+0"},
		},
		Matches: 3, // of each of the four: a two-player match is some 500 actions
	})
}
