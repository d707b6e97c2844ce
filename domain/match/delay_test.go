package match_test

import (
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
)

// The spectator delay is the match's option: recorded with the others, hidden from the
// game's rules (chess refuses options it does not know), and bounded.
func TestSpectatorDelayOption(t *testing.T) {
	tb := &table{t: t}
	opts := game.Options{match.SpectatorDelayOption: "30", "clock": "5+3"}
	tb.do(match.Create{Game: classic.ID, Options: opts, Seed: seed, At: t0})
	tb.do(match.Join{Entropy: entropy, PlayerID: "alice", Name: "Alice", At: t0})
	tb.do(match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", At: t0})
	if tb.state.Status != match.Live {
		t.Fatalf("the match did not start: %s", tb.state.Status)
	}
	if d, err := match.SpectatorDelay(tb.state.Options); err != nil || d != 30*time.Second {
		t.Fatalf("the recorded delay is %v, %v; want 30s", d, err)
	}
	for _, bad := range []string{"-1", "901", "ten", "1.5"} {
		_, err := match.Decide(rules, match.State{}, match.Create{Game: classic.ID, Options: game.Options{match.SpectatorDelayOption: bad}, Seed: seed, At: t0})
		if game.CodeOf(err) != game.BadInput {
			t.Errorf("spectatorDelay %q: got %v, want BAD_INPUT", bad, err)
		}
	}
}
