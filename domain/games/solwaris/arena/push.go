package arena

// Stop says what ended a push before its full length.
type Stop uint8

// What can stop a push: nothing (it went its full length), an obstacle, an entity (a
// blocked cell), the edge of the arena, or void.
const (
	NotStopped Stop = iota
	ByObstacle
	ByEntity
	ByEdge
	ByVoid
)

var stopNames = [...]string{"not stopped", "obstacle", "entity", "edge", "void"}

func (s Stop) String() string {
	if int(s) < len(stopNames) {
		return stopNames[s]
	}
	return "?stop"
}

// Push is the course of a forced move (push or pull) of n cells in one direction.
type Push struct {
	Path   []Cell // cells travelled, in order; the mover ends on the last one (stays put if empty)
	Missed int    // cells not travelled: n - len(Path); the shock is counted on them
	Stop   Stop   // what stopped it when Missed > 0
	Struck Cell   // the cell that stopped it: the entity's, the obstacle's, the void's, or off the edge
}

// Push moves the occupant of from n cells in direction d, cell by cell, until a cell is
// not free (obstacle, void, off the arena) or is blocked (an entity, the caster of a
// pull included). It says where it went and what stopped it; the game computes the
// shock from Missed and Stop, and cuts the path itself at a trap (a trap stops a push
// without shock). A pull is a push towards the puller: d = DirTo(target, puller). from
// may be among blocked (it is ignored). A push of n <= 0 goes nowhere and misses nothing.
func (g *Grid) Push(from Cell, d Dir, n int, blocked []Cell) Push {
	var p Push
	c := from
	for k := 0; k < n; k++ {
		next := c.Step(d)
		stop := NotStopped
		switch g.Kind(next) {
		case Obstacle:
			stop = ByObstacle
		case Void:
			stop = ByVoid
			if !g.In(next) {
				stop = ByEdge
			}
		default:
			for _, b := range blocked {
				if b == next && b != from {
					stop = ByEntity
				}
			}
		}
		if stop != NotStopped {
			p.Missed, p.Stop, p.Struck = n-k, stop, next
			return p
		}
		p.Path = append(p.Path, next)
		c = next
	}
	return p
}
