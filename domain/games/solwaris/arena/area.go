package arena

import (
	"errors"
	"fmt"
	"slices"
)

// ShapeKind is the form of a spell's or a trap's zone, as data: the catalog names it by
// its text ("cross", "circle", ...), the same words as grimoire.ZoneKind.
type ShapeKind uint8

// The zone shapes. Size is n in each description; distances are counted from the
// target cell, and the "cast direction" is DirTo(caster, target).
const (
	Single ShapeKind = iota // "cell": the target cell alone
	Cross                   // "cross": the target and n cells on each side along its row and column
	XCross                  // "x": the target and n cells along each of its four diagonals
	Circle                  // "circle": every cell within Manhattan distance n (a diamond)
	Square                  // "square": every cell within n in both directions (a (2n+1)-square)
	Ring                    // "ring": every cell at Manhattan distance exactly n
	Line                    // "line": the target and n cells beyond it, in the cast direction
	Bar                     // "bar": the target and n cells on each side, across the cast direction
)

var shapeNames = [...]string{"cell", "cross", "x", "circle", "square", "ring", "line", "bar"}

// ErrUnknownShape is returned when a text names no shape.
var ErrUnknownShape = errors.New("arena: unknown zone shape")

func (k ShapeKind) String() string {
	if int(k) < len(shapeNames) {
		return shapeNames[k]
	}
	return "?shape"
}

// ParseShapeKind reads a shape's name ("cell", "cross", "x", "circle", "square",
// "ring", "line", "bar").
func ParseShapeKind(name string) (ShapeKind, error) {
	var k ShapeKind
	return k, k.UnmarshalText([]byte(name))
}

// MarshalText and UnmarshalText spell shapes in JSON catalogs.
func (k ShapeKind) MarshalText() ([]byte, error) {
	if int(k) >= len(shapeNames) {
		return nil, fmt.Errorf("%w: %d", ErrUnknownShape, k)
	}
	return []byte(shapeNames[k]), nil
}

func (k *ShapeKind) UnmarshalText(b []byte) error {
	i := slices.Index(shapeNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("%w %q", ErrUnknownShape, b)
	}
	*k = ShapeKind(i)
	return nil
}

// Shape is a zone: its kind and its size (ignored by Single).
type Shape struct {
	Kind ShapeKind `json:"kind"`
	Size int       `json:"size,omitempty"`
}

// Area lists the cells a zone of shape s covers when cast from from onto target, row by
// row from the top. The zone is clipped to the arena: only free cells are listed, and
// obstacles or void inside the zone do not stop it (a zone needs no sight from its
// centre). Line and Bar need a direction: when target == from they cover the target
// alone. A negative size counts as 0.
func (g *Grid) Area(s Shape, from, target Cell) []Cell {
	n := max(s.Size, 0)
	var out []Cell
	add := func(c Cell) {
		if g.Free(c) {
			out = append(out, c)
		}
	}
	switch s.Kind {
	case Cross, XCross:
		add(target)
		for k := 1; k <= n; k++ {
			if s.Kind == Cross {
				add(Cell{target.X, target.Y - k})
				add(Cell{target.X - k, target.Y})
				add(Cell{target.X + k, target.Y})
				add(Cell{target.X, target.Y + k})
			} else {
				add(Cell{target.X - k, target.Y - k})
				add(Cell{target.X + k, target.Y - k})
				add(Cell{target.X - k, target.Y + k})
				add(Cell{target.X + k, target.Y + k})
			}
		}
	case Circle, Square, Ring:
		for y := target.Y - n; y <= target.Y+n; y++ {
			for x := target.X - n; x <= target.X+n; x++ {
				d := Distance(target, Cell{x, y})
				if s.Kind == Square || s.Kind == Circle && d <= n || s.Kind == Ring && d == n {
					add(Cell{x, y})
				}
			}
		}
	case Line, Bar:
		d, ok := DirTo(from, target)
		if !ok {
			add(target)
			break
		}
		if s.Kind == Line {
			for k, c := 0, target; k <= n; k, c = k+1, c.Step(d) {
				add(c)
			}
			break
		}
		add(target)
		side := (d + 1) % 4 // a perpendicular direction
		for k, a, b := 1, target, target; k <= n; k++ {
			a, b = a.Step(side), b.Step(side.Opposite())
			add(a)
			add(b)
		}
	default: // Single
		add(target)
	}
	g.sortCells(out)
	return out
}

// sortCells puts cells in row order, top row first.
func (g *Grid) sortCells(cells []Cell) {
	slices.SortFunc(cells, func(a, b Cell) int {
		if a.Y != b.Y {
			return a.Y - b.Y
		}
		return a.X - b.X
	})
}
