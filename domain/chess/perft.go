package chess

import "sort"

// Perft counts the leaf nodes of the legal move tree of depth plies from pos, the
// standard test of a move generator against published tables. The last ply is counted
// without being played ("bulk counting").
func Perft(pos Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return perft(&pos, depth)
}

func perft(p *Position, depth int) uint64 {
	var buf [256]Move
	moves := p.generate(buf[:0], &classic)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		child := *p
		child.Play(m)
		n += perft(&child, depth-1)
	}
	return n
}

// perftMake is Perft that plays every move down to the leaves, for the benchmark that
// measures make as well as generation.
func perftMake(p *Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var buf [256]Move
	var n uint64
	for _, m := range p.generate(buf[:0], &classic) {
		child := *p
		child.Play(m)
		n += perftMake(&child, depth-1)
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
