package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/internal/cputime"
	"github.com/arbiter-games/arbiter/replay/playout"
)

// BenchmarkMove measures the engine's own work per chess move, in the caller's goroutine:
// Handle on a warm match (decide, fingerprint, encode, append, fold). The store is the
// in-memory one, so that the figure is the engine's and not a disk's; the matches are
// arbiter bench's (playout), played round-robin over 64 of them, 60 plies each, and
// replaced by new ones (off the clock) once played out. cpu-ns/op is the process's CPU
// time (every goroutine: the GC's too) over the timed part, per move: on a shared machine
// it moves far less than ns/op.
func BenchmarkMove(b *testing.B) {
	ctx := context.Background()
	const matches, plies = 64, 60
	e := engine.New(engine.Config{Store: memstore.New(), Games: game.NewRegistry(classic.Rules{})})
	var ms []playout.Match
	next, batch := 0, 0
	var cpu time.Duration
	b.ReportAllocs()
	start := cputime.Used()
	for b.Loop() {
		if next == matches*plies || ms == nil {
			b.StopTimer()
			cpu += cputime.Used() - start
			ms = ms[:0]
			for i := range matches {
				m, err := playout.Create(ctx, e, batch*matches+i, uint64(batch*matches+i), plies)
				if err != nil {
					b.Fatal(err)
				}
				if len(m.Moves) < plies {
					b.Fatalf("match %d has %d moves; the benchmark wants %d", i, len(m.Moves), plies)
				}
				ms = append(ms, m)
			}
			next, batch = 0, batch+1
			start = cputime.Used()
			b.StartTimer()
		}
		m, ply := ms[next%matches], next/matches
		if err := m.Play(ctx, e, ply, ply+1, nil); err != nil {
			b.Fatal(err)
		}
		next++
	}
	cpu += cputime.Used() - start
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}
