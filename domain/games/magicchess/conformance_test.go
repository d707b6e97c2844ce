package magicchess

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
)

// Ajedrez Mágico passes the games' conformance suite, with its default clock (10+5),
// a short one and none: among its checks, no card of a hand or of the deck reaches a
// viewer who may not see it.
func TestConformance(t *testing.T) {
	gametest.Run(t, gametest.Game{
		Rules: Rules{},
		Options: map[string]game.Options{
			"":                 nil,
			"short":            {"clock": "1+2", "hand": "4", "planning": "3"},
			"untimed":          {"clock": "off"},
			"doubles":          {"boards": "2"},
			"doubles short":    {"boards": "2", "clock": "1+2", "hand": "3"},
			"advanced":         {"mode": "ADVANCED", "clock": "1+2", "hand": "6", "reaction": "1"},
			"advanced doubles": {"mode": "ADVANCED", "boards": "2", "clock": "1+2", "hand": "4", "reaction": "2"},
		},
		MaxActions:      600,
		EndsByAgreement: true, // no draw by material nor repetition: the players agree, or a flag falls
	})
}
