package bus_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/arbiter-games/arbiter/bus"
	"github.com/arbiter-games/arbiter/eventstore"
)

// appendConcurrently has writers goroutines append perWriter events each, to streams of
// their own, in appends of one to three events, and returns the store's head.
func appendConcurrently(t *testing.T, store eventstore.Store, writers, perWriter int) int64 {
	t.Helper()
	before, err := store.HeadPosition(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			stream := fmt.Sprintf("match-w%d", w)
			for n := 0; n < perWriter; {
				batch := min(1+n%3, perWriter-n)
				events := make([]eventstore.Proposed, batch)
				for i := range events {
					events[i] = proposed(stream)
				}
				if _, err := store.Append(t.Context(), stream, eventstore.Any, events...); err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
				n += batch
			}
		})
	}
	wg.Wait()
	head, err := store.HeadPosition(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if want := before + int64(writers*perWriter); head != want {
		t.Fatalf("head %d after appending %d events", head, want)
	}
	return head
}

// (a) Every event reaches every follower in order, exactly once, while 8 writers append.
func TestFollowersReceiveEveryEventOnceInOrderWithConcurrentWriters(t *testing.T) {
	store := newStore(t)
	pubsub := bus.NewGoChannel(nil)
	t.Cleanup(func() { pubsub.Close() })

	recs := []*recorder{newRecorder(0), newRecorder(0)}
	var followers []*bus.Follower
	for _, rec := range recs {
		followers = append(followers, startFollower(t, store, pubsub, 0, rec.handle))
	}
	startRelay(t, store, pubsub, 0)

	head := appendConcurrently(t, store, 8, 60)
	for i, f := range followers {
		if err := f.WaitFor(waitCtx(t), head); err != nil {
			t.Fatalf("follower %d: %v", i, err)
		}
		checkReceived(t, store, recs[i], 0)
	}
}

// (b) A bus that loses 30% of the messages, and duplicates and reorders others, costs
// latency, not data: the follower converges to exactly the store's events, in order.
func TestFollowerConvergesOverALossyBus(t *testing.T) {
	for _, tc := range []struct {
		name               string
		drop, dup, reorder float64
	}{
		{"drops", 0.3, 0, 0},
		{"duplicates and reorders", 0, 0.3, 0.3},
		{"all at once", 0.3, 0.2, 0.2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := newStore(t)
			pubsub := bus.NewGoChannel(nil)
			t.Cleanup(func() { pubsub.Close() })
			faulty := &faultyPublisher{
				next: pubsub, rng: rand.New(rand.NewPCG(1, 2)),
				drop: tc.drop, dup: tc.dup, reorder: tc.reorder,
			}

			rec := newRecorder(0)
			f := startFollower(t, store, pubsub, 0, rec.handle)
			relay, _ := startRelay(t, store, faulty, 0)

			head := appendConcurrently(t, store, 8, 40)
			if err := f.WaitFor(waitCtx(t), head); err != nil {
				t.Fatal(err)
			}
			eventually(t, "the relay to publish everything", func() bool { return relay.Position() == head })
			checkReceived(t, store, rec, 0)
			dropped, duplicated, reordered := faulty.stats()
			t.Logf("dropped %d, duplicated %d, reordered %d of %d", dropped, duplicated, reordered, head)
			if tc.drop > 0 && dropped == 0 || tc.dup > 0 && duplicated == 0 || tc.reorder > 0 && reordered == 0 {
				t.Fatal("the faulty publisher did not do what the test is about")
			}
		})
	}
}

// (c) The last message is lost and nothing comes after it: the idle check finds it.
func TestFollowerHealsALostLastMessage(t *testing.T) {
	store := newStore(t)
	pubsub := bus.NewGoChannel(nil)
	t.Cleanup(func() { pubsub.Close() })
	const last = 10
	faulty := &faultyPublisher{next: pubsub, rng: rand.New(rand.NewPCG(1, 2)), dropIf: func(pos int64) bool { return pos == last }}

	rec := newRecorder(0)
	f := startFollower(t, store, pubsub, 0, rec.handle)
	relay, _ := startRelay(t, store, faulty, 0)

	if head := appendEvents(t, store, "match-1", last); head != last {
		t.Fatalf("head %d, want %d", head, last)
	}
	eventually(t, "the relay to pass the last event", func() bool { return relay.Position() == last })
	if err := f.WaitFor(waitCtx(t), last); err != nil {
		t.Fatal(err)
	}
	checkReceived(t, store, rec, 0)
	if dropped, _, _ := faulty.stats(); dropped != 1 {
		t.Fatalf("dropped %d messages, want 1", dropped)
	}
}

// (d) A follower started from a checkpoint receives only what follows it: first from the
// store, then from the bus.
func TestFollowerStartsAfterItsCheckpoint(t *testing.T) {
	store := newStore(t)
	pubsub := bus.NewGoChannel(nil)
	t.Cleanup(func() { pubsub.Close() })

	head := appendEvents(t, store, "match-1", 20)
	startRelay(t, store, pubsub, head) // as at boot: from the head

	const checkpoint = 8
	rec := newRecorder(checkpoint)
	f := startFollower(t, store, pubsub, checkpoint, rec.handle)
	if err := f.WaitFor(waitCtx(t), head); err != nil {
		t.Fatal(err)
	}
	head = appendEvents(t, store, "match-2", 10)
	if err := f.WaitFor(waitCtx(t), head); err != nil {
		t.Fatal(err)
	}
	checkReceived(t, store, rec, checkpoint)
	if got := rec.events[0].Position; got != checkpoint+1 {
		t.Fatalf("first event delivered at position %d, want %d", got, checkpoint+1)
	}
}

// (e) A relay restarted from an earlier position publishes events again; followers drop
// the duplicates.
func TestFollowerDropsWhatARestartedRelayRepublishes(t *testing.T) {
	store := newStore(t)
	pubsub := bus.NewGoChannel(nil)
	t.Cleanup(func() { pubsub.Close() })
	counting := &countingSubscriber{next: pubsub}

	rec := newRecorder(0)
	f := startFollower(t, store, counting, 0, rec.handle)
	// Subscribed before anything is published, the follower gets every message: counting
	// them tells when the duplicates have arrived.
	eventually(t, "the follower to subscribe", counting.subscribed.Load)
	relay, stopRelay := startRelay(t, store, pubsub, 0)
	const n = 30
	head := appendEvents(t, store, "match-1", n)
	eventually(t, "the first relay to publish everything", func() bool { return relay.Position() == head })
	if err := f.WaitFor(waitCtx(t), head); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the follower to receive every message", func() bool { return counting.n.Load() >= n })
	stopRelay()

	again, _ := startRelay(t, store, pubsub, 0)
	eventually(t, "the restarted relay to publish everything again", func() bool { return again.Position() == head })
	eventually(t, "the follower to receive every message twice", func() bool { return counting.n.Load() >= 2*n })

	head = appendEvents(t, store, "match-1", 5)
	if err := f.WaitFor(waitCtx(t), head); err != nil {
		t.Fatal(err)
	}
	checkReceived(t, store, rec, 0)
}

// (f) The process died between append and publish: what was appended was never published.
// Nothing is lost: a follower reads it from the store, whether it starts after the crash
// or was running all along in another process.
func TestNothingIsLostBetweenAppendAndPublish(t *testing.T) {
	t.Run("follower starts after the crash", func(t *testing.T) {
		store := newStore(t)
		pubsub := bus.NewGoChannel(nil)
		t.Cleanup(func() { pubsub.Close() })

		appendEvents(t, store, "match-1", 15) // no relay: never published
		rec := newRecorder(0)
		f := startFollower(t, store, pubsub, 0, rec.handle)
		head, err := store.HeadPosition(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		startRelay(t, store, pubsub, head) // the restarted process relays from the head
		head = appendEvents(t, store, "match-1", 5)
		if err := f.WaitFor(waitCtx(t), head); err != nil {
			t.Fatal(err)
		}
		checkReceived(t, store, rec, 0)
	})

	t.Run("follower was running", func(t *testing.T) {
		store := newStore(t)
		pubsub := bus.NewGoChannel(nil)
		t.Cleanup(func() { pubsub.Close() })

		rec := newRecorder(0)
		f := startFollower(t, store, pubsub, 0, rec.handle)
		_, stopRelay := startRelay(t, store, pubsub, 0)
		head := appendEvents(t, store, "match-1", 5)
		if err := f.WaitFor(waitCtx(t), head); err != nil {
			t.Fatal(err)
		}

		stopRelay()                                 // the writer's process dies...
		head = appendEvents(t, store, "match-1", 7) // ...after these appends, before publishing
		if err := f.WaitFor(waitCtx(t), head); err != nil {
			t.Fatal(err)
		}

		startRelay(t, store, pubsub, head) // and comes back, relaying from the head
		head = appendEvents(t, store, "match-2", 3)
		if err := f.WaitFor(waitCtx(t), head); err != nil {
			t.Fatal(err)
		}
		checkReceived(t, store, rec, 0)
	})
}

// A handler that fails is given the same event again until it accepts it: nothing is
// skipped and nothing is delivered twice once accepted.
func TestFollowerRetriesAFailingHandler(t *testing.T) {
	store := newStore(t)
	pubsub := bus.NewGoChannel(nil)
	t.Cleanup(func() { pubsub.Close() })

	rec := newRecorder(0)
	var failures atomic.Int64
	flaky := func(ctx context.Context, e eventstore.Event) error {
		if e.Position%4 == 0 && failures.Add(1)%3 != 0 {
			return errors.New("not now")
		}
		return rec.handle(ctx, e)
	}
	f := startFollower(t, store, pubsub, 0, flaky)
	startRelay(t, store, pubsub, 0)
	head := appendEvents(t, store, "match-1", 12)
	if err := f.WaitFor(waitCtx(t), head); err != nil {
		t.Fatal(err)
	}
	checkReceived(t, store, rec, 0)
	if failures.Load() == 0 {
		t.Fatal("the handler never failed")
	}
}

// A Hub gives each consumer every event once, in order, even when another consumer fails
// and the event is retried; a consumer added while events flow gets everything after the
// position Add returned.
func TestHubFansOutToConsumers(t *testing.T) {
	store := newStore(t)
	pubsub := bus.NewGoChannel(nil)
	t.Cleanup(func() { pubsub.Close() })

	hub := bus.NewHub(0)
	steady, flakyRec := newRecorder(0), newRecorder(0)
	var calls atomic.Int64
	flaky := func(ctx context.Context, e eventstore.Event) error {
		if calls.Add(1)%2 == 0 {
			return errors.New("not now")
		}
		return flakyRec.handle(ctx, e)
	}
	for name, h := range map[string]bus.Handler{"steady": steady.handle, "flaky": flaky} {
		if _, err := hub.Add(name, h); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := hub.Add("steady", steady.handle); err == nil {
		t.Fatal("a second consumer named steady was accepted")
	}

	f := startFollower(t, store, pubsub, 0, hub.Handle)
	startRelay(t, store, pubsub, 0)
	appendEvents(t, store, "match-1", 10)

	late := newRecorder(-1) // added while events flow: it starts wherever Add says
	lateAfter, err := hub.Add("late", func(ctx context.Context, e eventstore.Event) error { return late.handle(ctx, e) })
	if err != nil {
		t.Fatal(err)
	}

	head := appendEvents(t, store, "match-2", 10)
	if err := f.WaitFor(waitCtx(t), head); err != nil {
		t.Fatal(err)
	}
	checkReceived(t, store, steady, 0)
	checkReceived(t, store, flakyRec, 0)
	checkReceived(t, store, late, lateAfter)

	if !hub.Remove("late") || hub.Remove("late") {
		t.Fatal("Remove did not report the consumer once")
	}
}

func TestWaitForEndsWithTheFollower(t *testing.T) {
	store := newStore(t)
	pubsub := bus.NewGoChannel(nil)
	t.Cleanup(func() { pubsub.Close() })

	f, err := bus.NewFollower(bus.FollowerConfig{Store: store, Subscriber: pubsub, Handler: newRecorder(0).handle, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	stop := run(t, "follower", f.Run)
	waited := make(chan error, 1)
	go func() { waited <- f.WaitFor(waitCtx(t), 1) }()
	stop()
	if err := <-waited; !errors.Is(err, bus.ErrStopped) {
		t.Fatalf("WaitFor when the follower stopped: %v, want ErrStopped", err)
	}
	if err := f.Run(t.Context()); err == nil {
		t.Fatal("a follower ran twice")
	}
}
