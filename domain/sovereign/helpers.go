package sovereign

import (
	"fmt"
	"slices"
	"strings"
)

// Small helpers for the packages that show and arbitrate a game (domain/games/sovereignchess)
// and for tests that write positions by hand.

// SquareColour is the colour of s if it is a square of colour, else NoColour.
func SquareColour(s Square) Colour { return squareColour[s] }

// ColourSquares are the two squares of colour c (c must be one of the twelve colours).
func ColourSquares(c Colour) [2]Square { return colourSquares[c] }

// Twin is the other square of the colour of s, if s is a square of colour.
func Twin(s Square) (Square, bool) { return twin[s], squareColour[s] != NoColour }

// ParseColour reads a colour by its name ("yellow") or its notation letter ("y"), in
// any case.
func ParseColour(s string) (Colour, bool) {
	if len(s) == 1 {
		return colourOf(strings.ToLower(s)[0])
	}
	for c, name := range colourNames {
		if strings.EqualFold(s, name) {
			return Colour(c), true
		}
	}
	return NoColour, false
}

// BoardNotation writes the board field of the position notation from a list of pieces,
// each its colour letter, role letter and square, separated by spaces ("wki1 bki16
// npe5"): positions written by hand stay short and readable. It checks the words only;
// Parse checks the position.
func BoardNotation(pieces string) (string, error) {
	var b [256]Piece
	for _, f := range strings.Fields(pieces) {
		if len(f) < 4 {
			return "", fmt.Errorf("sovereign: %q is not a piece and a square, like wki1", f)
		}
		c, okc := colourOf(f[0])
		r, okr := roleOf(f[1])
		s, oks := ParseSquare(f[2:])
		if !okc || !okr || !oks {
			return "", fmt.Errorf("sovereign: %q is not a piece and a square, like wki1", f)
		}
		if b[s] != 0 {
			return "", fmt.Errorf("sovereign: two pieces on %s", s)
		}
		b[s] = NewPiece(c, r)
	}
	var out strings.Builder
	writeBoard(&out, &b)
	return out.String(), nil
}

// Clone returns a copy of g that shares no memory with it: playing a move on either
// leaves the other as it was.
func (g *Game) Clone() *Game {
	c := *g
	c.moves = slices.Clone(g.moves)
	c.keys = slices.Clone(g.keys)
	c.withdrawn = slices.Clone(g.withdrawn)
	return &c
}
