package replay_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
	"github.com/arbiter-games/arbiter/replay/playout"
)

// BenchmarkRebuild200Moves rebuilds the state of a stored 200-move chess match: "fold"
// decodes and folds events already in memory (what the engine's cache and projections
// do), "sqlite" reads the stream from an SQLite file first (what `arbiter replay` does).
func BenchmarkRebuild200Moves(b *testing.B) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "replay.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	eng := engine.New(engine.Config{Store: store, Games: registry()})
	m, err := playout.Create(ctx, eng, 0, 42, 200)
	if err != nil {
		b.Fatal(err)
	}
	if len(m.Moves) != 200 {
		b.Fatalf("the playout has %d moves, want 200", len(m.Moves))
	}
	if err := m.Play(ctx, eng, 0, 200, nil); err != nil {
		b.Fatal(err)
	}
	evs, err := store.ReadStream(ctx, matchstream.Name(m.ID), 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("fold", func(b *testing.B) {
		for b.Loop() {
			if _, err := replay.Fold(registry(), evs); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/op")
	})
	b.Run("sqlite", func(b *testing.B) {
		for b.Loop() {
			if _, err := replay.State(ctx, store, registry(), m.ID, 0); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/op")
	})
}
