package chess

import (
	"errors"
	"testing"
)

// The fuzz targets' seed corpora run in every go test; go test -fuzz=FuzzParseFEN
// explores further. Either way: never a panic, always a result or a typed error.

// FuzzParseFEN: parse(format(x)) == x for any FEN accepted, bughouse FENs included: the
// FEN, pockets and promoted marks, and the UCI and SAN of every legal move, drops too.
func FuzzParseFEN(f *testing.F) {
	for _, tc := range perftPositions {
		f.Add(tc.fen)
	}
	for _, tc := range crazyhousePerfts {
		f.Add(tc.fen)
	}
	for _, s := range []string{"4r2k/8/8/8/8/8/8/4K3[N] w - - 0 1", "6rk/6pp/8/8/8/8/8/4K3[N] w - - 0 1",
		"4k3/P7/8/8/8/8/r7/4K3[Qq] w - - 0 1", "k3r3/8/8/8/1b6/8/8/4K3[QRBNP] w - - 0 1",
		"4k3/8/8/3pP3/8/8/8/4K3[PPp] w - d6 0 1", "4k3/1Q~6/8/8/8/8/8/4K3/ w - -", "8/8/8/8/8/8/8/8[] w - - 0 1"} {
		f.Add(s)
	}
	for _, s := range []string{"", "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		"k7/8/8/8/8/8/8/7K w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 99999 0", "9/8 w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			var fe *FENError
			if !errors.As(err, &fe) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted an invalid position: %v", err)
		}
		back, err := ParseFEN(p.FEN())
		if err != nil || back.FEN() != p.FEN() || back.Hash() != p.Hash() || p.Hash() != p.computeHash() ||
			back.hands != p.hands || back.promoted != p.promoted {
			t.Fatalf("%q: FEN %q does not round-trip (%v)", s, p.FEN(), err)
		}
		for _, m := range p.LegalMoves(nil) {
			for _, text := range []string{m.UCI(), p.SAN(m)} {
				if got, err := p.ParseMove(text); err != nil || got != m {
					t.Fatalf("%s: %q of %v reads back as %v (%v)", p.FEN(), text, m, got, err)
				}
			}
			if m.IsDrop() {
				if got, err := p.DropMove(m.DropRole(), m.To()); err != nil || got != m {
					t.Fatalf("%s: DropMove refuses %v: %v", p.FEN(), m, err)
				}
			}
			c := p
			c.Play(m)
			if c.Hash() != c.computeHash() {
				t.Fatalf("%q: hash drifts after %v", s, m)
			}
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, tc := range []struct{ fen, move string }{
		{StartFEN, "e4"}, {StartFEN, "Nf3"}, {StartFEN, "e2e4"}, {StartFEN, "O-O"},
		{"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rd1"}, {"8/P6k/8/8/8/8/8/K7 w - - 0 1", "a8=Q+"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6"}, {StartFEN, "Qxh9#"}, {StartFEN, "x"},
		{"4k3/8/8/8/8/8/8/4K3[Pn] w - - 0 1", "P@e4"}, {"4k3/8/8/8/8/8/8/4K3[Pn] b - - 0 1", "N@d3+"}, {StartFEN, "@e4"},
	} {
		f.Add(tc.fen, tc.move)
	}
	f.Fuzz(func(t *testing.T, fen, s string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		m, err := p.ParseMove(s)
		if err != nil {
			var me *MoveError
			if !errors.As(err, &me) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if !p.IsLegal(m) {
			t.Fatalf("%q in %s parsed to illegal %v", s, fen, m)
		}
		if back, err := p.ParseMove(p.SAN(m)); err != nil || back != m {
			t.Fatalf("SAN %q of %v does not parse back: %v", p.SAN(m), m, err)
		}
	})
}
