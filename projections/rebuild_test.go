package projections

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// storeOf returns a memstore holding n events over a few streams, enough for several of
// Rebuild's pages.
func storeOf(t *testing.T, n int) *memstore.Store {
	t.Helper()
	store := memstore.New()
	ctx := context.Background()
	for i := 0; i < n; {
		stream := fmt.Sprintf("s-%d", i%7)
		var evs []eventstore.Proposed
		for j := 0; j < 500 && i < n; j, i = j+1, i+1 {
			evs = append(evs, eventstore.Proposed{ID: fmt.Sprint("e", i), Type: "Noted", SchemaVersion: 1, Payload: []byte(`{}`)})
		}
		if _, err := store.Append(ctx, stream, eventstore.Any, evs...); err != nil {
			t.Fatal(err)
		}
	}
	return store
}

// recorder is a projection that checks it is fed every position once, in order, and can
// fail at a position of its choice.
type recorder struct {
	checkpoint
	name   string
	seen   int64
	failAt int64 // 0: never
	wrong  []string
}

func (r *recorder) Name() string { return r.name }

func (r *recorder) Apply(ev eventstore.Event) error {
	defer r.mu.Unlock()
	if !r.admit(ev) {
		return nil
	}
	if ev.Position != r.seen+1 {
		r.wrong = append(r.wrong, fmt.Sprintf("position %d after %d", ev.Position, r.seen))
	}
	r.seen = ev.Position
	if ev.Position == r.failAt {
		return errors.New("refused")
	}
	return nil
}

func (r *recorder) Digest() string { return fmt.Sprint(r.seen) }

// TestRebuildFeedsEachProjectionEveryEventInOrder: each projection, on its own goroutine,
// sees positions 1..head once each and in order, and progress reports each page once all
// have applied it, in order, ending at the head.
func TestRebuildFeedsEachProjectionEveryEventInOrder(t *testing.T) {
	const n = 3*rebuildPage + 123
	store := storeOf(t, n)
	rs := []*recorder{{name: "a"}, {name: "b"}, {name: "c"}}
	var reported []int64
	err := Rebuild(context.Background(), store, func(pos, head int64) {
		for _, r := range rs {
			if r.Checkpoint() < pos {
				t.Errorf("progress at %d while %s has applied up to %d", pos, r.name, r.Checkpoint())
			}
		}
		reported = append(reported, pos)
	}, rs[0], rs[1], rs[2])
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.seen != n || len(r.wrong) > 0 {
			t.Errorf("%s saw up to %d of %d, out of order: %v", r.name, r.seen, n, r.wrong)
		}
	}
	want := []int64{rebuildPage, 2 * rebuildPage, 3 * rebuildPage, n}
	if fmt.Sprint(reported) != fmt.Sprint(want) {
		t.Errorf("progress reported %v, want %v", reported, want)
	}
}

// TestRebuildReturnsTheFirstFailure: when projections fail on different pages, Rebuild
// stops and returns the failure of the lowest position, as feeding the events in order
// would, whichever goroutine fails first; a single failure is returned with its
// projection and position.
func TestRebuildReturnsTheFirstFailure(t *testing.T) {
	store := storeOf(t, 4*rebuildPage)
	for _, tc := range []struct {
		failAt [3]int64
		want   string
	}{
		{[3]int64{3 * rebuildPage, 10, 0}, "b at position 10"},
		{[3]int64{0, 0, rebuildPage + 1}, "c at position 4097"},
		{[3]int64{2, 2 * rebuildPage, 1}, "c at position 1"},
	} {
		rs := []Projection{&recorder{name: "a", failAt: tc.failAt[0]}, &recorder{name: "b", failAt: tc.failAt[1]}, &recorder{name: "c", failAt: tc.failAt[2]}}
		err := Rebuild(context.Background(), store, nil, rs...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "refused") {
			t.Errorf("fail at %v: got %v, want the failure of %q", tc.failAt, err, tc.want)
		}
	}
}

// TestRebuildStopsWhenCancelled: a cancelled context ends Rebuild with its error, before
// the head.
func TestRebuildStopsWhenCancelled(t *testing.T) {
	const n = 12 * rebuildPage
	store := storeOf(t, n)
	ctx, cancel := context.WithCancel(context.Background())
	r := &recorder{name: "a"}
	err := Rebuild(ctx, store, func(pos, head int64) { cancel() }, r)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if r.seen >= n {
		t.Errorf("the projection reached the head (%d) after the cancellation", r.seen)
	}
}
