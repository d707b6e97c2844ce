// Package conformance is the test suite that every eventstore.Store adapter must pass:
// the semantics of the port written once, run unchanged against the in-memory store,
// SQLite, PostgreSQL and any future adapter.
//
// An adapter's test calls Run with a Harness that opens fresh stores:
//
//	func TestConformance(t *testing.T) {
//		conformance.Run(t, conformance.Harness{Open: ..., Durable: true})
//	}
//
// The stores it opens must sign their heads with Signer.
package conformance

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Harness tells the suite how to get stores of the adapter under test.
type Harness struct {
	// Open returns a new, empty store, and reopen, which opens the same storage again once
	// the store is closed (reopen may be nil when Durable is false). The suite closes every
	// store it gets; Open may register its own cleanup (removing files, dropping schemas).
	Open func(t *testing.T) (store eventstore.Store, reopen func(t *testing.T) eventstore.Store)
	// Durable says that acknowledged appends survive Close and reopen. The durability
	// tests are skipped for a store that is not durable.
	Durable bool
	// TimePrecision is the precision to which the store keeps event times: 0 for
	// nanoseconds. The port requires a microsecond or better.
	TimePrecision time.Duration
}

// Run runs the whole suite as subtests of t.
func Run(t *testing.T, h Harness) {
	if h.Open == nil {
		t.Fatal("conformance: Harness.Open is nil")
	}
	if h.TimePrecision > time.Microsecond {
		t.Fatalf("conformance: a time precision of %v is coarser than the port's microsecond", h.TimePrecision)
	}
	tests := []struct {
		name string
		run  func(*testing.T, Harness)
	}{
		{"AppendAndRead", testAppendAndRead},
		{"ExpectedVersion", testExpectedVersion},
		{"ConcurrentSameVersion", testConcurrentSameVersion},
		{"ConcurrentRetries", testConcurrentRetries},
		{"ManyStreamsConcurrently", testManyStreamsConcurrently},
		{"Idempotency", testIdempotency},
		{"Ordering", testOrdering},
		{"HashChain", testHashChain},
		{"GlobalChain", testGlobalChain},
		{"GlobalTamper", testGlobalTamper},
		{"SignedHeadDurable", testSignedHeadDurable},
		{"SubscribeCatchUpThenLive", testSubscribeCatchUpThenLive},
		{"SubscribeBeyondHead", testSubscribeBeyondHead},
		{"SlowSubscriberDoesNotBlockWriters", testSlowSubscriber},
		{"SubscriptionEndsWithContext", testSubscriptionEndsWithContext},
		{"Durability", testDurability},
		{"LargePayload", testLargePayload},
		{"UnknownStream", testUnknownStream},
		{"InvalidAppends", testInvalidAppends},
		{"Closed", testClosed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, h) })
	}
}

// open opens a fresh store that is closed at the end of the test.
func open(t *testing.T, h Harness) (eventstore.Store, func(*testing.T) eventstore.Store) {
	t.Helper()
	s, reopen := h.Open(t)
	t.Cleanup(func() { _ = s.Close() })
	return s, reopen
}

// event returns a proposed event with every field set, its payload naming id.
func event(id string) eventstore.Proposed {
	return eventstore.Proposed{
		ID:            id,
		Type:          "MovePlayed",
		SchemaVersion: 1,
		Payload:       fmt.Appendf(nil, `{"id":%q,"from":"e2","to":"e4"}`, id),
		CommandID:     "cmd-" + id,
		Actor:         "seat:0",
		Visibility:    visibility.Public,
		Time:          time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.FixedZone("CET", 3600)),
	}
}

// events returns n events with IDs prefix-1...prefix-n.
func events(prefix string, n int) []eventstore.Proposed {
	out := make([]eventstore.Proposed, n)
	for i := range out {
		out[i] = event(fmt.Sprintf("%s-%d", prefix, i+1))
	}
	return out
}

func mustAppend(t testing.TB, s eventstore.Store, stream string, expected int64, evs ...eventstore.Proposed) eventstore.AppendResult {
	t.Helper()
	res, err := s.Append(context.Background(), stream, expected, evs...)
	if err != nil {
		t.Fatalf("Append(%q, %d, %d events): %v", stream, expected, len(evs), err)
	}
	return res
}

func mustReadStream(t testing.TB, s eventstore.Store, stream string) []eventstore.Event {
	t.Helper()
	evs, err := s.ReadStream(context.Background(), stream, 0, 0)
	if err != nil {
		t.Fatalf("ReadStream(%q): %v", stream, err)
	}
	return evs
}

func mustReadAll(t testing.TB, s eventstore.Store) []eventstore.Event {
	t.Helper()
	evs, err := s.ReadAll(context.Background(), 0, 0)
	if err != nil {
		t.Fatalf("ReadAll: %v", err)
	}
	return evs
}

func mustVersion(t testing.TB, s eventstore.Store, stream string) int64 {
	t.Helper()
	v, err := s.StreamVersion(context.Background(), stream)
	if err != nil {
		t.Fatalf("StreamVersion(%q): %v", stream, err)
	}
	return v
}

func mustHead(t testing.TB, s eventstore.Store) int64 {
	t.Helper()
	p, err := s.HeadPosition(context.Background())
	if err != nil {
		t.Fatalf("HeadPosition: %v", err)
	}
	return p
}

// conflict asserts that err is a *VersionConflict reporting actual.
func conflict(t testing.TB, err error, stream string, expected, actual int64) {
	t.Helper()
	var vc *eventstore.VersionConflict
	if !errors.As(err, &vc) || !errors.Is(err, eventstore.ErrWrongVersion) {
		t.Fatalf("append to %q expecting %d: got %v, want a *VersionConflict", stream, expected, err)
	}
	if vc.Stream != stream || vc.Expected != expected || vc.Actual != actual {
		t.Fatalf("conflict = %+v, want stream %q expected %d actual %d", *vc, stream, expected, actual)
	}
}

// checkGapless asserts that evs are exactly the positions from+1, from+2... in order.
func checkGapless(t testing.TB, evs []eventstore.Event, from int64) {
	t.Helper()
	for i, e := range evs {
		if want := from + int64(i) + 1; e.Position != want {
			t.Fatalf("event %d has position %d, want %d", i, e.Position, want)
		}
	}
}

// checkStream asserts that a stream's versions run 1..n and its chain verifies.
func checkStream(t testing.TB, evs []eventstore.Event) {
	t.Helper()
	for i, e := range evs {
		if e.Version != int64(i)+1 {
			t.Fatalf("stream %q: event %d has version %d", e.Stream, i, e.Version)
		}
	}
	if err := eventstore.VerifyChain(evs); err != nil {
		t.Fatal(err)
	}
}
