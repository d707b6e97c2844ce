package graph

import (
	"context"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/eventstore"
)

// Hub hands each event the read side has applied to the feed of its match, which its
// subscriptions on this node share (see feed). A match nobody watches has no feed.
type Hub struct {
	mu    sync.Mutex
	feeds map[string]*feed
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{feeds: map[string]*feed{}}
}

// Apply is fed every committed event, in order, by the bus follower: a match's, or a
// team's covert one (matchstream.Hidden), which wakes that team's players alone.
func (h *Hub) Apply(_ context.Context, ev eventstore.Event) error {
	if !strings.HasPrefix(ev.Stream, "match-") && !strings.HasPrefix(ev.Stream, "hidden-") {
		return nil
	}
	h.mu.Lock()
	f := h.feeds[ev.Stream]
	h.mu.Unlock()
	if f != nil {
		f.push(ev)
	}
	return nil
}

// watch returns the feed of a stream and a function to stop watching it. A counted watch
// is a client's subscription (Watching); a live group's own is not: its members are.
func (h *Hub) watch(stream string, counted bool) (*feed, func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.feeds[stream]
	if f == nil {
		f = newFeed()
		h.feeds[stream] = f
	}
	f.watchers++
	if counted {
		f.counted++
	}
	return f, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if counted {
			f.counted--
		}
		if f.watchers--; f.watchers == 0 {
			delete(h.feeds, stream)
		}
	}
}

// Watching counts the subscriptions open on this node, every match together.
func (h *Hub) Watching() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, f := range h.feeds {
		n += f.counted
	}
	return n
}
