package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

// delayedMatch creates a chess match with a spectator delay, both seats taken.
func delayedMatch(t *testing.T, srv *server, white, black, delay string) string {
	t.Helper()
	id, _ := delayedMatchWaiting(t, srv, white, black, delay)
	return id
}

// delayedMatchWaiting is delayedMatch, and the version a spectator read of the match
// while it waited for black: what a spectator held back by the delay goes on reading
// until the start is older than the delay (the command that starts it is held back
// whole, its last seat taken included).
func delayedMatchWaiting(t *testing.T, srv *server, white, black, delay string) (id string, waiting int) {
	t.Helper()
	var c struct {
		CreateMatch struct {
			Match struct {
				ID      string
				Options []struct{ Key, Value string }
			}
		}
	}
	srv.must(t, white, `mutation($d:String!){createMatch(input:{game:CHESS, options:[{key:"spectatorDelay", value:$d}]}){match{id options{key value}}}}`,
		map[string]any{"d": delay}, &c)
	if o := c.CreateMatch.Match.Options; len(o) != 1 || o[0].Key != "spectatorDelay" || o[0].Value != delay {
		t.Fatalf("the match's options are %+v, want spectatorDelay %s", o, delay)
	}
	id = c.CreateMatch.Match.ID
	for seat, tok := range []string{white, black} {
		if seat == 1 {
			var w struct{ Match struct{ Version int } }
			srv.must(t, "", `query($m:ID!){match(id:$m){version}}`, map[string]any{"m": id}, &w)
			waiting = w.Match.Version
		}
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	return id, waiting
}

// TestSpectatorDelay: a match created with spectatorDelay holds each event back from its
// spectators until the event's time plus the delay, and never from its players.
func TestSpectatorDelay(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	r := srv.post(t, white, `mutation{createMatch(input:{game:CHESS, options:[{key:"spectatorDelay", value:"901"}]}){match{id}}}`, nil)
	if r.code() != "BAD_USER_INPUT" {
		t.Fatalf("a delay past 15 minutes: %+v", r.Errors)
	}

	// Ten minutes of delay: the players follow every move at once, while a spectator's
	// match is still as it was created, whatever it asks.
	long, waiting := delayedMatchWaiting(t, srv, white, black, "600")
	players := srv.subscribe(t, ctx, "graphql-ws", white, long, 0)
	spectatorUpdates := srv.subscribeRaw(t, ctx, "graphql-transport-ws", "", `subscription($m:ID!){matchUpdates(matchId:$m){version status board{fen}}}`, map[string]any{"m": long})
	var last int
	for _, mv := range []string{"e4", "e5", "Nf3"} {
		tok := white
		if mv == "e5" {
			tok = black
		}
		var p struct{ PlayMove struct{ Version int } }
		srv.must(t, tok, `mutation($m:ID!,$mv:String!){playMove(matchId:$m, move:$mv){version}}`, map[string]any{"m": long, "mv": mv}, &p)
		last = p.PlayMove.Version
	}
	for v := 1; v <= last; v++ {
		select {
		case ev := <-players:
			if ev.Version != v {
				t.Fatalf("the player received version %d, want %d", ev.Version, v)
			}
		case <-ctx.Done():
			t.Fatalf("the player waited for version %d: %v", v, ctx.Err())
		}
	}
	var seen struct {
		Match struct {
			Version int
			Status  string
			Moves   []string
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){version status moves}}`, map[string]any{"m": long}, &seen)
	if seen.Match.Version != waiting || seen.Match.Status != "OPEN" || len(seen.Match.Moves) != 0 {
		t.Fatalf("a spectator of a match delayed by 10 minutes reads version %d, %s, moves %v; want version %d, OPEN, as it waited for Black",
			seen.Match.Version, seen.Match.Status, seen.Match.Moves, waiting)
	}
	srv.must(t, black, `query($m:ID!){match(id:$m){version status moves}}`, map[string]any{"m": long}, &seen)
	if seen.Match.Version != last || len(seen.Match.Moves) != 3 {
		t.Fatalf("a player reads version %d and moves %v, want %d and 3 moves", seen.Match.Version, seen.Match.Moves, last)
	}
	select {
	case data := <-spectatorUpdates:
		var u struct{ MatchUpdates struct{ Version int } }
		if err := json.Unmarshal(data, &u); err != nil || u.MatchUpdates.Version != waiting {
			t.Fatalf("a spectator's first matchUpdates: %s (%v), want version %d", data, err, waiting)
		}
	case <-ctx.Done():
		t.Fatal("no matchUpdates for the spectator")
	}
	// The events before the start are shown to a spectator at once, as match(id) shows
	// them: they used to wait for the delay too, so that the stream showed a spectator
	// less than the match for ten minutes.
	waited, stop := context.WithTimeout(ctx, 30*time.Second) // a bound on a failing test alone
	defer stop()
	before := srv.subscribeRaw(t, waited, "graphql-transport-ws", "", `subscription($m:ID!){matchEvents(matchId:$m, after:0){version}}`, map[string]any{"m": long})
	for v := 1; v <= waiting; v++ {
		select {
		case data, ok := <-before:
			var e struct{ MatchEvents struct{ Version int } }
			if !ok {
				t.Fatalf("a spectator's matchEvents ended before version %d of %d, from before the start, within 30 seconds of a 10 minutes' delay", v, waiting)
			}
			if err := json.Unmarshal(data, &e); err != nil || e.MatchEvents.Version != v {
				t.Fatalf("a spectator's matchEvents sent %s (%v), want version %d", data, err, v)
			}
		case <-waited.Done():
			t.Fatalf("a spectator's matchEvents did not send version %d of %d, from before the start, within 30 seconds of a 10 minutes' delay", v, waiting)
		}
	}
	stop()

	// One second of delay: each event from the start on reaches a spectator no sooner than
	// its time plus the delay, all of them, in order.
	short, shortWaiting := delayedMatchWaiting(t, srv, white, black, "1")
	spectator := srv.subscribeRaw(t, ctx, "graphql-ws", "", `subscription($m:ID!){matchEvents(matchId:$m, after:0){version at}}`, map[string]any{"m": short})
	srv.must(t, white, `mutation($m:ID!){playMove(matchId:$m, move:"d4"){version}}`, map[string]any{"m": short}, nil)
	srv.must(t, black, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": short}, nil)
	got := 0
	for data := range spectator {
		received := time.Now()
		var e struct {
			MatchEvents struct {
				Version int
				At      time.Time
			}
		}
		if err := json.Unmarshal(data, &e); err != nil {
			t.Fatal(err)
		}
		if got++; e.MatchEvents.Version != got {
			t.Fatalf("the spectator received version %d, want %d", e.MatchEvents.Version, got)
		}
		if early := e.MatchEvents.At.Add(time.Second).Sub(received); early > 0 && got > shortWaiting {
			t.Fatalf("version %d of %s reached the spectator %v before its delay was over", got, e.MatchEvents.At, early)
		}
	}
	var end struct{ Match struct{ Version int } }
	srv.must(t, "", `query($m:ID!){match(id:$m){version}}`, map[string]any{"m": short}, &end)
	if got != end.Match.Version {
		t.Fatalf("the spectator received %d events of %d", got, end.Match.Version)
	}
}
