package arena

import (
	"testing"

	"github.com/arbiter-games/arbiter/internal/cputime"
)

// eightSpells are ranges of the kinds a class's grimoire holds: melee, short and long
// with sight, a minimum range (the Comète's 3), straight lines with and without sight,
// the caster's own cell, and a long reach that ignores sight.
var eightSpells = [8]Range{
	{Min: 1, Max: 1},
	{Min: 1, Max: 5, Sight: true},
	{Min: 3, Max: 8, Sight: true},
	{Min: 1, Max: 6, Straight: true, Sight: true},
	{Min: 0, Max: 0},
	{Min: 2, Max: 7, Sight: true},
	{Min: 1, Max: 4, Straight: true},
	{Min: 1, Max: 10, Sight: true},
}

// benchFighter is where the caster stands on the Grande Plaine: o8, near the middle,
// with the plain's rocks and walls in range.
func benchFighter(b *testing.B) (*Map, Cell) {
	m, err := ByID("grande-plaine")
	if err != nil {
		b.Fatal(err)
	}
	c, err := m.ParseCell("o8")
	if err != nil || !m.Free(c) {
		b.Fatal("o8 is not free on the Grande Plaine")
	}
	m.Sight(c, c) // the sight table is built once per map, outside the timings (BenchmarkSightTable)
	return m, c
}

// loop runs op b.N times and reports, beside ns/op, the CPU time per op ("cpu-ns/op"):
// on a shared machine the wall clock swings with the other work, the CPU time hardly.
func loop(b *testing.B, op func()) {
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		op()
	}
	if cpu = cputime.Used() - cpu; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkTargetsEightSpells is the legal target cells of all eight spells, one op
// (the goal: under 100 µs). The "buffer" variant reuses one slice, as a bot would.
func BenchmarkTargetsEightSpells(b *testing.B) {
	m, from := benchFighter(b)
	b.Run("alloc", func(b *testing.B) {
		n := 0
		loop(b, func() {
			n = 0
			for _, r := range eightSpells {
				n += len(m.Targets(from, r))
			}
		})
		b.ReportMetric(float64(n), "cells/op")
	})
	b.Run("buffer", func(b *testing.B) {
		buf := make([]Cell, 0, 512)
		n := 0
		loop(b, func() {
			n = 0
			for _, r := range eightSpells {
				buf = m.AppendTargets(buf[:0], from, r)
				n += len(buf)
			}
		})
		b.ReportMetric(float64(n), "cells/op")
	})
}

// BenchmarkReachable6MP is the cells a fighter reaches with 6 MP on the Grande Plaine,
// with the opponent and a summon standing in the way.
func BenchmarkReachable6MP(b *testing.B) {
	m, from := benchFighter(b)
	blocked := []Cell{from, {from.X + 2, from.Y}, {from.X, from.Y - 3}}
	n := 0
	loop(b, func() { n = len(m.Reachable(from, 6, blocked)) })
	b.ReportMetric(float64(n), "cells/op")
}

// BenchmarkSight is one line of sight on the Grande Plaine, averaged over every cell
// seen from the fighter's cell.
func BenchmarkSight(b *testing.B) {
	m, from := benchFighter(b)
	cells := m.Playable()
	i := 0
	loop(b, func() {
		m.Sight(from, cells[i%len(cells)])
		i++
	})
}

// BenchmarkSightTable is the one-time cost of the sight table of the Grande Plaine
// (every pair of its 476 free cells walked once), paid at a map's first Sight.
func BenchmarkSightTable(b *testing.B) {
	m, _ := benchFighter(b)
	loop(b, func() {
		g, err := ParseGrid(m.String())
		if err != nil {
			b.Fatal(err)
		}
		g.sightTable()
	})
}
