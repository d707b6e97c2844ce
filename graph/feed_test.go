package graph

import (
	"context"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/projections"
)

func pushVersions(f *feed, from, to int64) {
	for v := from; v <= to; v++ {
		f.push(eventstore.Event{Stream: "match-m", Version: v, Position: 1000 + v,
			Proposed: eventstore.Proposed{Type: "MovePlayed", Visibility: visibility.Public}})
	}
}

// versions lists the versions of a slice of the ring.
func versions(evs []*sharedEvent) []int64 {
	out := make([]int64, len(evs))
	for i, s := range evs {
		out[i] = s.ev.Version
	}
	return out
}

func wantRun(t *testing.T, got []*sharedEvent, from, to int64) {
	t.Helper()
	if int64(len(got)) != to-from+1 {
		t.Fatalf("got versions %v, want %d to %d", versions(got), from, to)
	}
	for i, s := range got {
		if s.ev.Version != from+int64(i) {
			t.Fatalf("got versions %v, want %d to %d", versions(got), from, to)
		}
	}
}

func TestFeedKeepsOrderAndIgnoresRedeliveries(t *testing.T) {
	f := newFeed()
	pushVersions(f, 1, 5)
	pushVersions(f, 3, 4) // the bus delivers again: ignored
	pushVersions(f, 6, 7)
	got, ok := f.after(0)
	if !ok {
		t.Fatal("the ring holds version 1 but says it does not reach back to it")
	}
	wantRun(t, got, 1, 7)
	got, ok = f.after(4)
	if !ok {
		t.Fatal("after 4: the ring reaches back to it")
	}
	wantRun(t, got, 5, 7)
	if got, ok := f.after(7); !ok || len(got) != 0 {
		t.Fatalf("after the last version: got %v, %v; want nothing, and ok", versions(got), ok)
	}
}

// The ring keeps the latest events only, and pushing never waits for a subscriber (none
// reads here): one behind the ring is told to read the store, and the seam is exact.
func TestFeedRingSeam(t *testing.T) {
	f := newFeed()
	const last = 10 * feedRing
	pushVersions(f, 1, last)
	if got, ok := f.after(0); ok || got != nil {
		t.Fatalf("after 0, %d events later: got %v, %v; want to read the store", last, versions(got), ok)
	}
	// One just before the oldest event the ring holds joins it with no gap; one more
	// behind reads the store.
	oldest := f.ring[0].ev.Version
	if n := last - oldest + 1; n < feedRing || n > 2*feedRing {
		t.Fatalf("the ring holds %d events, want %d to %d", n, feedRing, 2*feedRing)
	}
	if got, ok := f.after(oldest - 2); ok {
		t.Fatalf("after %d, behind the ring: got %v", oldest-2, versions(got))
	}
	got, ok := f.after(oldest - 1)
	if !ok {
		t.Fatalf("after %d: the ring starts at %d", oldest-1, oldest)
	}
	wantRun(t, got, oldest, last)
}

// A version missed by this node restarts the ring: the subscriber reads the gap from the
// store rather than skipping it.
func TestFeedGapRestartsTheRing(t *testing.T) {
	f := newFeed()
	pushVersions(f, 1, 2)
	pushVersions(f, 5, 6)
	if got, ok := f.after(2); ok {
		t.Fatalf("after 2 with 3 and 4 missing: got %v from the ring", versions(got))
	}
	got, ok := f.after(4)
	if !ok {
		t.Fatal("after 4: the ring starts at 5")
	}
	wantRun(t, got, 5, 6)
}

// Each event is built once per form and shared by every viewer class that gets that form;
// whether a viewer may see it is decided as of the event's version.
func TestSharedEventPerViewerClass(t *testing.T) {
	st := match.State{Status: match.Live, Plan: game.Plan{Seats: 2, Teams: []int{0, 1}},
		Seats: []match.Seat{{PlayerID: "ann"}, {PlayerID: "bob"}}}
	s := &sharedEvent{ev: eventstore.Event{Stream: "match-m", Version: 7,
		Proposed: eventstore.Proposed{Type: "CardDrawn", Visibility: visibility.Seat(1), Payload: []byte(`{"card":"spy"}`)}}}
	const endedAt = 9
	spectator := projections.ViewerOf(st, "").AsOf(endedAt, 7)
	ann := projections.ViewerOf(st, "ann").AsOf(endedAt, 7)
	bob := projections.ViewerOf(st, "bob").AsOf(endedAt, 7)

	hidden := s.shown("m", nil, spectator)
	if !hidden.Redacted || hidden.Data != nil {
		t.Fatalf("a spectator got seat 1's card: %+v", hidden)
	}
	if got := s.shown("m", nil, ann); got != hidden {
		t.Fatal("ann (seat 0) did not share the spectators' redacted form")
	}
	full := s.shown("m", nil, bob)
	if full.Redacted || string(full.Data) != `{"card":"spy"}` {
		t.Fatalf("bob did not get his own card: %+v", full)
	}
	if got := s.shown("m", nil, projections.ViewerOf(st, "bob").AsOf(endedAt, 7)); got != full {
		t.Fatal("a second subscriber of seat 1 got another copy")
	}
	// Once the match has ended before an event, everyone sees that event in full.
	after := &sharedEvent{ev: s.ev}
	after.ev.Version = 10
	if got := after.shown("m", nil, projections.ViewerOf(st, "").AsOf(endedAt, 10)); got.Redacted {
		t.Fatal("an event after the end was redacted")
	}
}

// A subscriber is handed whole commands only: the latest command is complete when the
// store holds nothing after it, or once an event of another command follows it.
func TestFeedHandsWholeCommands(t *testing.T) {
	f := newFeed()
	for v, cmd := range []string{"a", "a", "b", "c", "c"} {
		f.push(eventstore.Event{Stream: "match-m", Version: int64(v + 1), Position: int64(v + 1),
			Proposed: eventstore.Proposed{Type: "X", Actor: "player:p", CommandID: cmd}})
	}
	asked := 0
	head := int64(6) // c's last event is committed with a sixth, not yet applied
	storeHead := func(context.Context) (int64, error) { asked++; return head, nil }
	evs, _ := f.after(0)
	got, err := f.complete(context.Background(), evs, storeHead)
	if err != nil {
		t.Fatal(err)
	}
	wantRun(t, got, 1, 3)
	if got, _ = f.complete(context.Background(), evs, storeHead); asked != 1 || len(got) != 3 {
		t.Fatalf("asked the store %d times for one push, got %v", asked, versions(got))
	}
	f.push(eventstore.Event{Stream: "match-m", Version: 6, Position: 6, Proposed: eventstore.Proposed{Type: "X", Actor: "player:p", CommandID: "c"}})
	evs, _ = f.after(3)
	if got, _ = f.complete(context.Background(), evs, storeHead); len(got) != 3 || asked != 1 {
		t.Fatalf("with the store at the ring's head: got %v, asked %d times", versions(got), asked)
	}
	wantRun(t, got, 4, 6)
}
