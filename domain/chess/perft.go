package chess

import "sort"

// Perft counts the leaf nodes of the legal move tree of depth plies from pos, the
// standard test of a move generator against published tables. The last ply is counted
// without being played ("bulk counting").
func Perft(pos Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	stack := make([]Position, depth)
	stack[0] = pos
	return perft(stack, depth)
}

// perft counts below stack[0], playing each move into a copy in stack[1] (copy-make:
// measured faster than undoing moves, the Position being a few hundred bytes). The
// explicit stack keeps the copies off the heap, which a recursive &child would not.
func perft(stack []Position, depth int) uint64 {
	var buf [256]Move
	moves := stack[0].generate(buf[:0], &classic)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		stack[1] = stack[0]
		stack[1].Play(m)
		n += perft(stack[1:], depth-1)
	}
	return n
}

// perftMake is Perft that plays every move down to the leaves, for the benchmark that
// measures make as well as generation. stack holds depth+1 positions.
func perftMake(stack []Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var buf [256]Move
	var n uint64
	for _, m := range stack[0].generate(buf[:0], &classic) {
		stack[1] = stack[0]
		stack[1].Play(m)
		n += perftMake(stack[1:], depth-1)
	}
	return n
}

// DivideEntry is the node count below one root move.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide is Perft split by root move, in UCI order: the tool for finding which move a
// generator gets wrong.
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
	sort.Slice(out, func(i, j int) bool { return out[i].Move.UCI() < out[j].Move.UCI() })
	return out
}
