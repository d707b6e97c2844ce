package chess

import "testing"

// A position parsed from its FEN and given its IDs back is the position written, after
// captures and a promotion moved IDs away from where a FEN would give them; IDs that do
// not fit the board are refused.
func TestIDsGoBackOnAParsedPosition(t *testing.T) {
	p, err := ParseFEN("r3k3/1P6/8/8/8/8/8/R3K3 w Qq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, uci := range []string{"a1a8", "e8e7", "b7b8q", "e7e6", "e1d2"} {
		m, err := p.ParseMove(uci)
		if err != nil {
			t.Fatal(uci, err)
		}
		p.Play(m)
	}
	ids, last := p.IDs()
	q, err := ParseFEN(p.FEN())
	if err != nil {
		t.Fatal(err)
	}
	if q == p {
		t.Fatal("the IDs after the moves are those of a parsed FEN: the test shows nothing")
	}
	if q, err = q.WithIDs(ids, last); err != nil || q != p {
		t.Fatalf("the position given its IDs back differs (%v):\n%+v\n%+v", err, q, p)
	}
	bad := map[string][]PieceID{
		"too few":  ids[1:],
		"zero":     append([]PieceID{0}, ids[1:]...),
		"twice":    append([]PieceID{ids[1]}, ids[1:]...),
		"too high": append([]PieceID{last + 1}, ids[1:]...),
	}
	for name, ids := range bad {
		if _, err := q.WithIDs(ids, last); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
