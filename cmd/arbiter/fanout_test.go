package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestManySubscribersShareAMatch: 200 websockets on one live match, spectators and both
// players over both protocols, some from the start, some joining while moves are played
// (their catch-up from the store meets the live feed), some resuming from a version. Each
// receives every event after its start exactly once, in order, as its viewer class may
// see it: the secret seed redacted for all until the end, then revealed.
func TestManySubscribersShareAMatch(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	type sub struct {
		name  string
		after int
		got   []wsEvent
	}
	var (
		mu   sync.Mutex
		subs []*sub
		done sync.WaitGroup
	)
	open := func(n, after int) {
		protocols := []string{"graphql-transport-ws", "graphql-ws"}
		tokens := []string{"", "", white, black} // half of them spectators
		for i := range n {
			s := &sub{name: fmt.Sprintf("subscriber %d (token %d, after %d)", len(subs), i%4, after), after: after}
			ch := srv.subscribe(t, ctx, protocols[i%2], tokens[i%4], id, after)
			mu.Lock()
			subs = append(subs, s)
			mu.Unlock()
			done.Add(1)
			go func() {
				defer done.Done()
				for ev := range ch {
					s.got = append(s.got, ev)
				}
			}()
		}
	}
	open(80, 0)
	moves := []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d3", "d6", "O-O", "O-O"}
	for i, mv := range moves {
		tok := white
		if i%2 == 1 {
			tok = black
		}
		if r := srv.play(t, tok, id, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
		switch i {
		case 3:
			open(60, 0) // while moves go on: a catch-up from the store, then the feed
		case 7:
			open(60, 4) // resuming from a version
		}
	}
	srv.must(t, white, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)

	var full struct {
		Match struct {
			Version int
			Events  []wsEvent
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){version events(first:1000){version type data hash redacted visibility}}}`, map[string]any{"m": id}, &full)
	done.Wait() // each subscription completes once the finished match has been sent
	endedAt := 0
	for _, ev := range full.Match.Events {
		if ev.Type == "MatchEnded" {
			endedAt = ev.Version
		}
	}
	if endedAt == 0 || len(subs) != 200 {
		t.Fatalf("no MatchEnded in %d events, or %d subscribers", len(full.Match.Events), len(subs))
	}
	for _, s := range subs {
		if len(s.got) != full.Match.Version-s.after {
			t.Fatalf("%s: got %d events, want %d", s.name, len(s.got), full.Match.Version-s.after)
		}
		for i, ev := range s.got {
			want := full.Match.Events[s.after+i]
			if ev.Version != want.Version || ev.Hash != want.Hash {
				t.Fatalf("%s: event %d is version %d %s, want version %d %s", s.name, i, ev.Version, ev.Hash, want.Version, want.Hash)
			}
			hidden := want.Visibility != "public" && ev.Version < endedAt
			if ev.Redacted != hidden || !hidden && !jsonEqual(ev.Data, want.Data) {
				t.Fatalf("%s: version %d (%s, %s) redacted=%v %s; want redacted=%v", s.name, ev.Version, ev.Type, want.Visibility, ev.Redacted, ev.Data, hidden)
			}
		}
	}
}
