package sqlite

const (
	// maxTails bounds the entries of one generation of the cache of stream tails (about
	// 200 bytes each): a server with more streams appended to within a generation only
	// pays one more query per append for some.
	maxTails = 16384
	// tailGeneration is how many appends a generation of the cache lasts. A stream not
	// appended to for a whole generation (a finished match, a player between matches)
	// leaves the cache, so that its memory follows the streams written lately, not every
	// stream ever written: at 1,000 appends a second a generation is about a minute, and
	// a live match is appended to every few seconds.
	tailGeneration = 1 << 16
)

// tails is the writer's cache of stream tails, in two generations: entries are put in
// the current one, and an entry found only in the previous one is moved to the current
// one. When the current generation has lasted tailGeneration appends, or holds maxTails
// streams, it becomes the previous one and the previous one is dropped whole. So the
// cache holds at most the streams appended to in the last two generations (and at most
// 2*maxTails), where an arbitrary eviction at a fixed bound kept a finished match's entry
// until the bound was reached: its heap grew with the streams ever written until then.
type tails struct {
	cur, old   map[string]tail
	appends    int // in the current generation
	generation int // tailGeneration, or a test's shorter one
}

func newTails() *tails { return &tails{cur: map[string]tail{}, generation: tailGeneration} }

// get is stream's tail, if the cache holds it.
func (c *tails) get(stream string) (tail, bool) {
	if t, ok := c.cur[stream]; ok {
		return t, true
	}
	t, ok := c.old[stream]
	if ok {
		delete(c.old, stream)
		c.put(stream, t)
	}
	return t, ok
}

// put sets stream's tail.
func (c *tails) put(stream string, t tail) {
	if _, ok := c.cur[stream]; !ok && len(c.cur) >= maxTails {
		c.turn()
	}
	c.cur[stream] = t
}

// drop forgets stream's tail.
func (c *tails) drop(stream string) {
	delete(c.cur, stream)
	delete(c.old, stream)
}

// reset forgets every tail.
func (c *tails) reset() {
	c.cur, c.old, c.appends = map[string]tail{}, nil, 0
}

// appended counts one append, and starts a new generation after tailGeneration.
func (c *tails) appended() {
	if c.appends++; c.appends >= c.generation {
		c.turn()
	}
}

// turn starts a new generation: the current one becomes the previous one, whose entries
// not moved since are dropped.
func (c *tails) turn() {
	c.old, c.cur, c.appends = c.cur, make(map[string]tail, len(c.cur)/2), 0
}

// len is how many streams the cache holds.
func (c *tails) len() int { return len(c.cur) + len(c.old) }
