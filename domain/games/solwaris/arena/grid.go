package arena

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Kind is what a cell is made of. Only Free cells are playable: fighters stand, walk and
// are pushed there, spells target them. An Obstacle blocks passage and sight; Void (the
// outside of an irregular arena, a precipice, a pit) blocks passage but not sight.
type Kind uint8

// The three kinds of cell.
const (
	Free Kind = iota
	Obstacle
	Void
)

func (k Kind) String() string {
	switch k {
	case Free:
		return "free"
	case Obstacle:
		return "obstacle"
	case Void:
		return "void"
	}
	return "?kind"
}

// Side is one of the two sides of a duel (or of a 2v2: two fighters per side). Each side
// starts in its own zone.
type Side uint8

// The two sides, drawn 'A' and 'B' in the maps.
const (
	SideA Side = iota
	SideB
)

func (s Side) String() string { return string(rune('A' + s)) }

// The errors of reading and checking a grid; each MapError wraps one of them.
var (
	ErrMapSyntax     = errors.New("arena: bad map text")
	ErrObstacleShape = errors.New("arena: obstacle of a shape no rule allows")
	ErrDisconnected  = errors.New("arena: playable cells not all connected")
	ErrZones         = errors.New("arena: bad start zones")
	ErrPlayableCount = errors.New("arena: playable cells differ from the header")
)

// MapError says which map (its id, empty for a grid alone), which line of the text when
// it is known, and what is wrong.
type MapError struct {
	Map  string
	Line int // 1-based line of the text, 0 when the error is about the whole map
	Err  error
	Why  string
}

func (e *MapError) Error() string {
	where := e.Map
	if e.Line > 0 {
		where = fmt.Sprintf("%s line %d", where, e.Line)
	}
	if where != "" {
		where += ": "
	}
	return fmt.Sprintf("%s%v: %s", where, e.Err, e.Why)
}
func (e *MapError) Unwrap() error { return e.Err }

// Grid is the ground of an arena: its cells, its obstacles (one or several cells each),
// its start zones. It never changes once parsed and is safe for concurrent use; what
// stands on it (fighters, summons, charges, traps) is the game's and is passed to the
// methods that care as a list of blocked cells.
type Grid struct {
	w, h      int
	kind      []Kind  // by index y*w+x
	obstacle  []int16 // index into obstacles, -1 for cells that are not obstacles
	zone      []int8  // Side of the start zone, -1 outside zones
	text      []byte  // the letters the grid was drawn with, for String
	obstacles [][]Cell
	zones     [2][]Cell
	playable  []Cell

	sightOnce sync.Once
	sight     []uint64 // sight between free cells: bit b of row a (words uint64s a row)
	words     int
}

// ParseGrid reads a grid drawn in ASCII, one line per row, top row first:
//
//	.   a free cell
//	A B a free cell in the start zone of side A or B
//	#   an obstacle of one cell (a rock, a crate)
//	a-z an obstacle of several cells: the cells of one letter that touch by a side form
//	    one obstacle, a wall (two to four cells in a row) or a vault (two by two)
//	~   void
//
// Blank lines before and after the picture are skipped and each line is trimmed of
// spaces and tabs, so a grid can be written indented in a Go string. All rows must have
// the same width, at most MaxSide; there must be at least one free cell. Zones and
// connectivity are not required of a grid alone (tests draw small positions); Validate
// checks what a map must satisfy.
func ParseGrid(text string) (*Grid, error) {
	return parseGrid("", 0, strings.Split(text, "\n"))
}

func parseGrid(id string, firstLine int, lines []string) (*Grid, error) {
	// bad reports an error at lines[i], or about the whole picture when i < 0; lines[0]
	// is line firstLine+1 of the text.
	bad := func(i int, why string, args ...any) error {
		line := 0
		if i >= 0 {
			line = firstLine + i + 1
		}
		return &MapError{Map: id, Line: line, Err: ErrMapSyntax, Why: fmt.Sprintf(why, args...)}
	}
	var rows []string
	var rowLine []int
	for i, l := range lines {
		l = strings.Trim(l, " \t\r")
		if l == "" {
			if len(rows) > 0 {
				// A blank line ends the picture; anything after it is an error.
				for j := i + 1; j < len(lines); j++ {
					if strings.TrimSpace(lines[j]) != "" {
						return nil, bad(j, "a blank line inside the picture")
					}
				}
				break
			}
			continue
		}
		rows = append(rows, l)
		rowLine = append(rowLine, i)
	}
	if len(rows) == 0 {
		return nil, bad(-1, "no rows")
	}
	w, h := len(rows[0]), len(rows)
	if w > MaxSide || h > MaxSide {
		return nil, bad(-1, "%dx%d is larger than %dx%d", w, h, MaxSide, MaxSide)
	}
	g := &Grid{w: w, h: h, kind: make([]Kind, w*h), obstacle: make([]int16, w*h),
		zone: make([]int8, w*h), text: make([]byte, w*h)}
	for y, row := range rows {
		if len(row) != w {
			return nil, bad(rowLine[y], "row %d has %d cells, the first has %d", y+1, len(row), w)
		}
		for x := 0; x < w; x++ {
			i := y*w + x
			ch := row[x]
			g.text[i], g.obstacle[i], g.zone[i] = ch, -1, -1
			switch {
			case ch == '.':
			case ch == 'A' || ch == 'B':
				g.zone[i] = int8(ch - 'A')
			case ch == '#' || ch >= 'a' && ch <= 'z':
				g.kind[i] = Obstacle
			case ch == '~':
				g.kind[i] = Void
			default:
				return nil, bad(rowLine[y], "cell %s is %q; the cells are . A B # a-z ~", Cell{x, y}, ch)
			}
		}
	}
	if err := g.groupObstacles(); err != nil {
		err.(*MapError).Map = id
		return nil, err
	}
	for i, k := range g.kind {
		c := Cell{i % w, i / w}
		if k == Free {
			g.playable = append(g.playable, c)
		}
		if z := g.zone[i]; z >= 0 {
			g.zones[z] = append(g.zones[z], c)
		}
	}
	if len(g.playable) == 0 {
		return nil, bad(-1, "no free cell")
	}
	return g, nil
}

// groupObstacles gives each obstacle its cells: a '#' alone, or the side-connected cells
// of one letter, which must be a straight wall of 2 to 4 cells or a 2x2 vault.
func (g *Grid) groupObstacles() error {
	for i := range g.kind {
		if g.kind[i] != Obstacle || g.obstacle[i] >= 0 {
			continue
		}
		id := int16(len(g.obstacles))
		g.obstacle[i] = id
		group := []Cell{g.cell(i)}
		if g.text[i] != '#' {
			for k := 0; k < len(group); k++ {
				for d := North; d <= West; d++ {
					n := group[k].Step(d)
					if j, ok := g.index(n); ok && g.text[j] == g.text[i] && g.obstacle[j] < 0 {
						g.obstacle[j] = id
						group = append(group, n)
					}
				}
			}
			if !wallOrVault(group) {
				return &MapError{Err: ErrObstacleShape, Why: fmt.Sprintf(
					"obstacle %q at %s has %d cells that are neither a wall of 2 to 4 in a row nor a 2x2 vault",
					g.text[i], group[0], len(group))}
			}
		}
		g.obstacles = append(g.obstacles, group)
	}
	return nil
}

func wallOrVault(cells []Cell) bool {
	minX, minY, maxX, maxY := cells[0].X, cells[0].Y, cells[0].X, cells[0].Y
	for _, c := range cells {
		minX, minY = min(minX, c.X), min(minY, c.Y)
		maxX, maxY = max(maxX, c.X), max(maxY, c.Y)
	}
	w, h := maxX-minX+1, maxY-minY+1
	switch {
	case len(cells) < 2:
		return false
	case w == 2 && h == 2:
		return len(cells) == 4
	case w == 1 || h == 1:
		return len(cells) <= 4 && len(cells) == w*h
	}
	return false
}

// MinZone is the least number of cells of a start zone: room for the two fighters of a
// side in 2v2 with a choice left to each.
const MinZone = 4

// Validate checks what every map must satisfy beyond its syntax: the playable cells are
// all connected (by sides), and both sides have start zones of the same size, at least
// MinZone cells.
func (g *Grid) Validate() error {
	fail := func(err error, why string, args ...any) error {
		return &MapError{Err: err, Why: fmt.Sprintf(why, args...)}
	}
	a, b := len(g.zones[SideA]), len(g.zones[SideB])
	if a != b || a < MinZone {
		return fail(ErrZones, "zone A has %d cells, zone B %d; they must be equal and at least %d", a, b, MinZone)
	}
	reached := g.Reachable(g.playable[0], len(g.playable), nil)
	if len(reached)+1 != len(g.playable) {
		seen := map[Cell]bool{g.playable[0]: true}
		for _, s := range reached {
			seen[s.Cell] = true
		}
		for _, c := range g.playable {
			if !seen[c] {
				return fail(ErrDisconnected, "%s cannot be reached from %s", c, g.playable[0])
			}
		}
	}
	return nil
}

// String draws the grid as ParseGrid reads it, one line per row.
func (g *Grid) String() string {
	return strings.Join(g.Rows(), "\n")
}

// Rows are the lines of the picture, top row first (what the API can send as the cells).
func (g *Grid) Rows() []string {
	rows := make([]string, g.h)
	for y := range rows {
		rows[y] = string(g.text[y*g.w : (y+1)*g.w])
	}
	return rows
}

// Width and Height are the grid's size in cells, void included.
func (g *Grid) Width() int  { return g.w }
func (g *Grid) Height() int { return g.h }

// In says whether c is on the grid (of any kind).
func (g *Grid) In(c Cell) bool { return c.X >= 0 && c.Y >= 0 && c.X < g.w && c.Y < g.h }

// Kind is what c is made of; a cell off the grid is Void.
func (g *Grid) Kind(c Cell) Kind {
	if i, ok := g.index(c); ok {
		return g.kind[i]
	}
	return Void
}

// Free says whether c is a playable cell of the grid.
func (g *Grid) Free(c Cell) bool { return g.Kind(c) == Free }

// Playable lists the free cells, row by row from the top. The slice is the grid's: do
// not change it.
func (g *Grid) Playable() []Cell { return g.playable }

// Zone lists the start zone of side s, row by row. The slice is the grid's.
func (g *Grid) Zone(s Side) []Cell {
	if s > SideB {
		return nil
	}
	return g.zones[s]
}

// ZoneOf says which side's start zone holds c, if any.
func (g *Grid) ZoneOf(c Cell) (Side, bool) {
	if i, ok := g.index(c); ok && g.zone[i] >= 0 {
		return Side(g.zone[i]), true
	}
	return 0, false
}

// Obstacles lists the obstacles, each as its cells (one for a rock, two to four for a
// wall, four for a vault), in the order of their first cell row by row. The slices are
// the grid's.
func (g *Grid) Obstacles() [][]Cell { return g.obstacles }

// ObstacleAt is the index in Obstacles of the obstacle covering c, or -1.
func (g *Grid) ObstacleAt(c Cell) int {
	if i, ok := g.index(c); ok {
		return int(g.obstacle[i])
	}
	return -1
}

// ParseCell reads a cell name (see Cell.String) and checks that it is on this grid.
func (g *Grid) ParseCell(s string) (Cell, error) {
	c, err := ParseCell(s)
	if err != nil {
		return c, err
	}
	if !g.In(c) {
		return Cell{}, &CellError{Text: s, Err: ErrOutside,
			Why: fmt.Sprintf("the arena is %d columns (a to %s) by %d rows", g.w, ColumnName(g.w-1), g.h)}
	}
	return c, nil
}

// ParseCells reads a list of cell names (a path, as moveFighter sends it), each on this
// grid; the error says which element is wrong and wraps its *CellError.
func (g *Grid) ParseCells(names []string) ([]Cell, error) {
	out := make([]Cell, len(names))
	for i, n := range names {
		c, err := g.ParseCell(n)
		if err != nil {
			return nil, fmt.Errorf("cell %d of %d: %w", i+1, len(names), err)
		}
		out[i] = c
	}
	return out, nil
}

func (g *Grid) index(c Cell) (int, bool) {
	if !g.In(c) {
		return 0, false
	}
	return c.Y*g.w + c.X, true
}

func (g *Grid) cell(i int) Cell { return Cell{i % g.w, i / g.w} }
