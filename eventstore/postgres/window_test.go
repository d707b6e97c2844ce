package postgres_test

import (
	"context"
	"errors"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/postgres"
)

// TestCommitsBetweenTheReadAheadAndTheLock: what another process commits after a batch
// read ahead of the append lock, and before the batch took it, counts: an event with the
// batch's ID makes its append a retry, an event on its stream a version conflict or the
// next version, and the positions stay gapless and in commit order.
func TestCommitsBetweenTheReadAheadAndTheLock(t *testing.T) {
	a, b := twoStores(t)
	ctx := context.Background()
	ev := plainEvent
	// meanwhile is what b appends in a's window; a's appends wait for it to return.
	var meanwhile func() error
	postgres.AfterReadAhead(a, func() {
		if meanwhile != nil {
			if err := meanwhile(); err != nil {
				t.Errorf("b's append in a's window: %v", err)
			}
			meanwhile = nil
		}
	})
	in := func(stream string, expected int64, id string) {
		meanwhile = func() error { _, err := b.Append(ctx, stream, expected, ev(id)); return err }
	}

	// The same event on x, committed by b first: a's append is its retry.
	in("x", 0, "x-1")
	res, err := a.Append(ctx, "x", 0, ev("x-1"))
	if err != nil || !res.Duplicate || res.FirstPosition != 1 {
		t.Fatalf("a's append of the event b committed in its window: %+v, %v; want the duplicate at position 1", res, err)
	}
	// b's event on y: a's append, expecting y empty, conflicts.
	in("y", 0, "y-b")
	if res, err := a.Append(ctx, "y", 0, ev("y-a")); !errors.Is(err, eventstore.ErrWrongVersion) {
		t.Fatalf("a's append on a stream b moved in its window: %+v, %v; want %v", res, err, eventstore.ErrWrongVersion)
	}
	// b's event on z: a's append, at any version, follows it.
	in("z", eventstore.Any, "z-b")
	res, err = a.Append(ctx, "z", eventstore.Any, ev("z-a"))
	if err != nil || res.FirstVersion != 2 || res.FirstPosition != 4 {
		t.Fatalf("a's append after b's on z: %+v, %v; want version 2 at position 4", res, err)
	}
	if meanwhile != nil {
		t.Fatal("a's appends never read ahead of the lock")
	}
	for _, s := range []*postgres.Store{a, b} {
		if h := conformance.CheckGlobal(t, s); h.Position != 4 {
			t.Fatalf("signed head %+v, want position 4", h)
		}
	}
}
