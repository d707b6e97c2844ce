package projections

import (
	"context"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/match"
)

// A snapshot holds the state of every Solwaris match as the game's stored form
// (game.Snapshotting), and reads it back with the game's decoder: a boot from it folds
// no Solwaris match again. Restoring a view falls back to folding its events without a
// word when its form does not read back (restoredState), so the digests of the snapshot
// tests would not tell; this test does. Its cuts are positions of the corpus's store
// where Solwaris matches are live, in each phase they reach there.
func TestSolwarisMatchesAreStoredNotFoldedAgain(t *testing.T) {
	ctx := context.Background()
	store, head := corpusStore(t)
	reg := game.NewRegistry(solwaris.Rules{})
	live, phases := 0, map[string]bool{}
	for cut := int64(0); cut <= head; cut += head/40 + 1 {
		m := NewMatches(reg)
		if err := Rebuild(ctx, upTo{store, cut}, nil, m); err != nil {
			t.Fatal(err)
		}
		_, data, err := m.Save()
		if err != nil {
			t.Fatal(err)
		}
		var s StoredMatches
		if err := decode(data, &s); err != nil {
			t.Fatal(err)
		}
		for _, v := range append(s.Views, s.Moving...) {
			if v.State.Game != solwaris.ID {
				continue
			}
			if v.Refold {
				t.Fatalf("at %d: match %s (%s, version %d) is to be folded again", cut, v.ID, v.State.Status, v.Version)
			}
			if v.GameState == nil {
				continue // not begun: no game state yet
			}
			st, ok := restoredState(solwaris.Rules{}, v.GameState)
			if !ok {
				_, err := solwaris.Rules{}.DecodeState(v.GameState)
				t.Fatalf("at %d: match %s's stored state does not read back: %v", cut, v.ID, err)
			}
			if v.State.Status == match.Live {
				live++
				phases[solwaris.Rules{}.Status(st).Phase] = true
			}
		}
	}
	if live == 0 || !phases[solwaris.PhasePlay] {
		t.Fatalf("the cuts met %d live Solwaris matches, in phases %v", live, phases)
	}
	t.Logf("%d live Solwaris matches stored, in phases %v", live, phases)
}
