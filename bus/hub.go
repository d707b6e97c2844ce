package bus

import (
	"context"
	"fmt"
	"sync"

	"github.com/arbiter-games/arbiter/eventstore"
)

// Hub fans the events of one Follower out to many in-process consumers (projections,
// GraphQL subscription hubs), so that a process keeps a single bus subscription. Use
// Hub.Handle as the Follower's handler.
//
// Each consumer gets every event after the position Add returned, in order, exactly once:
// when a consumer fails, Handle returns its error and the Follower retries the event, but
// the consumers that already took it are not called again. A failing consumer therefore
// delays the others until it recovers; consumers should not fail for long.
type Hub struct {
	mu        sync.Mutex
	started   int64 // highest position whose dispatch has begun
	consumers []*consumer
}

type consumer struct {
	name    string
	handler Handler
	pos     int64 // last event this consumer accepted; only Handle's goroutine moves it
}

// NewHub returns a Hub without consumers, for a Follower whose checkpoint is after.
func NewHub(after int64) *Hub { return &Hub{started: after} }

// Add registers a consumer under a unique name. It may be called at any time, also from
// another goroutine while events flow. It returns the position after which the consumer
// receives every event: a consumer that needs earlier events reads them from the store
// up to that position, without a gap or a duplicate at the seam.
func (h *Hub) Add(name string, handler Handler) (after int64, err error) {
	if handler == nil {
		return 0, fmt.Errorf("bus: hub consumer %q has no handler", name)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.consumers {
		if c.name == name {
			return 0, fmt.Errorf("bus: hub already has a consumer named %q", name)
		}
	}
	h.consumers = append(h.consumers, &consumer{name: name, handler: handler, pos: h.started})
	return h.started, nil
}

// Remove unregisters a consumer; it reports whether there was one by that name. The
// consumer may still receive the event being dispatched while Remove is called.
func (h *Hub) Remove(name string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, c := range h.consumers {
		if c.name == name {
			h.consumers = append(h.consumers[:i:i], h.consumers[i+1:]...)
			return true
		}
	}
	return false
}

// Handle dispatches e to every consumer that has not taken it yet, in the order they were
// added. It is a Handler; the Follower calls it from one goroutine, in position order.
func (h *Hub) Handle(ctx context.Context, e eventstore.Event) error {
	// The consumers are called without the lock, so that a slow consumer does not block
	// Add and a consumer may itself call Add or Remove. Updating started under the same
	// lock as the snapshot is what makes Add's answer exact: a consumer added from now on
	// gets the events after e, one added before is in the snapshot and gets e.
	h.mu.Lock()
	h.started = max(h.started, e.Position)
	consumers := append([]*consumer(nil), h.consumers...)
	h.mu.Unlock()

	for _, c := range consumers {
		if c.pos >= e.Position {
			continue // took it on an earlier attempt, or was added after it
		}
		if err := c.handler(ctx, e); err != nil {
			return fmt.Errorf("bus: hub consumer %q at position %d: %w", c.name, e.Position, err)
		}
		c.pos = e.Position
	}
	return nil
}
