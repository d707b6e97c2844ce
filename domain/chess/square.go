package chess

import "fmt"

// Color is a side: White or Black.
type Color uint8

// The two sides.
const (
	White Color = iota
	Black
	NoColor // the winner of a draw
)

// Other is the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

var colorNames = [...]string{"white", "black", "none"}

func (c Color) String() string {
	if int(c) < len(colorNames) {
		return colorNames[c]
	}
	return "none"
}

// Role is the kind of a piece, independent of its color.
type Role uint8

// The roles. NoRole marks an empty square.
const (
	NoRole Role = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

var roleNames = [...]string{"none", "pawn", "knight", "bishop", "rook", "queen", "king"}

func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return fmt.Sprintf("Role(%d)", r)
}

// letter is the upper-case SAN/FEN letter of r ("" for pawns and NoRole).
func (r Role) letter() byte { return " PNBRQK"[r] }

// roleFromLetter reads an upper- or lower-case piece letter.
func roleFromLetter(c byte) Role {
	switch c | 0x20 {
	case 'p':
		return Pawn
	case 'n':
		return Knight
	case 'b':
		return Bishop
	case 'r':
		return Rook
	case 'q':
		return Queen
	case 'k':
		return King
	}
	return NoRole
}

// Piece is a colored role. The zero Piece (Role NoRole) is no piece.
type Piece struct {
	Color Color
	Role  Role
}

// FEN letter of the piece: upper case for White.
func (p Piece) String() string {
	if p.Role == NoRole || p.Role > King {
		return "-"
	}
	c := p.Role.letter()
	if p.Color == Black {
		c |= 0x20
	}
	return string(c)
}

// PieceID names one piece for the whole game; 0 is no piece. IDs are given a1..h8 in
// board order when a position is created (1..32 for the starting position); a moving
// piece keeps its ID, a promoted pawn keeps its ID (only its role changes), a captured
// piece's ID leaves the board. IDs are part of neither the FEN nor the hash: two positions
// with the same pieces on the same squares are the same chess position.
type PieceID uint16

// Square is a square of the board, a1 = 0, b1 = 1, ..., h8 = 63.
type Square uint8

// NoSquare is the absent square (no en passant, not found).
const NoSquare Square = 64

// The squares.
const (
	A1 Square = iota
	B1
	C1
	D1
	E1
	F1
	G1
	H1
	A2
	B2
	C2
	D2
	E2
	F2
	G2
	H2
	A3
	B3
	C3
	D3
	E3
	F3
	G3
	H3
	A4
	B4
	C4
	D4
	E4
	F4
	G4
	H4
	A5
	B5
	C5
	D5
	E5
	F5
	G5
	H5
	A6
	B6
	C6
	D6
	E6
	F6
	G6
	H6
	A7
	B7
	C7
	D7
	E7
	F7
	G7
	H7
	A8
	B8
	C8
	D8
	E8
	F8
	G8
	H8
)

// NewSquare is the square on file 0..7 (a..h) and rank 0..7 (1..8).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File is 0..7 for a..h.
func (s Square) File() int { return int(s & 7) }

// Rank is 0..7 for 1..8.
func (s Square) Rank() int { return int(s >> 3) }

// String is the algebraic name, "e4"; "-" for NoSquare.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{'a' + byte(s.File()), '1' + byte(s.Rank())})
}

// ParseSquare reads an algebraic square name such as "e4".
func ParseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, false
	}
	return NewSquare(int(s[0]-'a'), int(s[1]-'1')), true
}
