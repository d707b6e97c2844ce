package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/postgres"
	"github.com/arbiter-games/arbiter/internal/pgtest"
)

// serverURL returns ARBITER_PG_URL, skipping the test when it is unset, unless CI=true.
func serverURL(t testing.TB) string { return pgtest.URL(t) }

// freshSchema returns a schema name of its own for one test, dropped when the test ends.
func freshSchema(t testing.TB, url string) string { return pgtest.FreshSchema(t, url, "arbiter_test_") }

func open(t testing.TB, url, schema string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url, postgres.WithSchema(schema), postgres.WithSigner(conformance.Signer))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// connect opens a plain connection to the server, closed when the test ends.
func connect(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
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
