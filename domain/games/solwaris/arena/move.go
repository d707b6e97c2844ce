package arena

import (
	"errors"
	"fmt"
)

// Movement: a step goes to a side-adjacent free cell and costs 1 MP; obstacles, void and
// the blocked cells (fighters, summons, laid charges: whatever the game says stands in
// the way) cannot be entered nor crossed. The mover's own cell may be among the blocked
// cells; it is ignored.

// Step is a cell reachable by walking, with the MP it costs to get there.
type Step struct {
	Cell Cell
	Cost int
}

// The reasons a path is refused; each PathError wraps one of them.
var (
	ErrEmptyPath   = errors.New("arena: empty path")
	ErrNotAdjacent = errors.New("arena: step to a cell that is not adjacent")
	ErrNotFree     = errors.New("arena: step onto an obstacle, void or off the arena")
	ErrBlocked     = errors.New("arena: step onto an occupied cell")
	ErrNoPath      = errors.New("arena: no path")
)

// PathError says which step of a path (0 for the first) is refused and why.
type PathError struct {
	Step int
	Cell Cell
	Err  error
}

func (e *PathError) Error() string {
	return fmt.Sprintf("%v: step %d to %s", e.Err, e.Step+1, e.Cell)
}
func (e *PathError) Unwrap() error { return e.Err }

// bits is a set of cell indexes of one grid.
type bits []uint64

func (b bits) has(i int) bool { return b[i>>6]&(1<<(i&63)) != 0 }
func (b bits) set(i int)      { b[i>>6] |= 1 << (i & 63) }

func (g *Grid) blockedSet(from Cell, blocked []Cell) bits {
	b := make(bits, (g.w*g.h+63)/64)
	for _, c := range blocked {
		if i, ok := g.index(c); ok && c != from {
			b.set(i)
		}
	}
	return b
}

// walkable says whether index i can be stepped on.
func (g *Grid) walkable(i int, blocked bits) bool { return g.kind[i] == Free && !blocked.has(i) }

// neighbours appends the side-adjacent indexes of i in the order North, East, South,
// West (the order that breaks ties between shortest paths).
func (g *Grid) neighbours(dst []int, i int) []int {
	x, y := i%g.w, i/g.w
	if y > 0 {
		dst = append(dst, i-g.w)
	}
	if x < g.w-1 {
		dst = append(dst, i+1)
	}
	if y < g.h-1 {
		dst = append(dst, i+g.w)
	}
	if x > 0 {
		dst = append(dst, i-1)
	}
	return dst
}

// Reachable lists the cells a fighter on from can walk to with mp movement points, each
// with its cost (the length of a shortest path), cheapest first and, at equal cost, in
// the order a breadth-first search going North, East, South, West finds them. from itself
// is not listed. A from that is not on the grid reaches nothing.
func (g *Grid) Reachable(from Cell, mp int, blocked []Cell) []Step {
	start, ok := g.index(from)
	if !ok || mp <= 0 {
		return nil
	}
	closed := g.blockedSet(from, blocked) // blocked cells, then every cell already listed
	closed.set(start)
	// out is also the breadth-first queue: costs never decrease along it.
	out := make([]Step, 0, min(2*mp*(mp+1), len(g.playable)))
	var nb [4]int
	visit := func(i, cost int) {
		for _, n := range g.neighbours(nb[:0], i) {
			if !closed.has(n) && g.kind[n] == Free {
				closed.set(n)
				out = append(out, Step{g.cell(n), cost})
			}
		}
	}
	visit(start, 1)
	for k := 0; k < len(out) && out[k].Cost < mp; k++ {
		visit(out[k].Cell.Y*g.w+out[k].Cell.X, out[k].Cost+1)
	}
	return out
}

// Path is a shortest walk from from to to (from excluded, to included; empty when they
// are the same cell), or ErrNoPath. Among shortest walks it is the one found first going
// North, East, South, West. The game compares its length with the mover's MP.
func (g *Grid) Path(from, to Cell, blocked []Cell) ([]Cell, error) {
	start, ok1 := g.index(from)
	goal, ok2 := g.index(to)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("%w from %s to %s: %w", ErrNoPath, from, to, ErrOutside)
	}
	if start == goal {
		return []Cell{}, nil
	}
	block := g.blockedSet(from, blocked)
	if !g.walkable(goal, block) {
		return nil, fmt.Errorf("%w from %s to %s: the destination is not a free, empty cell", ErrNoPath, from, to)
	}
	parent := make([]int32, g.w*g.h)
	for i := range parent {
		parent[i] = -1
	}
	parent[start] = int32(start)
	var nb [4]int
	queue := []int{start}
	for len(queue) > 0 && parent[goal] < 0 {
		i := queue[0]
		queue = queue[1:]
		for _, n := range g.neighbours(nb[:0], i) {
			if parent[n] < 0 && g.walkable(n, block) {
				parent[n] = int32(i)
				queue = append(queue, n)
			}
		}
	}
	if parent[goal] < 0 {
		return nil, fmt.Errorf("%w from %s to %s", ErrNoPath, from, to)
	}
	n := 0
	for i := goal; i != start; i = int(parent[i]) {
		n++
	}
	path := make([]Cell, n)
	for i := goal; i != start; i = int(parent[i]) {
		n--
		path[n] = g.cell(i)
	}
	return path, nil
}

// ValidatePath checks a walk given step by step from from: each cell side-adjacent to
// the one before, free, and not blocked. A walk may come back over its own cells (and
// over from, which the mover has left). The first refused step is reported as a
// *PathError wrapping ErrNotAdjacent, ErrNotFree or ErrBlocked; an empty walk is
// ErrEmptyPath. The MP it costs is len(path).
func (g *Grid) ValidatePath(from Cell, path []Cell, blocked []Cell) error {
	if len(path) == 0 {
		return ErrEmptyPath
	}
	prev := from
	for k, c := range path {
		fail := func(err error) error { return &PathError{Step: k, Cell: c, Err: err} }
		if Distance(prev, c) != 1 {
			return fail(ErrNotAdjacent)
		}
		if !g.Free(c) {
			return fail(ErrNotFree)
		}
		if c != from {
			for _, b := range blocked {
				if b == c {
					return fail(ErrBlocked)
				}
			}
		}
		prev = c
	}
	return nil
}
