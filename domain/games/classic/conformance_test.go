package classic

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
)

// Chess passes the games' conformance suite, with and without a clock.
func TestConformance(t *testing.T) {
	gametest.Run(t, gametest.Game{
		Rules: Rules{},
		Options: map[string]game.Options{
			"":      nil,
			"clock": {"clock": "1+0"},
		},
	})
}
