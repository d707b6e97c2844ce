// Package memstore is an in-memory eventstore.Store for fast tests of the packages that
// use the port. It has the same semantics as the durable adapters, except durability:
// everything is lost when the process ends or the store is closed.
package memstore

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
)

// Store keeps every event in memory. The zero value is not usable; call New.
type Store struct {
	notifier *eventstore.Notifier

	mu      sync.RWMutex
	closed  bool
	all     log                // every event, in position order
	sealed  []eventstore.Event // the last append's events, sealed: memory reused by the next
	streams map[string][]int64 // stream -> positions, in version order
	byID    map[string]int64   // event ID -> position
	head    eventstore.Head    // signed at the last append
	signer  eventstore.Signer
	now     func() time.Time
}

var _ eventstore.Store = (*Store)(nil)

// Option configures New.
type Option func(*Store)

// WithSigner signs the store's head at every append, as the durable adapters do.
func WithSigner(s eventstore.Signer) Option { return func(st *Store) { st.signer = s } }

// New returns an empty store.
func New(opts ...Option) *Store {
	s := &Store{
		notifier: eventstore.NewNotifier(),
		streams:  make(map[string][]int64),
		byID:     make(map[string]int64),
		now:      time.Now,
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Append implements eventstore.Store.
func (s *Store) Append(ctx context.Context, stream string, expected int64, events ...eventstore.Proposed) (eventstore.AppendResult, error) {
	if err := eventstore.ValidateAppend(stream, expected, events); err != nil {
		return eventstore.AppendResult{}, err
	}
	if err := ctx.Err(); err != nil {
		return eventstore.AppendResult{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return eventstore.AppendResult{}, eventstore.ErrClosed
	}
	var found []eventstore.Event
	for _, id := range eventstore.IDs(events) {
		if pos, ok := s.byID[id]; ok {
			found = append(found, *s.all.at(pos))
		}
	}
	if res, ok, err := eventstore.MatchRetry(stream, events, found); ok || err != nil {
		return res, err
	}
	positions := s.streams[stream]
	version, lastHash := int64(len(positions)), ""
	if version > 0 {
		lastHash = s.all.at(positions[version-1]).Hash
	}
	if err := eventstore.CheckExpected(stream, expected, version); err != nil {
		return eventstore.AppendResult{}, err
	}
	now := s.now()
	sealed := eventstore.AppendSealed(s.sealed[:0], stream, version, lastHash, s.all.len()+1, s.head.Hash, now, events)
	s.sealed = sealed
	for _, e := range sealed {
		s.all.add(e)
		s.streams[stream] = append(s.streams[stream], e.Position)
		s.byID[e.ID] = e.Position
	}
	last := sealed[len(sealed)-1]
	s.head = eventstore.SignHead(s.signer, last.Position, last.GlobalHash, now)
	s.notifier.Notify()
	return eventstore.Result(sealed, false), nil
}

// ReadStream implements eventstore.Store.
func (s *Store) ReadStream(ctx context.Context, stream string, after int64, limit int) ([]eventstore.Event, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, eventstore.ErrClosed
	}
	positions := s.streams[stream]
	after = max(after, 0)
	if after >= int64(len(positions)) {
		return nil, nil
	}
	positions = positions[after:]
	if limit > 0 && len(positions) > limit {
		positions = positions[:limit]
	}
	out := make([]eventstore.Event, len(positions))
	for i, p := range positions {
		out[i] = clone(*s.all.at(p))
	}
	return out, nil
}

// StreamVersion implements eventstore.Store.
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return 0, eventstore.ErrClosed
	}
	return int64(len(s.streams[stream])), nil
}

// ReadAll implements eventstore.Store.
func (s *Store) ReadAll(ctx context.Context, after int64, limit int) ([]eventstore.Event, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, eventstore.ErrClosed
	}
	after = max(after, 0)
	n := s.all.len() - after
	if n <= 0 {
		return nil, nil
	}
	if limit > 0 && n > int64(limit) {
		n = int64(limit)
	}
	out := make([]eventstore.Event, n)
	for i := range out {
		out[i] = clone(*s.all.at(after + int64(i) + 1))
	}
	return out, nil
}

// HeadPosition implements eventstore.Store.
func (s *Store) HeadPosition(ctx context.Context) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return 0, eventstore.ErrClosed
	}
	return s.all.len(), nil
}

// SignedHead implements eventstore.Store.
func (s *Store) SignedHead(ctx context.Context) (eventstore.Head, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return eventstore.Head{}, eventstore.ErrClosed
	}
	h := s.head
	h.Signature = bytes.Clone(h.Signature)
	return h, nil
}

// Subscribe implements eventstore.Store.
func (s *Store) Subscribe(ctx context.Context, after int64) (*eventstore.Subscription, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, eventstore.ErrClosed
	}
	if after < 0 {
		return nil, fmt.Errorf("%w: subscription after position %d", eventstore.ErrInvalid, after)
	}
	return eventstore.Follow(ctx, s, after, s.notifier, 0), nil
}

// Close implements eventstore.Store. The events are dropped.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.all, s.sealed, s.streams, s.byID = log{}, nil, nil, nil
	s.notifier.Close()
	return nil
}

// clone keeps readers from changing the stored payload through the slice they got.
func clone(e eventstore.Event) eventstore.Event {
	e.Payload = bytes.Clone(e.Payload)
	return e
}

// log holds a store's events in chunks of chunkEvents, all full but the last: an append
// never copies the events before it, as a slice of them all did each time it outgrew
// its array (1.2 KB copied per move in the engine's benchmark, BenchmarkMove). The first
// chunk grows as a slice does, so that the many small stores of tests stay small.
type log struct {
	chunks [][]eventstore.Event
	n      int64
}

const chunkEvents = 1024

func (l *log) len() int64 { return l.n }

// at returns the event at position pos, 1 to len.
func (l *log) at(pos int64) *eventstore.Event {
	i := pos - 1
	return &l.chunks[i/chunkEvents][i%chunkEvents]
}

// add stores e at position len+1.
func (l *log) add(e eventstore.Event) {
	switch {
	case l.chunks == nil:
		l.chunks = [][]eventstore.Event{nil} // grows as a slice does
	case l.n%chunkEvents == 0:
		l.chunks = append(l.chunks, make([]eventstore.Event, 0, chunkEvents))
	}
	last := &l.chunks[len(l.chunks)-1]
	*last = append(*last, e)
	l.n++
}
