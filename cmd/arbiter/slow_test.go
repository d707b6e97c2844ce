//go:build linux

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// TestSlowConsumerIsDropped: a client that stops reading has its subscriptions ended with
// SLOW_CONSUMER and the version to resume after, every event up to it delivered first,
// while another subscriber to the same match keeps receiving: one that asks something
// else, and one that asks the same (so shares the stuck ones' live group: graph/live.go).
//
// Each case waits out the server's default SlowConsumerAfter (10 s) asleep, so both run in
// parallel, with the package's other such tests (waitsOnTheClock).
func TestSlowConsumerIsDropped(t *testing.T) {
	waitsOnTheClock(t)
	t.Run("another selection", func(t *testing.T) { waitsOnTheClock(t); slowConsumerCase(t, false) })
	t.Run("the same selection", func(t *testing.T) { waitsOnTheClock(t); slowConsumerCase(t, true) })
}

func slowConsumerCase(t *testing.T, sameGroup bool) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	// A history of 60 plies, chosen among the legal moves by a fixed seed.
	rng := rand.New(rand.NewPCG(9, 9))
	for ply := range 60 {
		var d struct {
			Match struct {
				Status string
				Board  struct{ LegalMoves []string }
			}
		}
		srv.must(t, "", `query($m:ID!){match(id:$m){status board{legalMoves}}}`, map[string]any{"m": id}, &d)
		if d.Match.Status != "LIVE" || len(d.Match.Board.LegalMoves) == 0 {
			t.Fatalf("the game is over at ply %d: choose another seed", ply)
		}
		legal := d.Match.Board.LegalMoves
		if r := srv.play(t, []string{white, black}[ply%2], id, legal[rng.IntN(len(legal))]); len(r.Errors) > 0 {
			t.Fatalf("ply %d: %+v", ply, r.Errors)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	// What the stuck socket asks: each event's data 99 times over, so that the server's
	// socket buffer fills at once.
	var fields strings.Builder
	fields.WriteString("version")
	for i := range 99 {
		fmt.Fprintf(&fields, " d%d: data", i)
	}
	heavy := `subscription($m:ID!){matchEvents(matchId:$m, after:0){` + fields.String() + `}}`

	// A subscriber that keeps up, on a socket of its own.
	versions := make(chan int, 4096)
	go func() {
		defer close(versions)
		if !sameGroup {
			for ev := range srv.subscribe(t, ctx, "graphql-transport-ws", "", id, 0) {
				versions <- ev.Version
			}
			return
		}
		for data := range srv.subscribeRaw(t, ctx, "graphql-transport-ws", "", heavy, map[string]any{"m": id}) {
			var p struct{ MatchEvents struct{ Version int } }
			if err := json.Unmarshal(data, &p); err != nil {
				t.Errorf("%s: %v", data, err)
				return
			}
			versions <- p.MatchEvents.Version
		}
	}()
	// One that stops reading: a small receive window, and forty subscriptions.
	dialer := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
		return errors.Join(err, serr)
	}}
	stuck := srv.dialWS(t, ctx, &websocket.DialOptions{HTTPClient: &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}})
	initWS(t, ctx, stuck, "")
	const subs = 40
	for i := range subs {
		sendOp(t, ctx, stuck, fmt.Sprint(i), heavy, map[string]any{"m": id})
	}

	// Without reading a byte, wait for the subscriptions to open, then for the server to
	// end some of them: those that had events waiting when the socket's buffers filled.
	most := 0
	waitUntil(t, ctx, "a subscription of the stuck socket to end", func() bool {
		var n int
		fmt.Sscan(srv.scrape(t, "arbiter_subscriptions"), &n)
		most = max(most, n)
		return most > 1 && n < most
	})

	// The other subscriber got every event in order, and gets the next one.
	var d struct {
		Match struct {
			Version int
			Board   struct{ LegalMoves []string }
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){version board{legalMoves}}}`, map[string]any{"m": id}, &d)
	next := func() int {
		select {
		case v := <-versions:
			return v
		case <-ctx.Done():
			t.Fatalf("the reader that keeps up got nothing more")
			return 0
		}
	}
	for head := 0; head < d.Match.Version; {
		if v := next(); v != head+1 {
			t.Fatalf("the reader that keeps up got version %d after %d", v, head)
		}
		head++
	}
	srv.play(t, white, id, d.Match.Board.LegalMoves[0])
	if v := next(); v != d.Match.Version+1 {
		t.Fatalf("after the stuck socket was dropped, the other subscriber got version %d, want %d", v, d.Match.Version+1)
	}

	// The stuck client reads again: each subscription's events in order, then either
	// SLOW_CONSUMER with the last version it was sent, or, for those that had been sent
	// everything before the socket filled, the events up to the match's head.
	var now struct{ Match struct{ Version int } }
	srv.must(t, "", `query($m:ID!){match(id:$m){version}}`, map[string]any{"m": id}, &now)
	head := now.Match.Version
	last, ended := map[string]int{}, map[string]int{}
	caughtUp := func() int {
		n := 0
		for id, v := range last {
			if _, gone := ended[id]; !gone && v == head {
				n++
			}
		}
		return n
	}
	for len(ended)+caughtUp() < subs {
		var m wsMsg
		if err := wsjson.Read(ctx, stuck, &m); err != nil {
			t.Fatalf("reading the stuck socket after %d ends: %v", len(ended), err)
		}
		switch m.Type {
		case "next":
			var p struct {
				Data struct{ MatchEvents struct{ Version int } }
			}
			if err := json.Unmarshal(m.Payload, &p); err != nil {
				t.Fatal(err)
			}
			if v := p.Data.MatchEvents.Version; v != last[m.ID]+1 {
				t.Fatalf("subscription %s: version %d after %d", m.ID, v, last[m.ID])
			}
			last[m.ID]++
		case "error":
			var errs []struct {
				Extensions struct {
					Code        string
					ResumeAfter int
				}
			}
			if err := json.Unmarshal(m.Payload, &errs); err != nil || len(errs) != 1 || errs[0].Extensions.Code != "SLOW_CONSUMER" {
				t.Fatalf("subscription %s ended with %s", m.ID, m.Payload)
			}
			if errs[0].Extensions.ResumeAfter != last[m.ID] {
				t.Fatalf("subscription %s: resumeAfter %d, but it was sent up to %d", m.ID, errs[0].Extensions.ResumeAfter, last[m.ID])
			}
			ended[m.ID] = last[m.ID]
		case "complete":
			t.Fatalf("subscription %s completed on a live match", m.ID)
		}
	}
	if len(ended) == 0 {
		t.Fatalf("no subscription of the stuck socket was ended as slow")
	}
	var resume string
	for id := range ended {
		resume = id
	}
	// Resuming after that version goes on with the next event.
	again := srv.subscribe(t, ctx, "graphql-transport-ws", "", id, ended[resume])
	if ev := <-again; ev.Version != ended[resume]+1 {
		t.Fatalf("resumed after %d, got version %d", ended[resume], ev.Version)
	}
}

// waitUntil polls cond until it holds, failing when ctx ends first.
func waitUntil(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("gave up waiting for %s", what)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
