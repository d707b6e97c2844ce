package bus_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/arbiter-games/arbiter/bus"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// patience bounds every wait of these tests. It is generous on purpose: the tests wait for
// conditions, they never assert how fast something happens.
const patience = 10 * time.Second

// testIdleCheck keeps the tests that rely on the idle check short.
const testIdleCheck = 50 * time.Millisecond

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
}

func newStore(t *testing.T) *memstore.Store {
	t.Helper()
	s := memstore.New()
	t.Cleanup(func() { s.Close() })
	return s
}

// waitCtx is the context a test waits with.
func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	t.Cleanup(cancel)
	return ctx
}

// appendEvents appends n events to stream, one append each, and returns the position of
// the last one.
func appendEvents(t *testing.T, s eventstore.Store, stream string, n int) int64 {
	t.Helper()
	var last int64
	for range n {
		res, err := s.Append(t.Context(), stream, eventstore.Any, proposed(stream))
		if err != nil {
			t.Fatalf("append to %s: %v", stream, err)
		}
		last = res.LastPosition
	}
	return last
}

var eventSeq atomic.Int64

func proposed(stream string) eventstore.Proposed {
	n := eventSeq.Add(1)
	return eventstore.Proposed{
		ID:            fmt.Sprintf("%s-e%d", stream, n),
		Type:          "Tested",
		SchemaVersion: 1,
		Payload:       []byte(fmt.Sprintf(`{"n":%d}`, n)),
		CommandID:     fmt.Sprintf("cmd-%d", n),
		Actor:         "system",
	}
}

// run starts fn in a goroutine that is stopped and waited for when the test ends, and
// returns a function that stops it earlier.
func run(t *testing.T, name string, fn func(ctx context.Context) error) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := fn(ctx); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-done
		})
	}
	t.Cleanup(stop)
	return stop
}

func startRelay(t *testing.T, store eventstore.Store, pub message.Publisher, after int64) (*bus.Relay, func()) {
	t.Helper()
	r, err := bus.NewRelay(bus.RelayConfig{Source: store, Publisher: pub, After: after, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	return r, run(t, "relay", r.Run)
}

// recorder is a handler that keeps what it received and notes every delivery that is
// not the one right after the previous one.
type recorder struct {
	mu     sync.Mutex
	last   int64
	events []eventstore.Event
	errs   []string
}

// newRecorder expects the events after `after`; -1 accepts any first event.
func newRecorder(after int64) *recorder { return &recorder{last: after} }

func (r *recorder) handle(_ context.Context, e eventstore.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last >= 0 && e.Position != r.last+1 {
		r.errs = append(r.errs, fmt.Sprintf("got position %d after %d", e.Position, r.last))
	}
	r.last = e.Position
	r.events = append(r.events, e)
	return nil
}

func (r *recorder) snapshot() ([]eventstore.Event, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]eventstore.Event(nil), r.events...), append([]string(nil), r.errs...)
}

func startFollower(t *testing.T, store eventstore.Store, sub message.Subscriber, after int64, h bus.Handler) *bus.Follower {
	t.Helper()
	f, err := bus.NewFollower(bus.FollowerConfig{
		Store:      store,
		Subscriber: sub,
		Handler:    h,
		After:      after,
		IdleCheck:  testIdleCheck,
		Logger:     testLogger(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	run(t, "follower", f.Run)
	return f
}

// checkReceived fails unless rec received exactly the store's events after `after`, in
// order, each once.
func checkReceived(t *testing.T, store eventstore.Store, rec *recorder, after int64) {
	t.Helper()
	want, err := store.ReadAll(t.Context(), after, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, errs := rec.snapshot()
	for _, e := range errs {
		t.Errorf("out of order or duplicate: %s", e)
	}
	if len(got) != len(want) {
		t.Fatalf("received %d events, the store has %d after %d", len(got), len(want), after)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Position != w.Position || g.ID != w.ID || g.Stream != w.Stream || g.Version != w.Version ||
			g.Hash != w.Hash || string(g.Payload) != string(w.Payload) || !g.Time.Equal(w.Time) {
			t.Fatalf("event %d: received %+v, the store has %+v", i, g, w)
		}
	}
}

// faultyPublisher is a Publisher decorator that loses, duplicates and reorders messages,
// the way a real network and broker may.
type faultyPublisher struct {
	next message.Publisher

	mu                   sync.Mutex
	rng                  *rand.Rand
	drop, dup, reorder   float64
	dropIf               func(pos int64) bool // drops these too, deterministically
	held                 *message.Message     // held back, sent after the next message
	dropped, duplicated  int
	reordered, published int
}

func (p *faultyPublisher) Publish(topic string, msgs ...*message.Message) error {
	p.mu.Lock()
	defer p.mu.Unlock() // held while publishing, so that reordering is what we decide
	for _, m := range msgs {
		e, err := bus.Decode(m)
		if err != nil {
			return err
		}
		if (p.dropIf != nil && p.dropIf(e.Position)) || p.rng.Float64() < p.drop {
			p.dropped++
			continue
		}
		if p.held == nil && p.rng.Float64() < p.reorder {
			p.held = m
			p.reordered++
			continue
		}
		out := []*message.Message{m}
		if p.held != nil {
			out = append(out, p.held)
			p.held = nil
		}
		if p.rng.Float64() < p.dup {
			out = append(out, m.Copy())
			p.duplicated++
		}
		if err := p.next.Publish(topic, out...); err != nil {
			return err
		}
		p.published += len(out)
	}
	return nil
}

func (p *faultyPublisher) Close() error { return nil }

func (p *faultyPublisher) stats() (dropped, duplicated, reordered int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dropped, p.duplicated, p.reordered
}

// countingSubscriber is a Subscriber decorator that counts the messages it hands out.
type countingSubscriber struct {
	next       message.Subscriber
	n          atomic.Int64
	subscribed atomic.Bool
}

func (s *countingSubscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	in, err := s.next.Subscribe(ctx, topic)
	if err != nil {
		return nil, err
	}
	s.subscribed.Store(true)
	out := make(chan *message.Message)
	go func() {
		defer close(out)
		for m := range in {
			s.n.Add(1)
			select {
			case out <- m:
			case <-ctx.Done():
				m.Ack()
			}
		}
	}()
	return out, nil
}

func (s *countingSubscriber) Close() error { return nil }

// eventually polls cond until it holds or the test's patience runs out.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx := waitCtx(t)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}
