package sovereign

import "sort"

// Perft counts the leaf nodes of the legal move tree depth plies deep from pos: a
// defection counts once per colour (and once per king move when the king must move off),
// a promotion once per role. The last ply is counted without being played except where
// legality needs the move played anyway (every two-player move: make-and-test).
func Perft(pos Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	stack := make([]Position, depth+1)
	stack[0] = pos
	return perft(stack, depth)
}

// perft counts below stack[0]. In the two-player game the child that the legality test
// plays is the one it recurses into, so each move is played once.
func perft(stack []Position, depth int) uint64 {
	p := &stack[0]
	var buf [512]Move
	if p.Royale() {
		moves := p.LegalMoves(buf[:0])
		if depth == 1 {
			return uint64(len(moves))
		}
		var n uint64
		for _, m := range moves {
			stack[1] = *p
			stack[1].Play(m)
			n += perft(stack[1:], depth-1)
		}
		return n
	}
	var n uint64
	for _, m := range p.pseudo(buf[:0]) {
		if !p.legalInto(m, &stack[1]) {
			continue
		}
		if depth == 1 {
			n++
		} else {
			n += perft(stack[1:], depth-1)
		}
	}
	return n
}

// DivideEntry is the node count below one root move.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide is Perft split by root move, sorted by the move notation: the tool for finding
// which move two generators disagree on.
func Divide(pos Position, depth int) []DivideEntry {
	var out []DivideEntry
	if depth <= 0 {
		return out
	}
	for _, m := range pos.LegalMoves(nil) {
		child := pos
		child.Play(m)
		out = append(out, DivideEntry{m, Perft(child, depth-1)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Move.String() < out[j].Move.String() })
	return out
}
