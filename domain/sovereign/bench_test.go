package sovereign

import (
	"testing"

	"github.com/arbiter-games/arbiter/internal/cputime"
)

// BenchmarkPerft measures legal move generation with control recomputation: bulk
// counting (the last ply counted, though every two-player move is played once for the
// legality test). nodes/s is per wall-clock second, cpu-nodes/s per second of CPU time
// (what one core delivers when other work shares the machine). Figures and the command
// are in docs/benchmarks.md.
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
			cpu := cputime.Used()
			for b.Loop() {
				nodes += Perft(bc.pos, bc.depth)
			}
			cpu = cputime.Used() - cpu
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			if cpu > 0 {
				b.ReportMetric(float64(nodes)/cpu.Seconds(), "cpu-nodes/s")
			}
		})
	}
}
