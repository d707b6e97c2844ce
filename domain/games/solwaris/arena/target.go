package arena

// Range is where a spell can be cast, seen from its caster: at a Manhattan distance
// between Min and Max (both included), in a straight line (same row or column) when
// Straight, and in line of sight when Sight. A spell targets free cells only, occupied
// or not: obstacles and void are never targets.
type Range struct {
	Min, Max int
	Straight bool
	Sight    bool
}

// CanTarget says whether a caster on from may aim r at to.
func (g *Grid) CanTarget(from, to Cell, r Range) bool {
	d := Distance(from, to)
	return d >= r.Min && d <= r.Max && g.Free(to) &&
		(!r.Straight || Straight(from, to)) && (!r.Sight || g.Sight(from, to))
}

// Targets lists the cells a caster on from may aim r at, row by row from the top.
func (g *Grid) Targets(from Cell, r Range) []Cell {
	n := 2*r.Max*(r.Max+1) + 1 // the cells of a diamond of radius Max
	if r.Straight {
		n = 4*r.Max + 1
	}
	return g.AppendTargets(make([]Cell, 0, max(0, min(n, len(g.playable)))), from, r)
}

// AppendTargets appends the cells of Targets to dst and returns it, for callers that
// reuse one buffer over many spells.
func (g *Grid) AppendTargets(dst []Cell, from Cell, r Range) []Cell {
	if !g.In(from) || r.Max < r.Min || r.Max < 0 {
		return dst
	}
	// With sight from a free cell, read the caster's row of the sight table directly.
	var seen bits
	if i, _ := g.index(from); r.Sight && g.kind[i] == Free {
		seen = g.sightTable()[i*g.words : (i+1)*g.words]
	}
	y0, y1 := max(from.Y-r.Max, 0), min(from.Y+r.Max, g.h-1)
	for y := y0; y <= y1; y++ {
		dy := abs(y - from.Y)
		x0, x1 := max(from.X-(r.Max-dy), 0), min(from.X+(r.Max-dy), g.w-1)
		if r.Straight && dy != 0 {
			x0, x1 = from.X, from.X
		}
		row := y * g.w
		for x := x0; x <= x1; x++ {
			if g.kind[row+x] != Free || dy+abs(x-from.X) < r.Min {
				continue
			}
			c := Cell{x, y}
			if seen != nil && !seen.has(row+x) || r.Sight && seen == nil && !g.Sight(from, c) {
				continue
			}
			dst = append(dst, c)
		}
	}
	return dst
}
