package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
)

// Run with: go test -run '^$' -bench . -benchtime 20000x ./eventstore/sqlite

func BenchmarkAppend(b *testing.B) {
	conformance.BenchmarkAppend(b, func(b *testing.B) eventstore.Store {
		return open(b, filepath.Join(b.TempDir(), "events.db"))
	})
}

func BenchmarkReadAll(b *testing.B) {
	conformance.BenchmarkReadAll(b, func(b *testing.B) eventstore.Store {
		return open(b, filepath.Join(b.TempDir(), "events.db"))
	})
}

// BenchmarkAppendLoad is the engine's target: 1,000 matches, 20,000 appends/s in all.
func BenchmarkAppendLoad(b *testing.B) {
	conformance.BenchmarkAppendLoad(b, func(b *testing.B) eventstore.Store {
		return open(b, filepath.Join(b.TempDir(), "events.db"))
	}, 1000, 20000)
}

// BenchmarkReadStreamLimits reads a stream's latest page with the two limits a server
// alternates (a subscriber's catch-up and the engine's), as thousands of subscribers do.
// With one statement whose LIMIT was bound, SQLite compiled it again on every read.
func BenchmarkReadStreamLimits(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "events.db"))
	ctx := context.Background()
	var evs []eventstore.Proposed
	for v := range 100 {
		evs = append(evs, eventstore.Proposed{ID: fmt.Sprintf("ev-%d", v), Type: "Moved", SchemaVersion: 1, Payload: []byte(`{"move":"e4"}`),
			Actor: "system", Visibility: visibility.Public, Time: time.Unix(0, 0).UTC()})
	}
	if _, err := s.Append(ctx, "match-bench", 0, evs...); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		limit := 256
		if i%2 == 1 {
			limit = 1000
		}
		got, err := s.ReadStream(ctx, "match-bench", 98, limit)
		if err != nil || len(got) != 2 {
			b.Fatalf("read %d events, %v", len(got), err)
		}
	}
}

// BenchmarkReadStreamDepth reads a page of 50 events of a stream of 5,000, near its
// start, its middle and its end: with schema version 4 (row.go) a page is a walk of at
// most its length plus 64 events, wherever it lies.
func BenchmarkReadStreamDepth(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "events.db"))
	ctx := context.Background()
	for chunk := range 50 {
		var evs []eventstore.Proposed
		for v := range 100 {
			evs = append(evs, eventstore.Proposed{ID: fmt.Sprintf("ev-%d-%d", chunk, v), Type: "Moved", SchemaVersion: 1, Payload: []byte(`{"move":"e4"}`),
				Actor: "system", Visibility: visibility.Public, Time: time.Unix(0, 0).UTC()})
		}
		if _, err := s.Append(ctx, "match-bench", eventstore.Any, evs...); err != nil {
			b.Fatal(err)
		}
	}
	for _, after := range []int64{100, 2500, 4900} {
		b.Run(fmt.Sprint("after=", after), func(b *testing.B) {
			for range b.N {
				got, err := s.ReadStream(ctx, "match-bench", after, 50)
				if err != nil || len(got) != 50 {
					b.Fatalf("read %d events, %v", len(got), err)
				}
			}
		})
	}
}
