package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/postgres"
)

// serverURL returns ARBITER_PG_URL, skipping the test when it is unset, unless CI=true:
// a CI run must not pass by skipping.
func serverURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("ARBITER_PG_URL")
	if url == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("ARBITER_PG_URL is not set; the PostgreSQL adapter must be tested in CI " +
				"(e.g. ARBITER_PG_URL=postgres://postgres@127.0.0.1:5432/test?sslmode=disable)")
		}
		t.Skip("ARBITER_PG_URL is not set")
	}
	return url
}

// freshSchema returns a schema name of its own for one test, dropped when the test ends.
func freshSchema(t testing.TB, url string) string {
	t.Helper()
	b := make([]byte, 8)
	rand.Read(b)
	schema := "arbiter_test_" + hex.EncodeToString(b)
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

func open(t testing.TB, url, schema string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url, postgres.WithSchema(schema), postgres.WithSigner(conformance.Signer))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	url := serverURL(t)
	conformance.Run(t, conformance.Harness{
		Open: func(t *testing.T) (eventstore.Store, func(*testing.T) eventstore.Store) {
			schema := freshSchema(t, url)
			return open(t, url, schema), func(t *testing.T) eventstore.Store { return open(t, url, schema) }
		},
		Durable: true,
	})
}

// TestGlobalChainAcrossProcesses: two stores on one schema, as two server processes,
// append at once; the global chain runs through both, and the head either signed is the
// store's last event.
func TestGlobalChainAcrossProcesses(t *testing.T) {
	url := serverURL(t)
	schema := freshSchema(t, url)
	a, b := open(t, url, schema), open(t, url, schema)
	defer a.Close()
	defer b.Close()
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w, s := range []*postgres.Store{a, b, a, b, a, b, a, b} {
		wg.Go(func() {
			for i := range 50 {
				p := eventstore.Proposed{ID: fmt.Sprintf("w%d-%d", w, i), Type: "T", SchemaVersion: 1, Payload: []byte(`{}`)}
				if _, err := s.Append(ctx, fmt.Sprintf("s%d", w), eventstore.Any, p); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, s := range []*postgres.Store{a, b} {
		if h := conformance.CheckGlobal(t, s); h.Position != 400 {
			t.Fatalf("signed head %+v, want position 400", h)
		}
	}
}
