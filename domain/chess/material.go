package chess

// InsufficientMaterial reports a dead position by material (FIDE 5.2.2 and 9.6.2 for the
// cases material alone decides): no pawn, rook or queen, and either at most one minor
// piece on the board or only bishops, all on squares of one color. King and two knights
// against a bare king is not dead: the weaker side can blunder into mate. A piece in
// hand is material.
func (p Position) InsufficientMaterial() bool {
	if p.byRole[Pawn]|p.byRole[Rook]|p.byRole[Queen] != 0 || p.holds(White) || p.holds(Black) {
		return false
	}
	minors := p.byRole[Knight] | p.byRole[Bishop]
	if !minors.more() {
		return true
	}
	bishops := p.byRole[Bishop]
	return p.byRole[Knight] == 0 && (bishops&lightSquares == 0 || bishops&^lightSquares == 0)
}
