package sovereign

// attacked reports whether a piece of a colour in the set by could capture on s: the
// test for check, with every Sovereign restriction that applies to a capture. A piece
// never lands on a square of its own colour, so a king on a square of colour X is safe
// from X pieces; sliders reach at most eight squares (the rays stop there). The other
// square of the king's colour is empty, or is where the attacker stands, so the
// one-square-of-each-colour rule never stops a capture on an occupied square.
func (p *Position) attacked(s Square, by uint16) bool {
	if sc := squareColour[s]; sc != NoColour {
		by &^= 1 << sc
	}
	if by == 0 {
		return false
	}
	for d := 0; d < 8; d++ {
		ray := &rays[s][d]
		for i, n := 0, int(rayLen[s][d]); i < n; i++ {
			pc := p.board[ray[i]]
			if pc == 0 {
				continue
			}
			if by&(1<<pc.Colour()) != 0 {
				switch pc.Role() {
				case Queen:
					return true
				case Rook:
					if d < 4 {
						return true
					}
				case Bishop:
					if d >= 4 {
						return true
					}
				case King:
					if i == 0 {
						return true
					}
				case Pawn:
					if i == 0 && d >= 4 && pawnCaptDirs[ray[i]]&(1<<opposite(d)) != 0 {
						return true
					}
				}
			}
			break
		}
	}
	for i, n := 0, int(knightLen[s]); i < n; i++ {
		if pc := p.board[knightTo[s][i]]; pc.Role() == Knight && by&(1<<pc.Colour()) != 0 {
			return true
		}
	}
	return false
}
