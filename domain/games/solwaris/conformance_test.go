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
		"staked": staked,
	}, MaxActions: 4000})
}

// staked is the suite's staked match: 200 coins a seat on Caveau.
var staked = game.Options{"map": "caveau", "stake": "200"}

// The suite's staked table is a staked match as a server makes it: created by a
// registered player whose wallet covers the stake, the game told the stake, which
// decides a fight that lasts 40 rounds.
func TestConformanceTableIsStaked(t *testing.T) {
	tb := gametest.NewTable(t, Rules{}, staked, 1)
	ms, _ := tb.Snapshot()
	s, ok := ms.GameState.(State)
	if tb.Creator == "" || ms.CreatedBy != tb.Creator || !ok || s.Stake != 200 {
		t.Fatalf("the staked table: creator %q (the match's %q), game state %T with stake %d", tb.Creator, ms.CreatedBy, ms.GameState, s.Stake)
	}
}
