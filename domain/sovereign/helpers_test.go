package sovereign

import (
	"strings"
	"testing"
)

// board writes the board field of the notation from a list of pieces ("wki1 bki16
// npe5"): the tests' positions stay short and readable, and are still parsed by Parse.
func board(pieces string) string {
	b, err := BoardNotation(pieces)
	if err != nil {
		panic(err)
	}
	return b
}

// pos parses board(pieces) followed by the other fields of the notation.
func pos(t *testing.T, pieces, rest string) Position {
	t.Helper()
	p, err := Parse(board(pieces) + " " + rest)
	if err != nil {
		t.Fatalf("%s %s: %v", pieces, rest, err)
	}
	return p
}

func legalSet(p Position) map[string]bool {
	out := map[string]bool{}
	for _, m := range p.LegalMoves(nil) {
		out[m.String()] = true
	}
	return out
}

// expectMoves checks that every move of want is legal and every move of not is not.
func expectMoves(t *testing.T, p Position, want, not string) {
	t.Helper()
	l := legalSet(p)
	for _, m := range strings.Fields(want) {
		if !l[m] {
			t.Errorf("%s: %s should be legal", p.Notation(), m)
		}
	}
	for _, m := range strings.Fields(not) {
		if l[m] {
			t.Errorf("%s: %s should not be legal", p.Notation(), m)
		}
	}
}

// movesFrom lists the legal moves of the piece on square s, as notation strings.
func movesFrom(p Position, s string) []string {
	sq, _ := ParseSquare(s)
	var out []string
	for _, m := range p.LegalMoves(nil) {
		if m.HasStep() && m.From() == sq {
			out = append(out, m.String())
		}
	}
	return out
}

func play(t *testing.T, p Position, moves ...string) Position {
	t.Helper()
	for _, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatalf("%s: %v", p.Notation(), err)
		}
		p.Play(m)
	}
	return p
}
