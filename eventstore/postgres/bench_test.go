package postgres_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
)

// Run with: ARBITER_PG_URL=... go test -run '^$' -bench . -benchtime 5000x ./eventstore/postgres

func BenchmarkAppend(b *testing.B) {
	url := serverURL(b)
	conformance.BenchmarkAppend(b, func(b *testing.B) eventstore.Store { return open(b, url, freshSchema(b, url)) })
}

func BenchmarkReadAll(b *testing.B) {
	url := serverURL(b)
	conformance.BenchmarkReadAll(b, func(b *testing.B) eventstore.Store { return open(b, url, freshSchema(b, url)) })
}

// BenchmarkAppendLoad is the engine's target: 1,000 matches, 20,000 appends/s in all.
func BenchmarkAppendLoad(b *testing.B) {
	url := serverURL(b)
	conformance.BenchmarkAppendLoad(b, func(b *testing.B) eventstore.Store { return open(b, url, freshSchema(b, url)) }, 1000, 20000)
}
