package conformance

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
)

// collect reads sub until it delivered position last, and checks that it delivered
// exactly after+1..last in order.
func collect(t *testing.T, sub *eventstore.Subscription, after, last int64) []eventstore.Event {
	t.Helper()
	var got []eventstore.Event
	next := after + 1
	for e := range sub.Events() {
		if e.Position != next {
			t.Fatalf("subscription after %d delivered position %d, want %d", after, e.Position, next)
		}
		got = append(got, e)
		if next == last {
			return got
		}
		next++
	}
	t.Fatalf("subscription after %d stopped at position %d of %d: %v", after, next-1, last, sub.Err())
	return nil
}

func subscribe(t *testing.T, s eventstore.Store, after int64) *eventstore.Subscription {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	sub, err := s.Subscribe(ctx, after)
	if err != nil {
		t.Fatalf("Subscribe(%d): %v", after, err)
	}
	return sub
}

func testSubscribeCatchUpThenLive(t *testing.T, h Harness) {
	s, _ := open(t, h)
	for i := range 5 {
		mustAppend(t, s, "match-seed", int64(i*10), events(fmt.Sprintf("seed%d", i), 10)...)
	}
	const writers, appends = 8, 30
	head := mustHead(t, s) // 50
	fromZero := subscribe(t, s, 0)
	fromMiddle := subscribe(t, s, head/2)

	var wg sync.WaitGroup
	errs := make(chan error, writers)
	start := make(chan struct{})
	for w := range writers {
		wg.Go(func() {
			<-start
			st := fmt.Sprintf("match-live-%d", w)
			for i := range appends {
				// Two events per append, so that a subscriber can meet half a commit.
				if _, err := s.Append(context.Background(), st, int64(2*i), events(fmt.Sprintf("w%d-%d", w, i), 2)...); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	close(start)
	// Subscribers that join while the writers run.
	duringAfter := head + 7
	during := subscribe(t, s, duringAfter)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	last := mustHead(t, s)
	if want := head + writers*appends*2; last != want {
		t.Fatalf("head %d, want %d", last, want)
	}
	all := mustReadAll(t, s)
	for _, c := range []struct {
		sub   *eventstore.Subscription
		after int64
	}{{fromZero, 0}, {fromMiddle, head / 2}, {during, duringAfter}} {
		got := collect(t, c.sub, c.after, last)
		if !reflect.DeepEqual(got, all[c.after:]) {
			t.Fatalf("subscription after %d delivered events that differ from ReadAll", c.after)
		}
	}
}

func testSubscribeBeyondHead(t *testing.T, h Harness) {
	s, _ := open(t, h)
	mustAppend(t, s, "match-b", eventstore.NoStream, events("b", 3)...)
	atHead := subscribe(t, s, 3)
	beyond := subscribe(t, s, 5)
	mustAppend(t, s, "match-b", 3, events("c", 4)...) // positions 4..7
	collect(t, atHead, 3, 7)
	collect(t, beyond, 5, 7)
	mustAppend(t, s, "match-b", 7, events("d", 1)...)
	collect(t, beyond, 7, 8)
}

func testSlowSubscriber(t *testing.T, h Harness) {
	s, _ := open(t, h)
	// This subscriber reads nothing until every append returned: if a subscriber could
	// hold up writers, the appends below would never finish.
	idle := subscribe(t, s, 0)
	const appends, per = 100, 20
	for i := range appends {
		mustAppend(t, s, "match-slow", int64(i*per), events(fmt.Sprintf("s%d", i), per)...)
	}
	collect(t, idle, 0, appends*per)
}

func testSubscriptionEndsWithContext(t *testing.T, h Harness) {
	s, _ := open(t, h)
	mustAppend(t, s, "match-ctx", eventstore.NoStream, events("x", 3)...)
	ctx, cancel := context.WithCancel(context.Background())
	sub, err := s.Subscribe(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	collect(t, sub, 0, 3)
	cancel()
	for range sub.Events() {
		// Drain whatever was in flight; the channel must close.
	}
	if err := sub.Err(); err != nil {
		t.Fatalf("Err after the context ended = %v, want nil", err)
	}
	// Appends still work, and nothing is stuck on the ended subscription.
	mustAppend(t, s, "match-ctx", 3, events("y", 1)...)
}

func testDurability(t *testing.T, h Harness) {
	if !h.Durable {
		t.Skip("the store under test is not durable")
	}
	s, reopen := open(t, h)
	if reopen == nil {
		t.Fatal("Harness.Open returned no reopen function for a durable store")
	}
	var acked []eventstore.AppendResult
	for i := range 10 {
		st := fmt.Sprintf("match-%d", i%3)
		acked = append(acked, mustAppend(t, s, st, eventstore.Any, events(fmt.Sprintf("dur%d", i), 1+i%2)...))
	}
	before := mustReadAll(t, s)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	r := reopen(t)
	t.Cleanup(func() { _ = r.Close() })
	after := mustReadAll(t, r)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("after reopen the store holds %d events that differ from the %d before", len(after), len(before))
	}
	if h := mustHead(t, r); h != acked[len(acked)-1].LastPosition {
		t.Fatalf("head after reopen %d, want %d", h, acked[len(acked)-1].LastPosition)
	}
	// The same append retried after the restart is still recognised.
	res, err := r.Append(context.Background(), "match-0", eventstore.NoStream, events("dur0", 1)...)
	if err != nil || !res.Duplicate || res.FirstPosition != acked[0].FirstPosition {
		t.Fatalf("retry after reopen = %+v, %v; want the first result with Duplicate", res, err)
	}
	// Versions, positions and the chain continue.
	v := mustVersion(t, r, "match-0")
	res = mustAppend(t, r, "match-0", v, event("dur-next"))
	if res.FirstVersion != v+1 || res.FirstPosition != int64(len(before))+1 {
		t.Fatalf("append after reopen landed at %+v, want version %d position %d", res, v+1, len(before)+1)
	}
	for i := range 3 {
		checkStream(t, mustReadStream(t, r, fmt.Sprintf("match-%d", i)))
	}
}
