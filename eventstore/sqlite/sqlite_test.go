package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
)

func open(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, sqlite.WithSigner(conformance.Signer))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Harness{
		Open: func(t *testing.T) (eventstore.Store, func(*testing.T) eventstore.Store) {
			path := filepath.Join(t.TempDir(), "events.db")
			return open(t, path), func(t *testing.T) eventstore.Store { return open(t, path) }
		},
		Durable: true,
	})
}

// TestLongAppendReusingAnID: an append longer than one INSERT statement that fails on its
// last event leaves nothing behind, and the writer's cached tail still matches the file.
func TestLongAppendReusingAnID(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "events.db"))
	defer s.Close()
	ctx := context.Background()
	evs := func(prefix string, n int) []eventstore.Proposed {
		out := make([]eventstore.Proposed, n)
		for i := range out {
			out[i] = eventstore.Proposed{ID: fmt.Sprintf("%s-%d", prefix, i), Type: "T", SchemaVersion: 1, Payload: []byte(`{}`)}
		}
		return out
	}
	first := evs("a", 200)
	if _, err := s.Append(ctx, "s", eventstore.NoStream, first...); err != nil {
		t.Fatal(err)
	}
	bad := append(evs("b", 150), first[0])
	if _, err := s.Append(ctx, "s", 200, bad...); !errors.Is(err, eventstore.ErrIDReused) {
		t.Fatalf("append reusing an ID = %v, want ErrIDReused", err)
	}
	if _, err := s.Append(ctx, "s", 200, evs("c", 3)...); err != nil {
		t.Fatal(err)
	}
	all, err := s.ReadStream(ctx, "s", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 203 || all[202].Position != 203 {
		t.Fatalf("stream has %d events, last at position %d; want 203 and 203", len(all), all[len(all)-1].Position)
	}
	if err := eventstore.VerifyChain(all); err != nil {
		t.Fatal(err)
	}
}

// TestCheckHeadWhileAppending: appends committing between the check's reads are not
// mistaken for damage at the end of the store (/readyz runs it on a serving store).
func TestCheckHeadWhileAppending(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "events.db"))
	defer s.Close()
	ctx := context.Background()
	done := make(chan error, 1)
	go func() {
		for i := range 300 {
			stream := fmt.Sprintf("s-%d", i%7)
			if _, err := s.Append(ctx, stream, eventstore.Any, eventstore.Proposed{ID: fmt.Sprintf("e-%d", i), Type: "T", SchemaVersion: 1, Payload: []byte("{}"), CommandID: fmt.Sprint(i), Actor: "system"}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for checks := 0; ; checks++ {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			if err := eventstore.CheckHead(ctx, s); err != nil {
				t.Fatalf("after the appends: %v", err)
			}
			t.Logf("%d checks during the appends", checks)
			return
		default:
		}
		if err := eventstore.CheckHead(ctx, s); err != nil {
			t.Fatalf("check %d, while appending: %v", checks, err)
		}
	}
}

// TestUnknownVisibilityIsNotRead: a row whose visibility is none of the forms the store
// writes is refused when read, never shown to anyone as some other visibility.
func TestUnknownVisibilityIsNotRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.db")
	s := open(t, path)
	ctx := context.Background()
	if _, err := s.Append(ctx, "s", eventstore.NoStream, eventstore.Proposed{ID: "a", Type: "T", SchemaVersion: 1, Payload: []byte(`{}`), Visibility: visibility.Seat(1)}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE events SET visibility = 'seat:1:extra'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s = open(t, path)
	defer s.Close()
	if evs, err := s.ReadStream(ctx, "s", 0, 0); err == nil || !strings.Contains(err.Error(), "seat:1:extra") {
		t.Fatalf("reading a row with visibility seat:1:extra = %+v, %v; want an error naming it", evs, err)
	}
}

// TestAnEventWithoutItsStreamIsNotSkipped: an event whose row in the streams table was
// deleted by hand fails the read that meets it; it is not left out of it.
func TestAnEventWithoutItsStreamIsNotSkipped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.db")
	s := open(t, path)
	ctx := context.Background()
	for i, stream := range []string{"a", "b", "a"} {
		if _, err := s.Append(ctx, stream, eventstore.Any, eventstore.Proposed{ID: fmt.Sprint(i), Type: "T", SchemaVersion: 1, Payload: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM streams WHERE name = 'b'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s = open(t, path)
	defer s.Close()
	if evs, err := s.ReadAll(ctx, 0, 0); err == nil {
		t.Fatalf("ReadAll over an event without its stream = %d events, no error", len(evs))
	}
	if evs, err := s.ReadStream(ctx, "a", 0, 0); err != nil || len(evs) != 2 {
		t.Fatalf("ReadStream of the intact stream = %d events, %v; want 2", len(evs), err)
	}
}
