package esdb

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"

	kdb "github.com/EventStore/EventStore-Client-Go/v4/esdb"
)

// memESDB models what the adapter relies on in EventStoreDB, as ESDB's documentation
// and its client describe it. It is not a server and proves nothing about one; it lets
// the adapter's own logic (the log, finishing an interrupted append, the mapping of
// positions, the reordering of $all) run through the conformance suite where no server
// can run. What it models:
//
//   - a stream holds events at revisions from 0; an append is atomic and checks its
//     expected revision (NoStream, or the revision of the stream's last event);
//   - at an exact expected revision behind the stream's end, an append whose event IDs
//     are those stored after that revision is the same write: it succeeds and stores
//     nothing; any other is a wrong expected revision, in the client's words;
//   - $all holds every event in commit order, at positions that are not consecutive (as
//     ESDB's byte offsets); a subscription delivers the events after a position, then
//     the live ones, through a filter on stream name prefixes;
//   - reads of a stream that has no event return nothing.
type memESDB struct {
	mu      sync.Mutex
	streams map[string][]*kdb.RecordedEvent
	all     []*kdb.RecordedEvent
	wake    chan struct{} // closed at each append
	// fail, if not nil, is asked before each append and fails it when it returns an
	// error: a connection lost before the write reached the server.
	fail func(stream string) error
	// beforeRead, if not nil, is called at the start of each read of a stream, outside
	// the lock: what another client does between two reads of the adapter.
	beforeRead func(stream string, opts kdb.ReadStreamOptions)
}

func newMemESDB() *memESDB {
	return &memESDB{streams: map[string][]*kdb.RecordedEvent{}, wake: make(chan struct{})}
}

func (m *memESDB) append(ctx context.Context, stream string, expected kdb.ExpectedRevision, events []kdb.EventData) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		if err := m.fail(stream); err != nil {
			return err
		}
	}
	cur := m.streams[stream]
	var next int // the revision the append expects to write first
	switch e := expected.(type) {
	case kdb.NoStream:
	case kdb.StreamRevision:
		next = int(e.Value) + 1
	default:
		return fmt.Errorf("memESDB: the adapter never appends with %T", expected)
	}
	if next != len(cur) {
		if same(cur, next, events) {
			return nil // the same write again
		}
		want, got := "no_stream", "no_stream"
		if next > 0 {
			want = fmt.Sprint(next - 1)
		}
		if len(cur) > 0 {
			got = fmt.Sprint(len(cur) - 1)
		}
		return fmt.Errorf("%w: wrong expected version: expecting '%s' but got '%s'", errWrongRevision, want, got)
	}
	for i, ev := range events {
		pos := uint64(100*len(m.all) + 37) // gaps, as byte offsets have
		rec := &kdb.RecordedEvent{
			EventID: ev.EventID, EventType: ev.EventType, ContentType: "application/json", StreamID: stream,
			EventNumber: uint64(len(cur) + i), Position: kdb.Position{Commit: pos, Prepare: pos},
			Data: bytes.Clone(ev.Data), UserMetadata: bytes.Clone(ev.Metadata),
		}
		m.streams[stream] = append(m.streams[stream], rec)
		m.all = append(m.all, rec)
	}
	close(m.wake)
	m.wake = make(chan struct{})
	return nil
}

// same reports whether events are stored in cur from revision next on.
func same(cur []*kdb.RecordedEvent, next int, events []kdb.EventData) bool {
	if next+len(events) > len(cur) {
		return false
	}
	for i, ev := range events {
		if cur[next+i].EventID != ev.EventID {
			return false
		}
	}
	return true
}

func (m *memESDB) read(ctx context.Context, stream string, opts kdb.ReadStreamOptions, count uint64) ([]*kdb.RecordedEvent, error) {
	if m.beforeRead != nil {
		m.beforeRead(stream, opts)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	cur := m.streams[stream]
	var out []*kdb.RecordedEvent
	if opts.Direction == kdb.Backwards {
		if _, ok := opts.From.(kdb.End); !ok {
			return nil, fmt.Errorf("memESDB: the adapter reads backwards from the end only")
		}
		for i := len(cur) - 1; i >= 0 && uint64(len(out)) < count; i-- {
			out = append(out, cur[i])
		}
		return out, nil
	}
	from := 0
	if r, ok := opts.From.(kdb.StreamRevision); ok {
		from = int(min(r.Value, uint64(len(cur))))
	}
	for i := from; i < len(cur) && uint64(len(out)) < count; i++ {
		out = append(out, cur[i])
	}
	return out, nil
}

func (m *memESDB) subscribeAll(ctx context.Context, from kdb.AllPosition, filter *kdb.SubscriptionFilter) (allSubscription, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	at := 0
	if p, ok := from.(kdb.Position); ok {
		for at < len(m.all) && m.all[at].Position.Commit <= p.Commit {
			at++
		}
	}
	return &memSubscription{m: m, ctx: ctx, at: at, prefixes: filter.Prefixes}, nil
}

func (m *memESDB) close() error { return nil } // the database outlives its clients

type memSubscription struct {
	m        *memESDB
	ctx      context.Context
	at       int
	prefixes []string
}

func (s *memSubscription) next() (*kdb.RecordedEvent, error) {
	for {
		s.m.mu.Lock()
		for s.at < len(s.m.all) {
			rec := s.m.all[s.at]
			s.at++
			for _, p := range s.prefixes {
				if strings.HasPrefix(rec.StreamID, p) {
					s.m.mu.Unlock()
					return rec, nil
				}
			}
		}
		wake := s.m.wake
		s.m.mu.Unlock()
		select {
		case <-wake:
		case <-s.ctx.Done():
			return nil, s.ctx.Err()
		}
	}
}

func (s *memSubscription) close() {}
