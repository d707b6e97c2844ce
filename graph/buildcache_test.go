package graph

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// counted is a build that counts its calls and returns what its gate gives, once open.
type counted struct {
	calls atomic.Int32
	gate  chan struct{}
	err   error
	keep  bool
}

func (b *counted) build() (int, bool, error) {
	n := b.calls.Add(1)
	if b.gate != nil {
		<-b.gate
	}
	return int(n), b.keep, b.err
}

// getAll calls c.get(k) from n goroutines at once and returns their answers once all
// are waiting or building (synctest.Wait) and the gate is opened.
func getAll(t *testing.T, c *buildCache[string, int], k string, n int, b *counted) ([]int, []error) {
	t.Helper()
	got, errs := make([]int, n), make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { got[i], errs[i] = c.get(context.Background(), k, nil, b.build) })
	}
	synctest.Wait() // one builds, behind the gate; the others wait for its build
	close(b.gate)
	wg.Wait()
	return got, errs
}

// building starts a get of k whose build waits behind b's gate, and returns once it
// waits there (in a synctest bubble); finish opens the gate and waits for the get.
func building(c *buildCache[string, int], k string, b *counted) (finish func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = c.get(context.Background(), k, nil, b.build)
	}()
	synctest.Wait()
	return func() {
		close(b.gate)
		<-done
	}
}

// A hundred aliases of one field miss the empty cache together: the value is built once,
// and every caller gets it.
func TestBuildCacheBuildsOnceForConcurrentMisses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newBuildCache[string, int](8)
		b := &counted{gate: make(chan struct{}), keep: true}
		got, errs := getAll(t, c, "m1", 50, b)
		if n := b.calls.Load(); n != 1 {
			t.Errorf("50 concurrent misses of one key built it %d times, want once", n)
		}
		for i := range got {
			if errs[i] != nil || got[i] != 1 {
				t.Fatalf("caller %d got %d, %v; want the one build's 1", i, got[i], errs[i])
			}
		}
		if v, err := c.get(context.Background(), "m1", nil, b.build); v != 1 || err != nil || b.calls.Load() != 1 {
			t.Errorf("a later get: %d, %v after %d builds; want the kept 1 without a build", v, err, b.calls.Load())
		}
	})
}

// A build that fails keeps nothing: each caller that waited for it builds again in turn
// (and fails again here), and so does the next.
func TestBuildCacheKeepsNoFailedBuild(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newBuildCache[string, int](8)
		failed := errors.New("the store is unreachable")
		b := &counted{gate: make(chan struct{}), err: failed, keep: true}
		_, errs := getAll(t, c, "m1", 3, b)
		for i, err := range errs {
			if !errors.Is(err, failed) {
				t.Errorf("caller %d: %v, want the build's error", i, err)
			}
		}
		if n := b.calls.Load(); n != 3 {
			t.Errorf("3 callers of a failing build built %d times, want 3: a failure is not shared as a value", n)
		}
		b.err = nil
		if v, err := c.get(context.Background(), "m1", nil, b.build); err != nil || v != 4 {
			t.Errorf("after the failures: %d, %v; want a fourth build", v, err)
		}
	})
}

// A value the build says not to keep (a receipt's tree of a store behind the read side)
// is returned but built again by the next caller.
func TestBuildCacheKeepsWhatTheBuildSays(t *testing.T) {
	c := newBuildCache[string, int](8)
	b := &counted{}
	for want := 1; want <= 2; want++ {
		if v, err := c.get(context.Background(), "m1", nil, b.build); err != nil || v != want {
			t.Fatalf("get %d: %d, %v; want a build of its own", want, v, err)
		}
	}
}

// A kept value that the caller cannot use (a delayed view of an older read side, or past
// its release) is built again, and the new one kept.
func TestBuildCacheRebuildsWhatIsNotUsable(t *testing.T) {
	c := newBuildCache[string, int](8)
	b := &counted{keep: true}
	atLeast := func(n int) func(int) bool { return func(v int) bool { return v >= n } }
	for i, step := range []struct {
		usable func(int) bool
		want   int
	}{{nil, 1}, {atLeast(1), 1}, {atLeast(2), 2}, {atLeast(1), 2}} {
		if v, err := c.get(context.Background(), "m1", step.usable, b.build); err != nil || v != step.want {
			t.Errorf("step %d: %d, %v; want %d", i, v, err, step.want)
		}
	}
}

// A miss of one key builds while another key's build is under way: the fold of one match
// does not wait for another's (synctest reports a deadlock if it did, the first build's
// gate being opened only after).
func TestBuildCacheKeysDoNotWaitForEachOther(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newBuildCache[string, int](8)
		finish := building(c, "m1", &counted{gate: make(chan struct{}), keep: true})
		if v, err := c.get(context.Background(), "m2", nil, (&counted{keep: true}).build); err != nil || v != 1 {
			t.Errorf("m2 while m1 builds: %d, %v", v, err)
		}
		finish()
	})
}

// A caller whose request ends while it waits for another's build gives up with its
// context's error; the build goes on and is kept.
func TestBuildCacheWaiterGivesUpWithItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newBuildCache[string, int](8)
		b := &counted{gate: make(chan struct{}), keep: true}
		finish := building(c, "m1", b)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := c.get(ctx, "m1", nil, b.build); !errors.Is(err, context.Canceled) {
			t.Errorf("a waiter whose request ended: %v, want context.Canceled", err)
		}
		finish()
		if v, err := c.get(context.Background(), "m1", nil, b.build); err != nil || v != 1 || b.calls.Load() != 1 {
			t.Errorf("after the build: %d, %v with %d builds; want the kept 1", v, err, b.calls.Load())
		}
	})
}

// A build that panics (a resolver's panic is recovered and answered) leaves the key free:
// the next caller builds instead of waiting for good.
func TestBuildCacheSurvivesAPanickingBuild(t *testing.T) {
	c := newBuildCache[string, int](8)
	func() {
		defer func() { _ = recover() }()
		_, _ = c.get(context.Background(), "m1", nil, func() (int, bool, error) { panic("a bug") })
	}()
	if v, err := c.get(context.Background(), "m1", nil, (&counted{keep: true}).build); err != nil || v != 1 {
		t.Errorf("after a panicking build: %d, %v", v, err)
	}
}

// A full cache is emptied rather than grown, and forget drops one key.
func TestBuildCacheIsBounded(t *testing.T) {
	c := newBuildCache[int, int](2)
	for k := range 3 {
		_, _ = c.get(context.Background(), k, nil, func() (int, bool, error) { return k, true, nil })
	}
	if len(c.entries) != 1 {
		t.Errorf("a cache of 2 holds %d entries after 3 keys, want 1: emptied when full", len(c.entries))
	}
	c.forget(2)
	if len(c.entries) != 0 {
		t.Errorf("forget left %d entries", len(c.entries))
	}
}
