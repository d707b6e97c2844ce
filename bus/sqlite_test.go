package bus_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/bus"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
)

// The durable store, with a real restart: a process appends and dies before its relay
// publishes; the next process relays from the head, and a follower that had seen only the
// beginning still gets everything, in order, once, over a bus that loses messages.
func TestSQLiteRestartBetweenAppendAndPublish(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.db")
	first, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	appendEvents(t, first, "match-1", 6)
	appendConcurrently(t, first, 4, 6)
	if err := first.Close(); err != nil { // the process dies: nothing was published
		t.Fatal(err)
	}

	store, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	head, err := store.HeadPosition(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	pubsub := bus.NewGoChannel(nil)
	t.Cleanup(func() { pubsub.Close() })
	faulty := &faultyPublisher{next: pubsub, rng: rand.New(rand.NewPCG(3, 4)), drop: 0.3, dup: 0.2, reorder: 0.2}

	const checkpoint = 4 // what the follower had handled before the crash
	rec := newRecorder(checkpoint)
	f := startFollower(t, store, pubsub, checkpoint, rec.handle)
	startRelay(t, store, faulty, head)
	head = appendConcurrently(t, store, 4, 10)
	if err := f.WaitFor(waitCtx(t), head); err != nil {
		t.Fatal(err)
	}
	checkReceived(t, store, rec, checkpoint)
}
