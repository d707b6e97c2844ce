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
func (g *Grid) Targets(from Cell, r Range) []Cell { return g.AppendTargets(nil, from, r) }

// AppendTargets appends the cells of Targets to dst and returns it, for callers that
// reuse one buffer over many spells.
func (g *Grid) AppendTargets(dst []Cell, from Cell, r Range) []Cell {
	if !g.In(from) || r.Max < r.Min || r.Max < 0 {
		return dst
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
			if r.Sight && !g.Sight(from, c) {
				continue
			}
			dst = append(dst, c)
		}
	}
	return dst
}
