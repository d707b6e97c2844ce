package projections

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/eventstore"
)

// A snapshot taken at every position of a store of every game and mode, not only at a
// sample of them: each model saved there and restored into a new one has the digest of
// the model it was saved from, and folded on to the head it has the digest of a fold
// from zero (at every position with ARBITER_SNAPSHOT_EVERY=1, about 6 minutes on 2
// vCPUs; otherwise at every 64th, the fast tests' share). The models are restored
// against the whole store, as a server restores them from an older snapshot, so a live
// match folded again from its own stream must stop at the snapshot's position.
func TestSnapshotAtEveryPositionFoldsAsFromZero(t *testing.T) {
	stride := int64(64)
	if raceDetector {
		// The read models are fed, saved and restored on the test's goroutine: under the
		// race detector a fourth of the positions (127 s of CI's race step at every 64th),
		// the detector having nothing of its own to watch here.
		stride = 256
	}
	if os.Getenv("ARBITER_SNAPSHOT_EVERY") == "1" {
		stride = 1
	}
	store, head := corpusStore(t)
	t.Run("the games as they are", func(t *testing.T) {
		everyPosition(t, store, head, stride, game.NewRegistry(classic.Rules{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{}))
	})
	// Half its live matches' states cannot be read back: they are folded again from
	// their own streams, which the whole store holds past the snapshot.
	t.Run("a chess that stores every other state", func(t *testing.T) {
		everyPosition(t, store, head, stride, game.NewRegistry(&storingChess{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{}))
	})
}

func everyPosition(t *testing.T, store eventstore.Store, head, stride int64, reg *game.Registry) {
	ctx := context.Background()
	evs, err := store.ReadAll(ctx, 0, int(head)+1)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(evs)) != head {
		t.Fatalf("read %d events, the head is %d", len(evs), head)
	}
	whole := readSide(reg, -1, store)
	if err := Rebuild(ctx, store, nil, projs(whole)...); err != nil {
		t.Fatal(err)
	}
	want := strings.Join(digests(whole), "\n")

	live := readSide(reg, -1, store) // fed one event at a time, saved at each position
	for k := int64(0); k <= head; k++ {
		if k > 0 {
			for _, m := range live {
				if err := m.Apply(evs[k-1]); err != nil {
					t.Fatalf("applying %d to %s: %v", k, m.Name(), err)
				}
			}
		}
		if k%stride != 0 {
			continue
		}
		restored := readSide(reg, -1, store)
		for i, m := range live {
			pos, data, err := m.Save()
			if err != nil {
				t.Fatalf("at %d: saving %s: %v", k, m.Name(), err)
			}
			if pos != k {
				t.Fatalf("at %d: %s saved at %d", k, m.Name(), pos)
			}
			if err := restored[i].Restore(ctx, store, pos, data); err != nil {
				t.Fatalf("at %d: restoring %s: %v", k, m.Name(), err)
			}
		}
		if got, was := strings.Join(digests(restored), "\n"), strings.Join(digests(live), "\n"); got != was {
			t.Fatalf("at %d, restored:\n%s\nsaved:\n%s", k, got, was)
		}
		for _, ev := range evs[k:] {
			for _, m := range restored {
				if err := m.Apply(ev); err != nil {
					t.Fatalf("snapshot at %d, applying %d to %s: %v", k, ev.Position, m.Name(), err)
				}
			}
		}
		if got := strings.Join(digests(restored), "\n"); got != want {
			t.Fatalf("snapshot at %d, then the tail:\n%s\nfrom zero:\n%s", k, got, want)
		}
	}
	t.Logf("%d positions", head+1)
}
