package solwaris

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
)

// Solwaris passes the games' conformance suite on a small and a large arena, with and
// without a stake: among its checks, nobody learns a grimoire or a start cell of the
// other side before both are revealed.
func TestConformance(t *testing.T) {
	gametest.Run(t, gametest.Game{Rules: Rules{}, Options: map[string]game.Options{
		"":       nil,
		"caveau": {"map": "caveau"},
	}, MaxActions: 4000})
}
