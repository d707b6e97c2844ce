package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// manySockets lifts the caps on websockets (TestWebsocketsPerPlayer) for the tests that
// open a socket per subscriber, scores of them per player and from one address.
var manySockets = []string{"--ws-per-player", "1000", "--ws-per-address", "1000"}

// TestManySubscribersShareAMatch: 200 websockets on one live match, spectators and both
// players over both protocols, some from the start, some joining while moves are played
// (their catch-up from the store meets the live feed), some resuming from a version. Each
// receives every event after its start exactly once, in order, as its viewer class may
// see it: the secret seed redacted for all until the end, then revealed.
func TestManySubscribersShareAMatch(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"), manySockets...)
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

// BenchmarkFanOut measures what delivering one move to many subscribers costs the
// server, through real websockets: each op is one chess move, played and then received
// by every one of 200 matchEvents subscribers (half spectators, half the players, over
// both protocols). ns/subscriber-event is the wall time per delivery; the server and
// the subscribers share the process and its cores, so compare runs on one machine.
//
//	go test -run '^$' -bench FanOut -benchtime 60x ./cmd/arbiter/
func BenchmarkFanOut(b *testing.B) {
	const subscribers = 200
	srv := startServer(b, filepath.Join(b.TempDir(), "arbiter.db"), manySockets...)
	_, white := srv.register(b, "White")
	_, black := srv.register(b, "Black")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The knights go out and back: fourteen plies before the fifth repetition ends the
	// match; a new match, with new subscribers, takes over before that.
	shuffle := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	var (
		id      string
		chans   []<-chan wsEvent
		version int
		played  int
	)
	setup := func() {
		b.StopTimer()
		cancel()
		ctx, cancel = context.WithCancel(context.Background())
		id = srv.newMatch(b, white, black, false)
		var m struct{ Match struct{ Version int } }
		srv.must(b, "", `query($m:ID!){match(id:$m){version}}`, map[string]any{"m": id}, &m)
		version, played = m.Match.Version, 0
		chans = chans[:0]
		tokens := []string{"", white, "", black}
		for i := range subscribers {
			chans = append(chans, srv.subscribe(b, ctx, []string{"graphql-transport-ws", "graphql-ws"}[i%2], tokens[i%4], id, version))
		}
		b.StartTimer()
	}
	setup()
	b.ResetTimer()
	for i := range b.N {
		if played == 12 {
			setup()
		}
		tok := white
		if played%2 == 1 {
			tok = black
		}
		r := srv.play(b, tok, id, shuffle[played%4])
		if len(r.Errors) > 0 {
			b.Fatalf("move %d: %+v", i, r.Errors)
		}
		played++
		var acked struct {
			PlayMove struct{ Version int }
		}
		if err := json.Unmarshal(r.Data, &acked); err != nil {
			b.Fatal(err)
		}
		for _, ch := range chans {
			for v := version + 1; v <= acked.PlayMove.Version; v++ {
				select {
				case ev := <-ch:
					if ev.Version != v {
						b.Fatalf("received version %d, want %d", ev.Version, v)
					}
				case <-time.After(time.Minute):
					b.Fatalf("no version %d after a minute", v)
				}
			}
		}
		version = acked.PlayMove.Version
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*subscribers), "ns/subscriber-event")
}
