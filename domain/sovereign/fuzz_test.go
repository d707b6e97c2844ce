package sovereign

import (
	"errors"
	"testing"
)

// The fuzz targets' seed corpora run in every go test; go test -fuzz=FuzzParse explores
// further. Either way: never a panic, always a position or a typed error, and what is
// accepted round-trips.

func FuzzParse(f *testing.F) {
	for _, s := range []string{StartNotation, RoyaleStartNotation, middlegame, "", "16/16 1 w b - 0",
		board("wki1 bki16") + " 1 w b - 0", board("aka9 bkh16") + " 4 w* a s b - 0", board("aka9 bkh16") + " 2 - a - b - 0",
		board("wki1 bki16 wre1") + " 1 w b Ea5 0", "1/2/3 4 5 6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			var ne *NotationError
			if !errors.As(err, &ne) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		back, err := Parse(p.Notation())
		if err != nil || back.Notation() != p.Notation() {
			t.Fatalf("%q: %q does not round-trip (%v)", s, p.Notation(), err)
		}
		for _, m := range p.LegalMoves(nil) {
			c := p
			c.Play(m)
			if _, err := Parse(c.Notation()); err != nil {
				t.Fatalf("%q after %v: %v", s, m, err)
			}
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, tc := range []struct{ pos, move string }{
		{StartNotation, "e2e4"}, {StartNotation, "e2e5"}, {StartNotation, "=y"}, {StartNotation, "h10h12"},
		{middlegame, "i1j1O"}, {board("wke5 bki16") + " 1 w b - 0", "=ne5e4"}, {StartNotation, "g6g7k"},
		{RoyaleStartNotation, "escape"}, {StartNotation, "a16a1q"}, {StartNotation, "=="},
	} {
		f.Add(tc.pos, tc.move)
	}
	f.Fuzz(func(t *testing.T, notation, s string) {
		p, err := Parse(notation)
		if err != nil {
			return
		}
		m, err := p.ParseMove(s)
		if err != nil {
			var me *MoveError
			if !errors.As(err, &me) || (!errors.Is(err, ErrMalformedMove) && !errors.Is(err, ErrIllegalMove)) {
				t.Fatalf("%q: untyped error %v", s, err)
			}
			return
		}
		if m.String() != s || !p.IsLegal(m) {
			t.Fatalf("%q read as %v", s, m)
		}
	})
}
