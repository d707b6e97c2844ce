package graph

import (
	"context"
	"sync"
)

// buildCache keeps values that are costly to build (a delayed match's view, a receipt's
// tree), one per key, and builds each once however many callers miss it together: the
// fields of one request resolve at once, so a hundred aliases of one field all missed an
// empty cache together and each built the value again.
//
// A miss builds under the key alone: callers of the same key wait for that build and look
// again (it may have kept nothing: it failed, or built a value not to keep), while a miss
// of another key builds at once. One lock over every build made the fold of one match wait
// for the folds of all the others.
//
// A full cache is emptied rather than grown: the next reads build again.
type buildCache[K comparable, V any] struct {
	max int // the entries kept at most

	mu      sync.Mutex
	entries map[K]V
	builds  map[K]chan struct{} // the builds under way, closed when each ends
}

func newBuildCache[K comparable, V any](max int) *buildCache[K, V] {
	return &buildCache[K, V]{max: max}
}

// get returns k's value when one is kept that usable accepts (nil accepts any), else
// builds it, and keeps what build says to keep. A caller that waits for another's build
// gives up with ctx's error when ctx ends first.
func (c *buildCache[K, V]) get(ctx context.Context, k K, usable func(V) bool, build func() (v V, keep bool, err error)) (V, error) {
	c.mu.Lock()
	for {
		if v, ok := c.entries[k]; ok && (usable == nil || usable(v)) {
			c.mu.Unlock()
			return v, nil
		}
		done, building := c.builds[k]
		if !building {
			break
		}
		c.mu.Unlock()
		select {
		case <-done:
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
		c.mu.Lock()
	}
	if c.builds == nil {
		c.builds = map[K]chan struct{}{}
	}
	c.builds[k] = make(chan struct{})
	c.mu.Unlock()

	var (
		v    V
		keep bool
		err  error
	)
	// Deferred, so that a build that panics (a resolver's panic is recovered and
	// answered) still ends, keeping nothing, and the key is not busy for good.
	defer func() { c.end(k, v, keep && err == nil) }()
	if v, keep, err = build(); err != nil {
		var zero V
		return zero, err
	}
	return v, nil
}

// end ends k's build, keeping v when keep says so, under one lock: a waiter woken by the
// end finds the value.
func (c *buildCache[K, V]) end(k K, v V, keep bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if keep {
		if c.entries == nil || len(c.entries) >= c.max {
			c.entries = map[K]V{}
		}
		c.entries[k] = v
	}
	close(c.builds[k])
	delete(c.builds, k)
}

// forget drops k's value; a build under way still keeps what it builds.
func (c *buildCache[K, V]) forget(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, k)
}
