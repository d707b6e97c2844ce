package arena

import (
	"errors"
	"fmt"
	"strconv"
)

// MaxSide is the largest width and height of an arena: two column letters ("a" to "az")
// and two row digits are always enough to name a cell.
const MaxSide = 52

// Cell is a square of an arena: X is the column from 0 (left), Y the row from 0 (top).
// It is a plain value, comparable and usable as a map key; a Cell outside a given grid
// is not an error until a Grid method is asked about it.
type Cell struct{ X, Y int }

// ErrCellSyntax is wrapped by every error of ParseCell; ErrOutside by Grid.ParseCell for
// a well-formed cell beyond the grid's edge.
var (
	ErrCellSyntax = errors.New("arena: bad cell notation")
	ErrOutside    = errors.New("arena: cell outside the arena")
)

// CellError says which text could not be read as a cell, and why.
type CellError struct {
	Text string
	Err  error // ErrCellSyntax or ErrOutside
	Why  string
}

func (e *CellError) Error() string { return fmt.Sprintf("%v: %q: %s", e.Err, e.Text, e.Why) }
func (e *CellError) Unwrap() error { return e.Err }

// String names the cell: column letters then the row number, both counted from the top
// left corner: a1 is the top left cell, b1 its right neighbour, a2 the cell below it.
// Columns after z are aa, ab, ... az (as spreadsheets count), so "ab12" is column 28,
// row 12. A cell with a negative coordinate or beyond MaxSide prints as "?x,y".
func (c Cell) String() string {
	if c.X < 0 || c.Y < 0 || c.X >= MaxSide || c.Y >= MaxSide {
		return fmt.Sprintf("?%d,%d", c.X, c.Y)
	}
	return ColumnName(c.X) + strconv.Itoa(c.Y+1)
}

// ColumnName is the letters of column x (0 is "a", 26 is "aa"), for x in [0, MaxSide).
func ColumnName(x int) string {
	if x < 26 {
		return string(rune('a' + x))
	}
	return string([]rune{rune('a' + x/26 - 1), rune('a' + x%26)})
}

// ParseCell reads a cell name as String writes it: one or two lowercase letters (the
// column, "a" to "az") followed by a row number from 1 without leading zeros. It knows
// no grid: Grid.ParseCell also checks that the cell is on the arena.
func ParseCell(s string) (Cell, error) {
	bad := func(why string) (Cell, error) {
		return Cell{}, &CellError{Text: s, Err: ErrCellSyntax, Why: why}
	}
	i := 0
	for i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
		i++
	}
	switch {
	case i == 0:
		return bad("it must start with a column letter a-z")
	case i > 2:
		return bad("at most two column letters")
	case i == len(s):
		return bad("a row number must follow the column")
	}
	x := int(s[i-1] - 'a')
	if i == 2 {
		x += 26 * int(s[0]-'a'+1)
	}
	if x >= MaxSide {
		return bad(fmt.Sprintf("columns stop at %s", ColumnName(MaxSide-1)))
	}
	digits := s[i:]
	if digits[0] == '0' {
		return bad("rows count from 1, without leading zeros")
	}
	y := 0
	for _, r := range digits {
		if r < '0' || r > '9' {
			return bad("the row must be digits only")
		}
		y = y*10 + int(r-'0')
		if y > MaxSide {
			return bad(fmt.Sprintf("rows stop at %d", MaxSide))
		}
	}
	return Cell{X: x, Y: y - 1}, nil
}

// MarshalText writes the cell's name, so that events and JSON carry "c7" rather than
// coordinates; a cell that has no name (negative, or beyond MaxSide) is an error.
func (c Cell) MarshalText() ([]byte, error) {
	if c.X < 0 || c.Y < 0 || c.X >= MaxSide || c.Y >= MaxSide {
		return nil, &CellError{Text: c.String(), Err: ErrCellSyntax, Why: "no cell has these coordinates"}
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a cell's name as ParseCell does.
func (c *Cell) UnmarshalText(b []byte) error {
	v, err := ParseCell(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// Distance is the Manhattan distance: diagonals shorten nothing.
func Distance(a, b Cell) int { return abs(a.X-b.X) + abs(a.Y-b.Y) }

// Straight says whether a and b share a row or a column (a cell is in line with itself).
func Straight(a, b Cell) bool { return a.X == b.X || a.Y == b.Y }

// Dir is one of the four directions of a push, a pull or a line-shaped zone.
type Dir uint8

// The four directions; North is towards row 1.
const (
	North Dir = iota
	East
	South
	West
)

var dirNames = [4]string{"north", "east", "south", "west"}

func (d Dir) String() string {
	if d > West {
		return "?dir"
	}
	return dirNames[d]
}

// Delta is the step of one cell in direction d.
func (d Dir) Delta() (dx, dy int) {
	switch d {
	case North:
		return 0, -1
	case East:
		return 1, 0
	case South:
		return 0, 1
	default:
		return -1, 0
	}
}

// Opposite is the direction back.
func (d Dir) Opposite() Dir { return (d + 2) % 4 }

// Step is the neighbour of c in direction d (maybe outside any grid).
func (c Cell) Step(d Dir) Cell {
	dx, dy := d.Delta()
	return Cell{c.X + dx, c.Y + dy}
}

// DirTo is the direction from a towards b along the axis where they are farther apart;
// when they are as far apart on both axes the horizontal one wins (East or West). ok is
// false when a == b, which has no direction.
func DirTo(a, b Cell) (d Dir, ok bool) {
	dx, dy := b.X-a.X, b.Y-a.Y
	switch {
	case dx == 0 && dy == 0:
		return North, false
	case abs(dx) >= abs(dy) && dx > 0:
		return East, true
	case abs(dx) >= abs(dy):
		return West, true
	case dy > 0:
		return South, true
	default:
		return North, true
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
