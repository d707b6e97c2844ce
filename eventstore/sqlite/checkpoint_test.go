package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
)

// TestCheckpointsStartTheWALOver: with a background pass every 32 events, the WAL is
// written from its start again long before the writer's own checkpoint would do it (at
// 2000 pages). Each event's payload fills at least a page of its own, so the appends
// write more than 2000 pages in all: a WAL that never started over would hold them.
func TestCheckpointsStartTheWALOver(t *testing.T) {
	const (
		walPages = 2000
		writers  = 32
		each     = 64 // events per writer, one per append: 2048 in all
	)
	path := filepath.Join(t.TempDir(), "events.db")
	s, err := sqlite.Open(context.Background(), path, sqlite.WithSigner(conformance.Signer), sqlite.WithCheckpoints(32, walPages))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	payload := []byte(`{"pad":"` + strings.Repeat("x", 4096) + `"}`)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				e := eventstore.Proposed{ID: fmt.Sprintf("w%d-%d", w, i), Type: "T", SchemaVersion: 1, Payload: payload}
				if _, err := s.Append(context.Background(), fmt.Sprintf("s%d", w), int64(i), e); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	// The WAL file keeps the size of its longest run: SQLite writes it over, not anew.
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	const frame = 4096 + 24
	pages := fi.Size() / frame
	t.Logf("the WAL's longest run: %d pages", pages)
	if pages > walPages/2 {
		t.Errorf("the WAL grew to %d pages for %d events of a page or more each; want it started over before %d", pages, writers*each, walPages/2)
	}
	all, err := s.ReadAll(context.Background(), 0, 0)
	if err != nil || len(all) != writers*each {
		t.Fatalf("read %d events back, want %d (%v)", len(all), writers*each, err)
	}
}
