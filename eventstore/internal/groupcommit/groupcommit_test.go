package groupcommit_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/groupcommit"
)

// TestObserve: every committed batch is reported once, after its commit and before its
// callers are answered, with its appends and events counted; after Observe(nil), none.
func TestObserve(t *testing.T) {
	var (
		mu        sync.Mutex
		committed []int // events of each batch, as the commit function saw them
	)
	q := groupcommit.New(func(batch []*groupcommit.Request) {
		n := 0
		for _, r := range batch {
			n += len(r.Events)
		}
		mu.Lock()
		committed = append(committed, n)
		mu.Unlock()
	}, 8)
	defer q.Close()
	var observed []eventstore.Commit // written by the writer goroutine only
	q.Observe(func(c eventstore.Commit) { observed = append(observed, c) })

	const callers = 40
	var (
		wg     sync.WaitGroup
		wanted int // events submitted
	)
	for i := range callers {
		wanted += 1 + i%3
		wg.Go(func() {
			evs := make([]eventstore.Proposed, 1+i%3)
			if _, err := q.Submit(context.Background(), fmt.Sprintf("s%d", i), eventstore.Any, evs); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	q.Observe(nil)
	// Each Submit returned after its batch was observed, so all are in observed now.
	var appends, events int
	for i, c := range observed {
		if c.Appends < 1 || c.Appends > 8 || c.Events != committed[i] || c.Took < 0 {
			t.Errorf("commit %d observed as %+v, committed %d events", i, c, committed[i])
		}
		appends += c.Appends
		events += c.Events
	}
	if len(observed) != len(committed) || appends != callers || events != wanted {
		t.Errorf("observed %d commits of %d appends and %d events; committed %d batches of %d appends and %d events",
			len(observed), appends, events, len(committed), callers, wanted)
	}
	if _, err := q.Submit(context.Background(), "after", eventstore.Any, make([]eventstore.Proposed, 1)); err != nil {
		t.Fatal(err)
	}
	if n := len(observed); n != len(committed)-1 {
		t.Errorf("a commit after Observe(nil) was observed (%d observed, %d committed)", n, len(committed))
	}
}

// TestOnIdle: the idle function runs on the writer goroutine between batches, never
// while requests wait: with a batch committing and ten requests queued behind it, the
// order is that batch, the ten in one batch, then idle.
func TestOnIdle(t *testing.T) {
	var (
		order   []string // the writer goroutine's only, read after idle
		release = make(chan struct{})
		began   = make(chan struct{})
		idled   = make(chan struct{})
	)
	q := groupcommit.New(func(batch []*groupcommit.Request) {
		order = append(order, fmt.Sprintf("commit %d", len(batch)))
		if len(order) == 1 {
			close(began)
			<-release // the test queues ten requests meanwhile
		}
	}, 64)
	defer q.Close()
	q.OnIdle(func() {
		order = append(order, "idle")
		close(idled)
	})
	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := q.Submit(context.Background(), "first", eventstore.Any, make([]eventstore.Proposed, 1)); err != nil {
			t.Error(err)
		}
	})
	<-began
	for i := range 10 {
		wg.Go(func() {
			if _, err := q.Submit(context.Background(), fmt.Sprint(i), eventstore.Any, make([]eventstore.Proposed, 1)); err != nil {
				t.Error(err)
			}
		})
	}
	groupcommit.WaitQueued(q, 10)
	close(release)
	<-idled
	q.OnIdle(nil)
	wg.Wait()
	if got := fmt.Sprint(order); got != "[commit 1 commit 10 idle]" {
		t.Errorf("the writer ran %s, want [commit 1 commit 10 idle]", got)
	}
}

// TestTrace: an append whose context carries an eventstore.AppendTrace gets its stamps in
// order, around its own batch's commit: queued before the commit function ran for it,
// begun before and committed after, resumed after that and before Submit returned. A
// trace used again holds the second append's stamps only; an append without one is
// committed as before.
func TestTrace(t *testing.T) {
	var ran sync.Map // stream -> when the commit function ran for it
	q := groupcommit.New(func(batch []*groupcommit.Request) {
		now := time.Now()
		for _, r := range batch {
			ran.Store(r.Stream, now)
		}
	}, 8)
	defer q.Close()
	var tr eventstore.AppendTrace
	ctx := eventstore.WithAppendTrace(context.Background(), &tr)
	var last time.Time
	for i := range 3 {
		stream := fmt.Sprint("traced", i)
		before := time.Now()
		if _, err := q.Submit(ctx, stream, eventstore.Any, make([]eventstore.Proposed, 1)); err != nil {
			t.Fatal(err)
		}
		after := time.Now()
		at, _ := ran.Load(stream)
		marks := []time.Time{before, tr.Queued, tr.Began, at.(time.Time), tr.Committed, tr.Resumed, after}
		for k := 1; k < len(marks); k++ {
			if marks[k].Before(marks[k-1]) || !tr.Queued.After(last) {
				t.Errorf("append %d: stamps out of order (before, queued, began, commit ran, committed, resumed, after): %v", i, marks)
				break
			}
		}
		last = tr.Resumed
	}
	if _, err := q.Submit(context.Background(), "untraced", eventstore.Any, make([]eventstore.Proposed, 1)); err != nil {
		t.Fatal(err)
	}
	if !tr.Resumed.Equal(last) {
		t.Errorf("an append without the trace stamped it")
	}
}

// TestEachCallerGetsItsOwnOutcome: requests are recycled, so an outcome must never reach
// another caller than its own, even when callers give up while the writer holds their
// request (a given-up request is not reused while the writer may still write to it).
// Every caller appends to its own stream many times, half of them with a context that
// is cancelled while its batch is committing; each outcome that arrives names the
// caller's stream and the append's number.
func TestEachCallerGetsItsOwnOutcome(t *testing.T) {
	const callers, appends = 16, 200
	q := groupcommit.New(func(batch []*groupcommit.Request) {
		for _, r := range batch {
			var caller, n int64
			fmt.Sscanf(r.Stream, "s%d-%d", &caller, &n)
			r.Result = eventstore.AppendResult{FirstVersion: caller, LastVersion: n, FirstPosition: int64(len(r.Events))}
			if cancel, ok := r.Ctx.Value(cancelKey{}).(context.CancelFunc); ok {
				cancel() // the caller gives up while the writer holds its request
			}
		}
	}, 8)
	defer q.Close()
	var wg sync.WaitGroup
	for c := range int64(callers) {
		wg.Go(func() {
			for n := range int64(appends) {
				ctx, cancel := context.WithCancel(context.Background())
				if n%2 == 1 {
					ctx = context.WithValue(ctx, cancelKey{}, cancel)
				}
				res, err := q.Submit(ctx, fmt.Sprintf("s%d-%d", c, n), eventstore.Any, make([]eventstore.Proposed, 1+int(n%3)))
				cancel()
				switch {
				case err != nil && n%2 == 1 && errors.Is(err, context.Canceled):
				case err != nil:
					t.Errorf("caller %d, append %d: %v", c, n, err)
				case res.FirstVersion != c || res.LastVersion != n || res.FirstPosition != 1+n%3:
					t.Errorf("caller %d, append %d of %d events got the outcome %+v", c, n, 1+n%3, res)
				}
			}
		})
	}
	wg.Wait()
}

type cancelKey struct{}
