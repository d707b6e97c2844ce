package sovereign

import (
	"testing"
	"time"
)

// BenchmarkPerft measures legal move generation with control recomputation: bulk
// counting (the last ply counted, though every two-player move is played once for the
// legality test). Figures and the command are in docs/benchmarks.md.
func BenchmarkPerft(b *testing.B) {
	mid, _ := Parse(middlegame)
	for _, bc := range []struct {
		name  string
		pos   Position
		depth int
	}{
		{"start-d3", StartPosition(), 3},
		{"start-d4", StartPosition(), 4},
		{"middlegame-d3", mid, 3},
		{"royale-d4", RoyaleStartPosition(), 4},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var nodes uint64
			start := time.Now()
			for b.Loop() {
				nodes += Perft(bc.pos, bc.depth)
			}
			b.ReportMetric(float64(nodes)/time.Since(start).Seconds(), "nodes/s")
		})
	}
}
