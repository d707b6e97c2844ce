package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Players leaving a live match, seen from outside: a player's websocket closes, the match
// records that it left; the opponent may claim the win once the server's --claim-after
// has passed, and the player forfeits by itself at --forfeit-after. Coming back cancels
// it; a server that stops is nobody leaving.

// leaving starts a server with the given rule, a chess match between Ann and Bob, and a
// spectator's stream of event types.
func leaving(t *testing.T, db string, claim, forfeit string) (*server, string, string, string, <-chan wsEvent) {
	t.Helper()
	srv := startServer(t, db, "--claim-after", claim, "--forfeit-after", forfeit)
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.newMatch(t, ann, bob, false)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return srv, ann, bob, id, srv.subscribe(t, ctx, "graphql-transport-ws", "", id, 0)
}

// connect opens a player's live view of the match; cancel closes its websocket.
func connect(t *testing.T, srv *server, token, id string) context.CancelFunc {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	updates := srv.subscribeRaw(t, ctx, "graphql-ws", token, `subscription($m:ID!){matchUpdates(matchId:$m){version}}`, map[string]any{"m": id})
	<-updates // the first view: the subscription is open and counted
	go func() {
		for range updates {
		}
	}()
	return cancel
}

// await reads the spectator's stream until an event of type typ, and returns it.
func await(t *testing.T, events <-chan wsEvent, typ string) wsEvent {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("the stream ended before %s", typ)
			}
			if ev.Type == typ {
				return ev
			}
		case <-timeout:
			t.Fatalf("no %s within 20 s", typ)
		}
	}
}

const claimQ = `mutation($m:ID!){claimVictory(matchId:$m){match{status result{winner reason}}}}`

// TestLeavingAndComingBack waits for the grace (5 s) asleep: waitsOnTheClock.
func TestLeavingAndComingBack(t *testing.T) {
	waitsOnTheClock(t)
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv, ann, bob, id, events := leaving(t, db, "1h", "2h")
	if r := srv.post(t, ann, claimQ, map[string]any{"m": id}); r.code() != "CONFLICT" || !strings.Contains(r.Errors[0].Message, "no opponent has left") {
		t.Fatalf("a claim while Bob never left: %+v", r.Errors)
	}
	connect(t, srv, bob, id)() // Bob opens the match, then closes his page
	left := await(t, events, "SeatLeft")
	if !strings.Contains(string(left.Data), `"seat":1`) {
		t.Fatalf("SeatLeft %s", left.Data)
	}
	var d struct {
		Match struct {
			Seats []struct{ AwaySince *time.Time }
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){seats{awaySince}}}`, map[string]any{"m": id}, &d)
	if d.Match.Seats[0].AwaySince != nil || d.Match.Seats[1].AwaySince == nil {
		t.Fatalf("who is away: %+v", d.Match.Seats)
	}
	if r := srv.post(t, ann, claimQ, map[string]any{"m": id}); r.code() != "CONFLICT" || !strings.Contains(r.Errors[0].Message, "may claim the win in") {
		t.Fatalf("a claim before --claim-after: %+v", r.Errors)
	}
	closeBob := connect(t, srv, bob, id) // Bob reloads the page
	await(t, events, "SeatReturned")
	defer closeBob()

	// The server stops while Bob is connected: nobody left.
	srv.stop(t)
	srv = startServer(t, db)
	var after struct {
		Match struct {
			Status string
			Events []struct{ Type string }
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){status events{type}}}`, map[string]any{"m": id}, &after)
	if last := after.Match.Events[len(after.Match.Events)-1].Type; after.Match.Status != "LIVE" || last != "SeatReturned" {
		t.Fatalf("after the server stopped with Bob connected: %s, last event %s", after.Match.Status, last)
	}
}

func TestClaimingTheWinAgainstAPlayerWhoLeft(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv, ann, bob, id, events := leaving(t, db, "100ms", "1h")
	connect(t, srv, bob, id)()
	await(t, events, "SeatLeft")
	var r gqlResponse
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if r = srv.post(t, ann, claimQ, map[string]any{"m": id}); r.code() != "CONFLICT" {
			break // not a timing assertion: the claim is retried until --claim-after has passed
		}
	}
	if len(r.Errors) > 0 || !strings.Contains(string(r.Data), `"winner":0,"reason":"abandonment"`) {
		t.Fatalf("Ann's claim: %s %+v", r.Data, r.Errors)
	}
	srv.stop(t)
	if last, out := lastLine(t, "verify", "--db", db, "--match", id); !strings.HasPrefix(last, "1 matches") || !strings.HasSuffix(last, "all ok") {
		t.Fatalf("verify:\n%s", out)
	}
}

func TestAPlayerAwayForfeits(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv, _, bob, id, events := leaving(t, db, "100ms", "300ms")
	connect(t, srv, bob, id)()
	forfeit := await(t, events, "Forfeited")
	if !strings.Contains(string(forfeit.Data), `"claimedBy":-1`) {
		t.Fatalf("Forfeited %s", forfeit.Data)
	}
	ended := await(t, events, "MatchEnded")
	if !strings.Contains(string(ended.Data), `"winners":[0]`) || !strings.Contains(string(ended.Data), "abandonment") {
		t.Fatalf("MatchEnded %s", ended.Data)
	}
	srv.stop(t)
	if last, out := lastLine(t, "verify", "--db", db, "--match", id); !strings.HasSuffix(last, "all ok") {
		t.Fatalf("verify:\n%s", out)
	}
}

// A player connected to two nodes closes its page on one: that node records it left, the
// other, still serving it, records it back; when it closes the second page, it has left.
//
// It waits for the nodes' grace periods asleep, so it runs in parallel (waitsOnTheClock).
func TestPresenceAcrossNodes(t *testing.T) {
	waitsOnTheClock(t)
	a, b := twoNodes(t, "--claim-after", "1h", "--forfeit-after", "2h")
	_, ann := a.register(t, "Ann")
	_, bob := a.register(t, "Bob")
	id := a.newMatch(t, ann, bob, false)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	events := a.subscribe(t, ctx, "graphql-transport-ws", "", id, 0)
	caughtUp(t, a, b, id)
	closeOnB := connect(t, b, bob, id)
	connect(t, a, bob, id)() // Bob closes his page on node A only
	await(t, events, "SeatLeft")
	await(t, events, "SeatReturned")
	closeOnB()
	await(t, events, "SeatLeft")
}

// caughtUp waits until node to's read side holds match id at the version node from shows:
// a node learns of the matches another node stores through the bus, a moment later, and
// until then it answers NOT_FOUND for them.
func caughtUp(t *testing.T, from, to *server, id string) {
	t.Helper()
	const q = `query($m:ID!){match(id:$m){version}}`
	var want struct{ Match struct{ Version int } }
	from.must(t, "", q, map[string]any{"m": id}, &want)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var got struct{ Match *struct{ Version int } }
		if r := to.post(t, "", q, map[string]any{"m": id}); len(r.Errors) == 0 && json.Unmarshal(r.Data, &got) == nil && got.Match != nil && got.Match.Version >= want.Match.Version {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the other node never saw match %s at version %d", id, want.Match.Version)
		}
	}
}
