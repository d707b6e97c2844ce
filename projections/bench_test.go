package projections_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/replay/playout"
)

// played is a memstore holding 500 chess matches of 200 moves played through the engine
// (about 104,000 events), built once for every benchmark of the package.
var played = sync.OnceValues(func() (*memstore.Store, error) {
	store := memstore.New()
	eng := engine.New(engine.Config{Store: store, Games: game.NewRegistry(classic.Rules{})})
	_, err := playout.Fill(context.Background(), eng, playout.Config{Matches: 500, Plies: 200, Seed: 11, Parallel: 16})
	return store, err
})

// BenchmarkProjectionRebuild rebuilds projections.Matches and projections.Ratings from a
// store of at least 100,000 events, and reports events/s: "memstore" is the projections'
// own cost, "sqlite" adds reading the events from an SQLite file, as `arbiter rebuild`
// and a server's boot do.
func BenchmarkProjectionRebuild(b *testing.B) {
	ctx := context.Background()
	mem, err := played()
	if err != nil {
		b.Fatal(err)
	}
	all, err := mem.ReadAll(ctx, 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	if len(all) < 100_000 {
		b.Fatalf("the store holds %d events, want at least 100,000", len(all))
	}
	lite, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "rebuild.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer lite.Close()
	if err := copyStreams(ctx, lite, all); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		store eventstore.Store
	}{{"memstore", mem}, {"sqlite", lite}} {
		b.Run(tc.name, func(b *testing.B) {
			var want string
			for b.Loop() {
				m := projections.NewMatches(game.NewRegistry(classic.Rules{}))
				if err := projections.Rebuild(ctx, tc.store, nil, m, projections.NewRatings(nil)); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if d := m.Digest(); want == "" {
					want = d
				} else if d != want {
					b.Fatalf("two rebuilds differ: %s and %s", want, d)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(len(all))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// copyStreams appends every stream of all to dst, one append per stream.
func copyStreams(ctx context.Context, dst eventstore.Store, all []eventstore.Event) error {
	var order []string
	byStream := map[string][]eventstore.Proposed{}
	for _, ev := range all {
		if _, ok := byStream[ev.Stream]; !ok {
			order = append(order, ev.Stream)
		}
		byStream[ev.Stream] = append(byStream[ev.Stream], ev.Proposed)
	}
	for _, s := range order {
		if _, err := dst.Append(ctx, s, eventstore.NoStream, byStream[s]...); err != nil {
			return err
		}
	}
	return nil
}
