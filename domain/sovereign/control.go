package sovereign

// updateControl recomputes which player controls each colour, from scratch: owned
// colours belong to their owners (a player who withdrew owns none); any other colour X
// is controlled by whoever controls the piece on the occupied square of colour X,
// followed along the chain (a pink pawn on a cyan square gives cyan to the controller of
// pink). A player never controls a colour another player owns, since the chain stops at
// owned colours. A chain that runs into an empty pair of squares, or loops (pink on
// yellow, yellow on pink), controls nothing; the walk stops after twelve links, so
// cycles cannot hang it.
//
// It runs after every move: twenty-four squares and at most a dozen links per colour,
// cheaper than keeping control incrementally right through captures and regime changes.
func (p *Position) updateControl() {
	var on [12]Colour // the colour of the piece on each colour's occupied square
	for c := range on {
		on[c] = NoColour
		for _, s := range colourSquares[c] {
			if pc := p.board[s]; pc != 0 {
				on[c] = pc.Colour()
			}
		}
	}
	var owner [12]int8
	for c := range owner {
		owner[c] = -1
	}
	for pl := 0; pl < int(p.players); pl++ {
		if p.owned[pl] < 12 { // NoColour: the player withdrew
			owner[p.owned[pl]] = int8(pl)
		}
	}
	p.controls = [4]uint16{}
	for c := range p.controller {
		ctl := owner[c]
		for x, n := Colour(c), 0; ctl < 0 && n < 12; n++ {
			x = on[x]
			if x == NoColour {
				break
			}
			ctl = owner[x]
		}
		p.controller[c] = ctl
		if ctl >= 0 {
			p.controls[ctl] |= 1 << c
		}
	}
}
