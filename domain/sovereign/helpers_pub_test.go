package sovereign

import (
	"slices"
	"strings"
	"testing"
)

func TestColourSquaresAndTwins(t *testing.T) {
	seen := 0
	for c := White; c <= Violet; c++ {
		sq := ColourSquares(c)
		for i, s := range sq {
			if SquareColour(s) != c {
				t.Errorf("%v square %v has colour %v", c, s, SquareColour(s))
			}
			if tw, ok := Twin(s); !ok || tw != sq[1-i] {
				t.Errorf("twin of %v: %v %v", s, tw, ok)
			}
			seen++
		}
	}
	if e5, _ := ParseSquare("e5"); SquareColour(e5) != Navy {
		t.Errorf("e5 is %v, want navy", SquareColour(e5))
	}
	a1, _ := ParseSquare("a1")
	if _, ok := Twin(a1); ok || SquareColour(a1) != NoColour || seen != 24 {
		t.Errorf("a1 has a colour, or %d squares of colour", seen)
	}
}

func TestParseColour(t *testing.T) {
	for in, want := range map[string]Colour{"yellow": Yellow, "Y": Yellow, "y": Yellow, "NAVY": Navy, "n": Navy, "w": White, "Ash": Ash} {
		if c, ok := ParseColour(in); !ok || c != want {
			t.Errorf("%q: %v %v, want %v", in, c, ok, want)
		}
	}
	for _, bad := range []string{"", "purple", "x", "ye", "none"} {
		if c, ok := ParseColour(bad); ok {
			t.Errorf("%q read as %v", bad, c)
		}
	}
}

func TestBoardNotation(t *testing.T) {
	b, err := BoardNotation("wki1 bki16 ppe5 wqp14")
	if err != nil {
		t.Fatal(err)
	}
	want := "8bk7/16/15wq/" + strings.Repeat("16/", 8) + "4pp11/16/16/16/8wk7"
	if b != want {
		t.Errorf("board %s, want %s", b, want)
	}
	p, err := Parse(b + " 1 w b - 0")
	if err != nil {
		t.Fatal(err)
	}
	for sq, want := range map[string]Piece{"i1": NewPiece(White, King), "i16": NewPiece(Black, King), "e5": NewPiece(Pink, Pawn), "p14": NewPiece(White, Queen)} {
		s, _ := ParseSquare(sq)
		if p.PieceAt(s) != want {
			t.Errorf("%s holds %v, want %v", sq, p.PieceAt(s), want)
		}
	}
	for _, bad := range []string{"wk", "wki17", "xki1", "wxi1", "wki1 bki1"} {
		if _, err := BoardNotation(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestGameCloneSharesNothing(t *testing.T) {
	g := NewGame(StartPosition(), Opening{Decided: true, Kept: true})
	if _, err := g.Play("f1e3"); err != nil {
		t.Fatal(err)
	}
	a, b := g.Clone(), g.Clone()
	if _, err := a.Play("f16e14"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Play("k16l14"); err != nil {
		t.Fatal(err)
	}
	str := func(ms []Move) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.String())
		}
		return out
	}
	if got := str(g.Moves()); !slices.Equal(got, []string{"f1e3"}) {
		t.Errorf("the original has %v", got)
	}
	if got := str(a.Moves()); !slices.Equal(got, []string{"f1e3", "f16e14"}) {
		t.Errorf("the first clone has %v", got)
	}
	if got := str(b.Moves()); !slices.Equal(got, []string{"f1e3", "k16l14"}) {
		t.Errorf("the second clone has %v", got)
	}
	if p := g.Position(); a.Repetitions() != 1 || p.Ply() != 1 {
		t.Error("histories mixed")
	}
}
