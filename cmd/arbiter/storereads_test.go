package main

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/graph"
	"github.com/arbiter-games/arbiter/matchstream"
)

// countingStore is the real store counting the reads of one stream.
type countingStore struct {
	eventstore.Store
	stream atomic.Pointer[string]
	reads  atomic.Int64
}

func (c *countingStore) ReadStream(ctx context.Context, stream string, after int64, limit int) ([]eventstore.Event, error) {
	if s := c.stream.Load(); s != nil && *s == stream {
		c.reads.Add(1)
	}
	return c.Store.ReadStream(ctx, stream, after, limit)
}

// TestSubscribersReadTheStoreOncePerMatch: sixty subscribers of one match, spectators and
// both players over both protocols, are sent ten moves while the match's stream is read a
// few times in all, not once per subscriber and move (the design before the shared feed
// read it twice per subscriber and move: 1,200 reads here).
func TestSubscribersReadTheStoreOncePerMatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sqlite, err := openStore(ctx, filepath.Join(t.TempDir(), "arbiter.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sqlite.Close() })
	store := &countingStore{Store: sqlite}
	log := slog.New(slog.DiscardHandler)
	a, err := startApp(ctx, store, appConfig{limits: graph.Limits{Log: log, WebsocketsPerPlayer: 1000, WebsocketsPerAddress: 1000}}, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.stop)
	ts := httptest.NewServer(a.handler())
	t.Cleanup(ts.Close)
	srv := &server{url: ts.URL}

	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	name := matchstream.Name(id)
	store.stream.Store(&name)

	const subscribers, moves = 60, 10
	protocols := []string{"graphql-transport-ws", "graphql-ws"}
	tokens := []string{"", "", white, black}
	var done sync.WaitGroup
	got := make([]int, subscribers)
	for i := range subscribers {
		ch := srv.subscribe(t, ctx, protocols[i%2], tokens[i%4], id, 0)
		done.Add(1)
		go func() {
			defer done.Done()
			for range ch {
				got[i]++
			}
		}()
	}
	for i, mv := range []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d3", "d6"}[:moves] {
		tok := white
		if i%2 == 1 {
			tok = black
		}
		if r := srv.play(t, tok, id, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
	}
	srv.must(t, white, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	done.Wait() // each subscription completes once the finished match has been sent
	version := srv.versionOf(t, id)
	for i, n := range got {
		if n != version {
			t.Fatalf("subscriber %d got %d events, want %d", i, n, version)
		}
	}
	if n := store.reads.Load(); n >= subscribers {
		t.Fatalf("the match's stream was read %d times for %d subscribers and %d moves; want fewer reads than subscribers", n, subscribers, moves)
	}
	t.Logf("%d reads of the match's stream for %d subscribers and %d moves", store.reads.Load(), subscribers, moves)
}
