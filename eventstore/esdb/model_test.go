package esdb

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	kdb "github.com/EventStore/EventStore-Client-Go/v4/esdb"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
)

// The tests in this file run the adapter on memESDB, the model of ESDB's documented
// semantics: they check the adapter's own logic, not its use of a real server (that is
// esdb_test.go, with ARBITER_ESDB_URL).

func openOnModel(t testing.TB, m *memESDB, opts ...Option) *Store {
	t.Helper()
	cfg, err := configure("", append([]Option{WithSigner(conformance.Signer)}, opts...))
	if err != nil {
		t.Fatal(err)
	}
	s, err := open(context.Background(), m, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestConformanceOnTheModel runs the port's conformance suite, unchanged, on the model.
func TestConformanceOnTheModel(t *testing.T) {
	conformance.Run(t, conformance.Harness{
		Open: func(t *testing.T) (eventstore.Store, func(*testing.T) eventstore.Store) {
			m := newMemESDB()
			return openOnModel(t, m), func(t *testing.T) eventstore.Store { return openOnModel(t, m) }
		},
		Durable: true,
	})
}

// TestTwoProcessesOnTheModel: two stores on one database, as two nodes, append to shared
// and own streams at once; they meet on the log, and each reads the other's appends in
// one global chain.
func TestTwoProcessesOnTheModel(t *testing.T) {
	m := newMemESDB()
	a, b := openOnModel(t, m, WithMaxBatch(4)), openOnModel(t, m, WithMaxBatch(4))
	defer a.Close()
	defer b.Close()
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w, s := range []*Store{a, b, a, b, a, b, a, b} {
		wg.Go(func() {
			for i := range 25 {
				stream := fmt.Sprintf("match-%d", w)
				if i%3 == 0 {
					stream = "match-shared"
				}
				p := eventstore.Proposed{ID: fmt.Sprintf("w%d-%d", w, i), Type: "T", SchemaVersion: 1, Payload: []byte(`{}`)}
				if _, err := s.Append(ctx, stream, eventstore.Any, p); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, s := range []*Store{a, b} {
		if h := conformance.CheckGlobal(t, s); h.Position != 200 {
			t.Fatalf("signed head %+v, want position 200", h)
		}
		evs, err := s.ReadStream(ctx, "match-shared", 0, 0)
		if err != nil || len(evs) != 8*9 {
			t.Fatalf("match-shared: %d events, %v; want 72", len(evs), err)
		}
		if err := eventstore.VerifyChain(evs); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAnInterruptedAppendIsFinished: a process whose append reached the log but not its
// streams (its connection lost in between) acknowledges nothing; the next process to read
// the log writes the append to its streams, so that nothing stored is missing from them,
// and a retry of the append is its duplicate.
func TestAnInterruptedAppendIsFinished(t *testing.T) {
	m := newMemESDB()
	ctx := context.Background()
	a := openOnModel(t, m)
	defer a.Close()
	if _, err := a.Append(ctx, "match-1", eventstore.NoStream, proposed("m1-a")...); err != nil {
		t.Fatal(err)
	}
	sub, err := a.Subscribe(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	lost := errors.New("connection lost")
	m.fail = func(stream string) error {
		if stream == "arbiter.match-2" {
			return lost
		}
		return nil
	}
	interrupted := proposed("m1-b", "m2-a", "m2-b")
	// One append to two streams is two Arbiter appends; a batch of one here.
	if _, err := a.Append(ctx, "match-2", eventstore.NoStream, interrupted[1:]...); !errors.Is(err, lost) {
		t.Fatalf("the interrupted append: %v, want the lost connection", err)
	}
	m.fail = nil
	if evs := m.streams["arbiter.match-2"]; len(evs) != 0 {
		t.Fatalf("match-2 holds %d events before anyone finished the append", len(evs))
	}

	// Another process opens the store: it finishes the append before it answers.
	b := openOnModel(t, m)
	defer b.Close()
	if head, err := b.HeadPosition(ctx); err != nil || head != 3 {
		t.Fatalf("head %d, %v; want 3", head, err)
	}
	got, err := b.ReadStream(ctx, "match-2", 0, 0)
	if err != nil || len(got) != 2 || got[0].ID != "m2-a" || got[1].Position != 3 {
		t.Fatalf("match-2 after the other process opened: %v, %v", got, err)
	}
	// The first process, retrying, is answered with the append it made.
	res, err := a.Append(ctx, "match-2", eventstore.NoStream, interrupted[1:]...)
	if err != nil || !res.Duplicate || res.FirstPosition != 2 || res.LastPosition != 3 {
		t.Fatalf("the retry: %+v, %v; want the duplicate at positions 2-3", res, err)
	}
	// A subscriber that was there all along sees every event once, in order.
	for want := int64(1); want <= 3; want++ {
		if e := <-sub.Events(); e.Position != want {
			t.Fatalf("the subscriber got position %d, want %d", e.Position, want)
		}
	}
	conformance.CheckGlobal(t, a)
}

// TestConflictDecidedOnAStaleState: a process whose state is behind the log (the other
// process appended since) does not answer a version conflict from it: it catches up and
// decides again.
func TestConflictDecidedOnAStaleState(t *testing.T) {
	m := newMemESDB()
	ctx := context.Background()
	a, b := openOnModel(t, m), openOnModel(t, m)
	defer a.Close()
	defer b.Close()
	if _, err := b.Append(ctx, "match-1", eventstore.NoStream, proposed("x1", "x2")...); err != nil {
		t.Fatal(err)
	}
	// a has not read the log since b appended: it believes match-1 has no event.
	res, err := a.Append(ctx, "match-1", 2, proposed("x3")...)
	if err != nil || res.FirstVersion != 3 || res.FirstPosition != 3 {
		t.Fatalf("append at version 2 through the stale process: %+v, %v", res, err)
	}
	_, err = a.Append(ctx, "match-1", 2, proposed("x4")...)
	var vc *eventstore.VersionConflict
	if !errors.As(err, &vc) || vc.Actual != 3 {
		t.Fatalf("a stale expected version: %v, want a conflict at version 3", err)
	}
}

// TestDataStreamWrittenOutsideArbiter: a stream that holds events the log does not is a
// damaged store, reported with the typed conflict, not silently overwritten.
func TestDataStreamWrittenOutsideArbiter(t *testing.T) {
	m := newMemESDB()
	ctx := context.Background()
	s := openOnModel(t, m)
	defer s.Close()
	if err := m.append(ctx, "arbiter.match-1", expectedRevision(0), []kdb.EventData{{EventID: dataID("intruder"), EventType: "X", Data: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Append(ctx, "match-1", eventstore.NoStream, proposed("y1")...)
	var vc *eventstore.VersionConflict
	if !errors.Is(err, eventstore.ErrDamaged) || !errors.As(err, &vc) || vc.Actual != 1 {
		t.Fatalf("an append over a foreign event: %v, want ErrDamaged with the conflict", err)
	}
}

// TestASubscriptionPastTheHeadWhileAppendsLand: a subscription after a position beyond
// the head finds where to start in two reads of the log; appends that land between them
// must not make it start past their events (it did: the subscriber then waited for them
// forever).
func TestASubscriptionPastTheHeadWhileAppendsLand(t *testing.T) {
	m := newMemESDB()
	ctx := context.Background()
	a := openOnModel(t, m)
	defer a.Close()
	if _, err := a.Append(ctx, "match-1", eventstore.NoStream, proposed("a1", "a2", "a3", "a4")...); err != nil {
		t.Fatal(err)
	}
	var armed atomic.Bool
	landed := make(chan error, 1)
	m.beforeRead = func(stream string, opts kdb.ReadStreamOptions) {
		// The subscriber's second read (the last log event): two appends land first, so
		// that the last log event is the second's, after the first's events in $all.
		if stream == a.n.log() && opts.Direction == kdb.Backwards && armed.CompareAndSwap(true, false) {
			_, err := a.Append(ctx, "match-2", eventstore.NoStream, proposed("b1", "b2")...)
			if err == nil {
				_, err = a.Append(ctx, "match-3", eventstore.NoStream, proposed("c1", "c2")...)
			}
			landed <- err
		}
	}
	armed.Store(true)
	subCtx, stop := context.WithCancel(ctx)
	defer stop()
	sub, err := a.Subscribe(subCtx, 5) // the head is 4
	if err != nil {
		t.Fatal(err)
	}
	if err := <-landed; err != nil {
		t.Fatal(err)
	}
	if _, err := a.Append(ctx, "match-1", 4, proposed("a5")...); err != nil {
		t.Fatal(err)
	}
	for want := int64(6); want <= 9; want++ {
		select {
		case e := <-sub.Events():
			if e.Position != want {
				t.Fatalf("the subscriber got position %d, want %d", e.Position, want)
			}
		case <-time.After(10 * time.Second): // every one is acknowledged: it is late only if skipped
			t.Fatalf("no position %d in 10 s: the subscription started past it", want)
		}
	}
}
