package eventstore_test

import (
	"errors"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// TestHashIsStable pins the encoding: a change to Hash breaks every stored chain, so it
// must be deliberate (a new hashDomain), never accidental.
func TestHashIsStable(t *testing.T) {
	e := eventstore.Event{
		Proposed: eventstore.Proposed{
			ID: "e-1", Type: "MovePlayed", SchemaVersion: 1, Payload: []byte(`{"from":"e2","to":"e4"}`),
			CommandID: "c-1", Actor: "seat:0", Visibility: visibility.Seat(0),
			Time: time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC),
		},
		Stream: "match-1", Version: 1, Position: 42,
	}
	const want = "f2c4ec846c4729955f5c2d686e08c9ce53651bd47cc580c8909fa48136295117"
	if got := eventstore.Hash("", e); got != want {
		t.Fatalf("Hash = %s, want %s", got, want)
	}
}

func TestValidateErrorsWrapErrInvalid(t *testing.T) {
	ok := eventstore.Proposed{ID: "a", Type: "T", SchemaVersion: 1, Payload: []byte(`{}`)}
	if err := eventstore.Validate("s", []eventstore.Proposed{ok}); err != nil {
		t.Fatalf("valid append rejected: %v", err)
	}
	far := ok
	far.Time = time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := eventstore.Validate("s", []eventstore.Proposed{far}); !errors.Is(err, eventstore.ErrInvalid) {
		t.Fatalf("a time past 2262 (no Unix nanoseconds): got %v, want ErrInvalid", err)
	}
}

// TestNotifierWakesWaitersTakenBeforeNotify is the no-lost-wake-up rule Follow relies on.
func TestNotifierWakesWaitersTakenBeforeNotify(t *testing.T) {
	n := eventstore.NewNotifier()
	w := n.Wait()
	select {
	case <-w:
		t.Fatal("woken before any Notify")
	default:
	}
	n.Notify()
	<-w // closed by the Notify after Wait
	after := n.Wait()
	select {
	case <-after:
		t.Fatal("a Wait taken after Notify is already woken")
	default:
	}
	n.Close()
	<-after
	<-n.Wait() // closed for good
	n.Notify() // harmless after Close

	// A Notify that finds no waiter changes nothing for the next one.
	n = eventstore.NewNotifier()
	n.Notify()
	w = n.Wait()
	select {
	case <-w:
		t.Fatal("a Wait taken after a Notify that found no waiter is already woken")
	default:
	}
	n.Notify()
	<-w
}
