package sovereign

import "strings"

// Square is one of the 256 squares of the board: the file index x = s&15 (a = 0 .. p = 15)
// and the rank index y = s>>4 (rank 1 = 0 .. rank 16 = 15), as osc-ui numbers them.
type Square uint8

// SquareAt is the square of file index x and rank index y, both 0..15.
func SquareAt(x, y int) Square { return Square(x | y<<4) }

// File is the file index, 0 (a) to 15 (p).
func (s Square) File() int { return int(s & 15) }

// Rank is the rank index, 0 (rank 1) to 15 (rank 16).
func (s Square) Rank() int { return int(s >> 4) }

// String is the square's name: "a1" .. "p16".
func (s Square) String() string {
	b := []byte{'a' + byte(s.File())}
	if r := s.Rank() + 1; r >= 10 {
		b = append(b, '1', '0'+byte(r-10))
	} else {
		b = append(b, '0'+byte(r))
	}
	return string(b)
}

// parseSquare reads a square name at the start of s and says how many bytes it used
// (0 if s does not start with one). Ranks are read greedily: "a16" is a16, never a1.
func parseSquare(s string) (Square, int) {
	if len(s) < 2 || s[0] < 'a' || s[0] > 'p' || s[1] < '1' || s[1] > '9' {
		return 0, 0
	}
	x, r, n := int(s[0]-'a'), int(s[1]-'0'), 2
	if r == 1 && len(s) > 2 && s[2] >= '0' && s[2] <= '6' {
		r, n = 10+int(s[2]-'0'), 3
	}
	return SquareAt(x, r-1), n
}

// ParseSquare reads a square name such as "e2" or "h16".
func ParseSquare(s string) (Square, bool) {
	sq, n := parseSquare(s)
	return sq, n > 0 && n == len(s)
}

// Colour is one of the twelve armies (and the colour of the squares that give control of it).
type Colour uint8

// The colours in notation order: the four achromatic armies, then the eight chromatic ones.
const (
	White Colour = iota
	Ash
	Slate
	Black
	Pink
	Red
	Orange
	Yellow
	Green
	Cyan
	Navy
	Violet
	NoColour Colour = 255
)

const colourLetters = "wasbproygcnv"

var colourNames = [...]string{"white", "ash", "slate", "black", "pink", "red", "orange", "yellow", "green", "cyan", "navy", "violet"}

// Letter is the colour's notation letter (w a s b p r o y g c n v).
func (c Colour) Letter() byte { return colourLetters[c] }

func (c Colour) String() string {
	if c >= 12 {
		return "none"
	}
	return colourNames[c]
}

func colourOf(letter byte) (Colour, bool) {
	if i := strings.IndexByte(colourLetters, letter); i >= 0 {
		return Colour(i), true
	}
	return NoColour, false
}

// Role is a kind of piece.
type Role uint8

// The roles; NoRole is the zero value (an empty square, a move that does not promote).
const (
	NoRole Role = iota
	King
	Queen
	Rook
	Bishop
	Knight
	Pawn
)

const roleLetters = ".kqrbnp"

// Letter is the role's notation letter (k q r b n p).
func (r Role) Letter() byte { return roleLetters[r] }

func (r Role) String() string {
	return [...]string{"none", "king", "queen", "rook", "bishop", "knight", "pawn"}[r]
}

func roleOf(letter byte) (Role, bool) {
	if i := strings.IndexByte(roleLetters, letter); i > 0 {
		return Role(i), true
	}
	return NoRole, false
}

// Piece is a coloured piece packed in a byte: colour<<3 | role. The zero Piece is "no piece".
type Piece uint8

// NewPiece is the piece of colour c and role r.
func NewPiece(c Colour, r Role) Piece { return Piece(c)<<3 | Piece(r) }

// Colour is the piece's army.
func (p Piece) Colour() Colour { return Colour(p >> 3) }

// Role is the piece's role.
func (p Piece) Role() Role { return Role(p & 7) }

func (p Piece) String() string {
	if p == 0 {
		return ".."
	}
	return string([]byte{p.Colour().Letter(), p.Role().Letter()})
}

// PieceID names one piece for the whole game. IDs are given 1, 2, 3... in square order
// (a1, b1, .. p1, a2, ..) when a position is parsed (1..112 for either start position);
// 0 means "no piece". A moving piece keeps its ID; a promoted pawn keeps its ID, a
// crowned king included; a defecting king keeps its ID and changes colour; a captured or
// removed piece's ID leaves the board. IDs are not written in the notation.
type PieceID uint8

// The squares of colour, two per colour, as rotations of each other (board facts, section 2).
var colourSquareNames = [12][2]string{
	White: {"h9", "i8"}, Ash: {"g7", "j10"}, Slate: {"g10", "j7"}, Black: {"h8", "i9"},
	Pink: {"i6", "h11"}, Red: {"e12", "l5"}, Orange: {"f9", "k8"}, Yellow: {"f11", "k6"},
	Green: {"f6", "k11"}, Cyan: {"f8", "k9"}, Navy: {"e5", "l12"}, Violet: {"h6", "i11"},
}

// Geometry, computed once: nothing here depends on the position.
var (
	squareColour  [256]Colour       // the colour of a square of colour, NoColour elsewhere
	twin          [256]Square       // the other square of the same colour
	colourSquares [12][2]Square     // the two squares of each colour
	rays          [256][8][8]Square // the squares along each direction, nearest first, at most 8
	rayLen        [256][8]uint8
	knightTo      [256][8]Square
	knightLen     [256]uint8
	pawnStep      [256][2]Square // orthogonal steps closer to a brown line
	pawnStepLen   [256]uint8
	pawnDouble    [256][2][2]Square // two-square moves from rings 1 and 2: {over, to}
	pawnDoubleLen [256]uint8
	pawnCapture   [256][4]Square // diagonal steps closer to a brown line
	pawnCaptLen   [256]uint8
	pawnCaptDirs  [256]uint8 // bit d set: the pawn captures along diagonal direction d (4..7)
)

// The eight directions: orthogonal 0..3, diagonal 4..7. opposite(d) = d^2 within each group.
var dirs = [8][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}, {1, 1}, {1, -1}, {-1, -1}, {-1, 1}}

func opposite(d int) int { return d&4 | (d+2)&3 }

// MaxRange is how far a piece may move in one turn (rule 4).
const MaxRange = 8

func onBoard(x, y int) bool { return x >= 0 && x < 16 && y >= 0 && y < 16 }

// closer reports whether a pawn step from (x, y) to (nx, ny) brings it closer to at
// least one brown line (x = 7.5 or y = 7.5): the strict test of the decisions (board facts 8).
func closer(x, y, nx, ny int) bool {
	return abs(2*nx-15) < abs(2*x-15) || abs(2*ny-15) < abs(2*y-15)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// inZone reports whether s is in the central 4x4 (g..j, ranks 7..10) where pawns promote.
func inZone(s Square) bool {
	x, y := s.File(), s.Rank()
	return x >= 6 && x <= 9 && y >= 6 && y <= 9
}

func init() {
	for i := range squareColour {
		squareColour[i] = NoColour
	}
	for c, names := range colourSquareNames {
		a, _ := ParseSquare(names[0])
		b, _ := ParseSquare(names[1])
		colourSquares[c] = [2]Square{a, b}
		squareColour[a], squareColour[b] = Colour(c), Colour(c)
		twin[a], twin[b] = b, a
	}
	for s := 0; s < 256; s++ {
		x, y := s&15, s>>4
		for d, v := range dirs {
			for k := 1; k <= MaxRange && onBoard(x+k*v[0], y+k*v[1]); k++ {
				rays[s][d][rayLen[s][d]] = SquareAt(x+k*v[0], y+k*v[1])
				rayLen[s][d]++
			}
		}
		for _, v := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if onBoard(x+v[0], y+v[1]) {
				knightTo[s][knightLen[s]] = SquareAt(x+v[0], y+v[1])
				knightLen[s]++
			}
		}
		for d, v := range dirs {
			nx, ny := x+v[0], y+v[1]
			if !onBoard(nx, ny) || !closer(x, y, nx, ny) {
				continue
			}
			if d < 4 {
				pawnStep[s][pawnStepLen[s]] = SquareAt(nx, ny)
				pawnStepLen[s]++
			} else {
				pawnCapture[s][pawnCaptLen[s]] = SquareAt(nx, ny)
				pawnCaptLen[s]++
				pawnCaptDirs[s] |= 1 << d
			}
		}
		// Two squares away from the closest edge, from rings 1 and 2; on a square as close
		// to two edges (a1, b2, ...) away from both (a decision beyond section 8).
		dx, dy := min(x, 15-x), min(y, 15-y)
		if min(dx, dy) <= 1 {
			if dx <= dy {
				sx := 1
				if x > 7 {
					sx = -1
				}
				pawnDouble[s][pawnDoubleLen[s]] = [2]Square{SquareAt(x+sx, y), SquareAt(x+2*sx, y)}
				pawnDoubleLen[s]++
			}
			if dy <= dx {
				sy := 1
				if y > 7 {
					sy = -1
				}
				pawnDouble[s][pawnDoubleLen[s]] = [2]Square{SquareAt(x, y+sy), SquareAt(x, y+2*sy)}
				pawnDoubleLen[s]++
			}
		}
	}
}
