package chess

import (
	"slices"
	"strings"
	"testing"
)

func mustFEN(t testing.TB, fen string) Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// movesFrom lists, sorted, the UCI of the legal moves under r that leave from.
func movesFrom(p Position, r Restrictions, from Square) string {
	var out []string
	for _, m := range p.LegalMovesWith(nil, r) {
		if m.From() == from {
			out = append(out, m.UCI())
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func has(p Position, r Restrictions, uci string) bool {
	for _, m := range p.LegalMovesWith(nil, r) {
		if m.UCI() == uci {
			return true
		}
	}
	return false
}

func id(t testing.TB, p Position, s Square) PieceID {
	t.Helper()
	i, ok := p.PieceID(s)
	if !ok {
		t.Fatalf("no piece on %v", s)
	}
	return i
}
