package esdb_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/esdb"
)

// serverURL returns ARBITER_ESDB_URL, skipping the test when it is unset: no CI job runs
// an EventStoreDB server (see docs/esdb.md). When it is set the server must answer, and
// under CI=true a server that does not fails the test rather than skip it.
func serverURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("ARBITER_ESDB_URL")
	if url == "" {
		t.Skip("ARBITER_ESDB_URL is not set (e.g. esdb://127.0.0.1:2113?tls=false)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := esdb.Open(ctx, url, esdb.WithNamespace(namespace(t)))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("ARBITER_ESDB_URL=%s does not answer: %v", url, err)
		}
		t.Skipf("ARBITER_ESDB_URL=%s does not answer: %v", url, err)
	}
	s.Close()
	return url
}

// namespace returns a namespace of its own for one store: the streams of a test are
// left in the database (ESDB deletes a stream, not a prefix), under a name no other test
// reads.
func namespace(t testing.TB) string {
	t.Helper()
	b := make([]byte, 8)
	rand.Read(b)
	return "t" + hex.EncodeToString(b)
}

func open(t testing.TB, url, ns string) *esdb.Store {
	t.Helper()
	s, err := esdb.Open(context.Background(), url, esdb.WithNamespace(ns), esdb.WithSigner(conformance.Signer))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	url := serverURL(t)
	conformance.Run(t, conformance.Harness{
		Open: func(t *testing.T) (eventstore.Store, func(*testing.T) eventstore.Store) {
			ns := namespace(t)
			return open(t, url, ns), func(t *testing.T) eventstore.Store { return open(t, url, ns) }
		},
		Durable: true,
	})
}

// TestTwoProcessesOneStore: two stores on one namespace, as two nodes of a cluster,
// append to the same streams at once; every append lands once, in one global chain,
// and each store reads the other's.
func TestTwoProcessesOneStore(t *testing.T) {
	url := serverURL(t)
	ns := namespace(t)
	a, b := open(t, url, ns), open(t, url, ns)
	defer a.Close()
	defer b.Close()
	ctx := context.Background()
	done := make(chan error, 2)
	for i, s := range []*esdb.Store{a, b} {
		go func() {
			for j := range 20 {
				e := eventstore.Proposed{ID: string(rune('a'+i)) + "-" + hex.EncodeToString([]byte{byte(j)}), Type: "Ping", SchemaVersion: 1, Payload: []byte(`{}`)}
				if _, err := s.Append(ctx, "match-shared", eventstore.Any, e); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []*esdb.Store{a, b} {
		if head := conformance.CheckGlobal(t, s); head.Position != 40 {
			t.Fatalf("head %d, want 40", head.Position)
		}
		evs, err := s.ReadStream(ctx, "match-shared", 0, 0)
		if err != nil || len(evs) != 40 {
			t.Fatalf("ReadStream: %d events, %v", len(evs), err)
		}
		if err := eventstore.VerifyChain(evs); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenUnreachable: a server that does not answer is an error of Open, in bounded
// time, not a store that fails later.
func TestOpenUnreachable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := esdb.Open(ctx, "esdb://127.0.0.1:1?tls=false&maxDiscoverAttempts=1&discoveryInterval=10")
	if err == nil {
		s.Close()
		t.Fatal("Open on a closed port succeeded")
	}
}

func TestOpenRefusesABadNamespace(t *testing.T) {
	if _, err := esdb.Open(context.Background(), "esdb://127.0.0.1:1?tls=false&namespace=a.b"); err == nil {
		t.Fatal("a namespace with a dot was accepted")
	}
}
