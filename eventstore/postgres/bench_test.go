//go:build postgres

package postgres_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
)

// Run with: ARBITER_PG_URL=... eventstore/postgres/test.sh -run '^$' -bench . -benchtime 5000x

func BenchmarkAppend(b *testing.B) {
	url := serverURL(b)
	conformance.BenchmarkAppend(b, func(b *testing.B) eventstore.Store { return open(b, url, freshSchema(b, url)) })
}

func BenchmarkReadAll(b *testing.B) {
	url := serverURL(b)
	conformance.BenchmarkReadAll(b, func(b *testing.B) eventstore.Store { return open(b, url, freshSchema(b, url)) })
}
