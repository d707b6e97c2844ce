// Package pgtest is for tests that need a PostgreSQL server: its URL, and schemas of
// their own that are dropped when they end. Only tests import it.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// URL returns ARBITER_PG_URL, skipping the test when it is unset, unless CI=true: a CI
// run must not pass by skipping.
func URL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("ARBITER_PG_URL")
	if url == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("ARBITER_PG_URL is not set; the tests that need PostgreSQL must run in CI " +
				"(e.g. ARBITER_PG_URL=postgres://postgres@127.0.0.1:5432/test?sslmode=disable)")
		}
		t.Skip("ARBITER_PG_URL is not set")
	}
	return url
}

// FreshSchema returns a schema name of its own for one test, prefix followed by random
// hex, dropped with everything in it when the test ends.
func FreshSchema(t testing.TB, url, prefix string) string {
	t.Helper()
	b := make([]byte, 8)
	rand.Read(b)
	schema := prefix + hex.EncodeToString(b)
	t.Cleanup(func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{schema}.Sanitize()+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return schema
}
