package sqlite_test

import (
	"path/filepath"
	"testing"

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
