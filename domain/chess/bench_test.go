package chess

import (
	"testing"

	corentings "github.com/corentings/chess/v2"

	"github.com/arbiter-games/arbiter/internal/cputime"
)

// BenchmarkPerft measures move generation side by side with github.com/corentings/chess
// (a test-only dependency) at the same depth, plus arbiter alone deeper (bulk at depth
// 6, the headline figure; make at depth 5). "bulk" counts the last ply without playing it; "make" plays every
// move down to the leaves. See docs/benchmarks.md for figures and the command.
func BenchmarkPerft(b *testing.B) {
	start := StartingPosition()
	const sideBySide = 4 // a sane runtime for corentings
	b.Run("arbiter-bulk-d4", func(b *testing.B) {
		benchNodes(b, func() uint64 { return Perft(start, sideBySide) })
	})
	b.Run("arbiter-make-d4", func(b *testing.B) {
		benchNodes(b, func() uint64 {
			return perftMake(append([]Position{start}, make([]Position, sideBySide)...), sideBySide)
		})
	})
	b.Run("corentings-bulk-d4", func(b *testing.B) {
		benchNodes(b, func() uint64 { return corentingsPerft(corentings.StartingPosition(), sideBySide, true) })
	})
	b.Run("corentings-make-d4", func(b *testing.B) {
		benchNodes(b, func() uint64 { return corentingsPerft(corentings.StartingPosition(), sideBySide, false) })
	})
	b.Run("arbiter-bulk-d6", func(b *testing.B) {
		benchNodes(b, func() uint64 { return Perft(start, 6) })
	})
	b.Run("arbiter-make-d5", func(b *testing.B) {
		benchNodes(b, func() uint64 { return perftMake(append([]Position{start}, make([]Position, 5)...), 5) })
	})
}

// BenchmarkCrazyhousePerft measures the generator with drops: perft(4) of the crazyhouse
// middlegame of shakmaty's tables (2 083 382 nodes), captures going to the hand.
func BenchmarkCrazyhousePerft(b *testing.B) {
	pos, err := ParseFEN(crazyhousePerfts[2].fen)
	if err != nil {
		b.Fatal(err)
	}
	benchNodes(b, func() uint64 { return crazyhousePerft(b, pos, 4) })
}

// benchNodes runs count b.N times and reports nodes per second of wall-clock time and,
// where the platform tells, per second of CPU time ("cpu-nodes/s"), the steadier
// figure when other work shares the machine.
func benchNodes(b *testing.B, count func() uint64) {
	var nodes uint64
	cpu := cputime.Used()
	for b.Loop() {
		nodes += count()
	}
	cpu = cputime.Used() - cpu
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	if cpu > 0 {
		b.ReportMetric(float64(nodes)/cpu.Seconds(), "cpu-nodes/s")
	}
}

func corentingsPerft(pos *corentings.Position, depth int, bulk bool) uint64 {
	if depth == 0 {
		return 1
	}
	moves := pos.ValidMoves()
	if bulk && depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for i := range moves {
		n += corentingsPerft(pos.Update(&moves[i]), depth-1, bulk)
	}
	return n
}

// TestCorentingsAgrees checks the benchmark compares the same work: both libraries
// count the same tree.
func TestCorentingsAgrees(t *testing.T) {
	if got := corentingsPerft(corentings.StartingPosition(), 3, true); got != 8902 {
		t.Fatalf("corentings perft(3) = %d, want 8902", got)
	}
}

// BenchmarkFEN measures writing a middlegame position's FEN, which every chess move's
// event carries (the position after it).
func BenchmarkFEN(b *testing.B) {
	pos, err := ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = pos.FEN()
	}
}
