package graph

import (
	"context"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/eventstore"
)

// Hub wakes the subscriptions of a match when its stream moves. It carries no events:
// a woken subscription reads what follows its last version from the store, so there is
// no seam between replay and live, and a slow subscriber never holds up the others.
type Hub struct {
	mu      sync.Mutex
	streams map[string]*eventstore.Notifier
	watched map[string]int
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{streams: map[string]*eventstore.Notifier{}, watched: map[string]int{}}
}

// Apply is fed every committed event, in order, by the bus follower.
func (h *Hub) Apply(_ context.Context, ev eventstore.Event) error {
	if !strings.HasPrefix(ev.Stream, "match-") {
		return nil
	}
	h.mu.Lock()
	n := h.streams[ev.Stream]
	h.mu.Unlock()
	if n != nil {
		n.Notify()
	}
	return nil
}

// watch returns the notifier of a stream and a function to stop watching it.
func (h *Hub) watch(stream string) (*eventstore.Notifier, func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := h.streams[stream]
	if n == nil {
		n = eventstore.NewNotifier()
		h.streams[stream] = n
	}
	h.watched[stream]++
	return n, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.watched[stream]--; h.watched[stream] == 0 {
			delete(h.watched, stream)
			delete(h.streams, stream)
		}
	}
}

// Watching counts the subscriptions open on this node, every match together.
func (h *Hub) Watching() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.watched {
		n += c
	}
	return n
}
