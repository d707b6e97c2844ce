package arena

// Sight says whether a sees b (and b sees a): the segment between their centres passes
// through no obstacle cell other than a and b, nor through a corner between two
// obstacles (the rule in full is in the package comment). Only the grid counts: what
// stands on the cells never blocks sight.
//
// Since the ground never changes, sight between free cells is a property of the grid:
// the first call builds a table of it (one bit per pair of cells, 30 KB and a few
// milliseconds for the Grande Plaine), and every later call reads one bit. Legal targets
// ask for sight hundreds of times per spell, which is what makes this worth it.
func (g *Grid) Sight(a, b Cell) bool {
	ia, oka := g.index(a)
	ib, okb := g.index(b)
	if !oka || !okb {
		return false
	}
	if g.kind[ia] != Free || g.kind[ib] != Free {
		return g.sightWalk(a, b)
	}
	t := g.sightTable()
	return t[ia*g.words+(ib>>6)]&(1<<(ib&63)) != 0
}

// sightTable is built once per grid, from sightWalk over every pair of free cells.
func (g *Grid) sightTable() []uint64 {
	g.sightOnce.Do(func() {
		n := g.w * g.h
		g.words = (n + 63) / 64
		t := make([]uint64, n*g.words)
		for k, a := range g.playable {
			ia := a.Y*g.w + a.X
			for _, b := range g.playable[k:] {
				if ib := b.Y*g.w + b.X; g.sightWalk(a, b) {
					t[ia*g.words+(ib>>6)] |= 1 << (ib & 63)
					t[ib*g.words+(ia>>6)] |= 1 << (ia & 63)
				}
			}
		}
		g.sight = t
	})
	return g.sight
}

// sightWalk computes sight from a to b by walking the cells the segment enters.
//
// The walk visits the cells the segment enters, in order, using integers only:
// with the centre of a at the origin, the segment crosses its k-th vertical cell border
// at parameter (2k+1)/(2|dx|) and its k-th horizontal one at (2k+1)/(2|dy|); comparing
// the cross products (2k+1)|dy| and (2k'+1)|dx| says which comes first, and equality is
// a corner.
func (g *Grid) sightWalk(a, b Cell) bool {
	dx, dy := b.X-a.X, b.Y-a.Y
	sx, sy := 1, g.w
	adx, ady := dx, dy
	if dx < 0 {
		sx, adx = -1, -dx
	}
	if dy < 0 {
		sy, ady = -g.w, -dy
	}
	i, end := a.Y*g.w+a.X, b.Y*g.w+b.X
	kind := g.kind
	for ix, iy := 0, 0; ix < adx || iy < ady; {
		l, r := (2*ix+1)*ady, (2*iy+1)*adx
		switch {
		case l == r: // through the corner: blocked between two obstacles
			if kind[i+sx] == Obstacle && kind[i+sy] == Obstacle {
				return false
			}
			i += sx + sy
			ix++
			iy++
		case l < r:
			i += sx
			ix++
		default:
			i += sy
			iy++
		}
		if kind[i] == Obstacle && i != end {
			return false
		}
	}
	return true
}
