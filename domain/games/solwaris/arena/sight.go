package arena

// Sight says whether a sees b (and b sees a): the segment between their centres passes
// through no obstacle cell other than a and b, nor through a corner between two
// obstacles (the rule in full is in the package comment). Only the grid counts: what
// stands on the cells never blocks sight.
//
// The walk below visits the cells the segment enters, in order, using integers only:
// with the centre of a at the origin, the segment crosses its k-th vertical cell border
// at parameter (2k+1)/(2|dx|) and its k-th horizontal one at (2k+1)/(2|dy|); comparing
// the cross products (2k+1)|dy| and (2k'+1)|dx| says which comes first, and equality is
// a corner.
func (g *Grid) Sight(a, b Cell) bool {
	if !g.In(a) || !g.In(b) {
		return false
	}
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
