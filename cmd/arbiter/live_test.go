package main

// Tests of the live subscriptions served once per group of alike subscribers
// (graph/live.go), over real websockets against a real server.

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// liveFrames is what one subscription received: each next message's frame as it came,
// and how it ended ("complete", "error", or "" when the socket closed first).
type liveFrames struct {
	frames [][]byte
	end    string
	last   []byte // the ending message
}

// openLive opens a socket (graphql-transport-ws), with token when there is one, and
// subscribes with id; read collects what comes.
func (s *server) openLive(t *testing.T, ctx context.Context, token, id, query string, vars map[string]any) *websocket.Conn {
	t.Helper()
	conn := s.dialWS(t, ctx, nil)
	initWS(t, ctx, conn, token)
	sendOp(t, ctx, conn, id, query, vars)
	return conn
}

// readLive reads one subscription's messages until it ends, or until stop says enough
// (given the frames so far).
func readLive(t *testing.T, ctx context.Context, conn *websocket.Conn, stop func([][]byte) bool) liveFrames {
	t.Helper()
	var f liveFrames
	for stop == nil || !stop(f.frames) {
		_, b, err := conn.Read(ctx)
		if err != nil {
			return f
		}
		var m wsMsg
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("a message that is not JSON: %s", b)
		}
		switch m.Type {
		case "next":
			f.frames = append(f.frames, b)
		case "complete", "error":
			f.end, f.last = m.Type, b
			return f
		}
	}
	return f
}

// payloadOf is a next message's payload, as the bytes it was sent as.
func payloadOf(t *testing.T, frame []byte) json.RawMessage {
	t.Helper()
	var m wsMsg
	if err := json.Unmarshal(frame, &m); err != nil {
		t.Fatal(err)
	}
	return m.Payload
}

// eventVersions checks that a subscription's matchEvents are versions from+1, from+2, ...
// with no gap and no duplicate, and returns the last.
func eventVersions(t *testing.T, name string, frames [][]byte, from int) int {
	t.Helper()
	for _, fr := range frames {
		var p struct {
			Data struct{ MatchEvents struct{ Version int } }
		}
		if err := json.Unmarshal(payloadOf(t, fr), &p); err != nil {
			t.Fatal(err)
		}
		if v := p.Data.MatchEvents.Version; v != from+1 {
			t.Fatalf("%s: version %d after %d", name, v, from)
		}
		from++
	}
	return from
}

// chessToWatch starts a server with a live chess match between two players.
func chessToWatch(t *testing.T) (srv *server, white, black, id string) {
	srv = startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white = srv.register(t, "White")
	_, black = srv.register(t, "Black")
	return srv, white, black, srv.newMatch(t, white, black, false)
}

// TestLiveGroupsShareBytes: subscribers that ask the same thing receive the same bytes,
// encoded once; another selection on the same match gets its own; a subscription's ID
// is its own even in a shared group; every one gets every event once, in order.
func TestLiveGroupsShareBytes(t *testing.T) {
	srv, white, black, id := chessToWatch(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	const full = `subscription($m:ID!,$a:Int){matchEvents(matchId:$m, after:$a){version type data}}`
	const thin = `subscription($m:ID!,$a:Int){matchEvents(matchId:$m, after:$a){version hash}}`
	const board = `subscription($m:ID!){matchUpdates(matchId:$m){version status board{fen}}}`
	const moves = `subscription($m:ID!){matchUpdates(matchId:$m){version moves}}`
	ev := map[string]any{"m": id, "a": 0}
	up := map[string]any{"m": id}
	socks := map[string]*websocket.Conn{
		"full 1":    srv.openLive(t, ctx, "", "1", full, ev),
		"full 2":    srv.openLive(t, ctx, "", "1", full, ev),
		"full id 7": srv.openLive(t, ctx, "", "7", full, ev),
		"thin":      srv.openLive(t, ctx, "", "1", thin, ev),
		"board 1":   srv.openLive(t, ctx, "", "1", board, up),
		"board 2":   srv.openLive(t, ctx, "", "1", board, up),
		"moves":     srv.openLive(t, ctx, "", "1", moves, up),
	}
	// Each has its first update (matchUpdates) before the moves: they then all follow
	// the same versions.
	got := map[string]liveFrames{}
	for _, name := range []string{"board 1", "board 2", "moves"} {
		got[name] = readLive(t, ctx, socks[name], func(f [][]byte) bool { return len(f) == 1 })
	}
	plies := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"}
	for i, mv := range plies {
		if r := srv.play(t, []string{white, black}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
		// Each view is read before the next move, so that most come one by one.
		for _, name := range []string{"board 1", "board 2", "moves"} {
			more := readLive(t, ctx, socks[name], func(f [][]byte) bool { return len(f) == 1 })
			got[name] = liveFrames{frames: append(got[name].frames, more.frames...)}
		}
	}
	srv.must(t, white, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	for name, c := range socks {
		rest := readLive(t, ctx, c, nil)
		if rest.end != "complete" {
			t.Fatalf("%s ended with %q %s, want complete", name, rest.end, rest.last)
		}
		got[name] = liveFrames{frames: append(got[name].frames, rest.frames...), end: rest.end}
	}

	same := func(a, b string) {
		t.Helper()
		if len(got[a].frames) == 0 || len(got[a].frames) != len(got[b].frames) {
			t.Fatalf("%s got %d messages, %s %d", a, len(got[a].frames), b, len(got[b].frames))
		}
		for i := range got[a].frames {
			if !bytes.Equal(got[a].frames[i], got[b].frames[i]) {
				t.Fatalf("message %d differs:\n%s: %s\n%s: %s", i, a, got[a].frames[i], b, got[b].frames[i])
			}
		}
	}
	same("full 1", "full 2")
	// matchUpdates sends the latest view: a member still writing when two versions come
	// skips the first, so two members may not get the same versions, but the same bytes
	// for each version both got, the last (the finished match) among them.
	sameVersions := func(a, b string) {
		t.Helper()
		byVersion := map[int][]byte{}
		var last int
		for _, fr := range got[a].frames {
			var p struct {
				Data struct{ MatchUpdates struct{ Version int } }
			}
			_ = json.Unmarshal(payloadOf(t, fr), &p)
			if p.Data.MatchUpdates.Version <= last {
				t.Fatalf("%s got version %d after %d", a, p.Data.MatchUpdates.Version, last)
			}
			last = p.Data.MatchUpdates.Version
			byVersion[last] = fr
		}
		shared := 0
		for _, fr := range got[b].frames {
			var p struct {
				Data struct{ MatchUpdates struct{ Version int } }
			}
			_ = json.Unmarshal(payloadOf(t, fr), &p)
			if mine, ok := byVersion[p.Data.MatchUpdates.Version]; ok {
				shared++
				if !bytes.Equal(mine, fr) {
					t.Fatalf("version %d differs:\n%s: %s\n%s: %s", p.Data.MatchUpdates.Version, a, mine, b, fr)
				}
			}
		}
		if n := len(got[b].frames); shared == 0 || !bytes.Equal(got[b].frames[n-1], got[a].frames[len(got[a].frames)-1]) {
			t.Fatalf("%s and %s do not end with the same view", a, b)
		}
	}
	sameVersions("board 1", "board 2")
	last := eventVersions(t, "full 1", got["full 1"].frames, 0)
	if eventVersions(t, "thin", got["thin"].frames, 0) != last || eventVersions(t, "full id 7", got["full id 7"].frames, 0) != last {
		t.Fatalf("the subscribers of one match ended at different versions")
	}
	for i, fr := range got["full id 7"].frames {
		var m wsMsg
		_ = json.Unmarshal(fr, &m)
		if m.ID != "7" || !bytes.Equal(payloadOf(t, fr), payloadOf(t, got["full 1"].frames[i])) {
			t.Fatalf("subscription 7's message %d is %s; subscription 1's payload is %s", i, fr, payloadOf(t, got["full 1"].frames[i]))
		}
	}
	for i, fr := range got["thin"].frames {
		var p struct {
			Data struct{ MatchEvents map[string]any }
		}
		_ = json.Unmarshal(payloadOf(t, fr), &p)
		if _, ok := p.Data.MatchEvents["hash"]; !ok || len(p.Data.MatchEvents) != 2 {
			t.Fatalf("the thin selection's message %d is %s", i, fr)
		}
	}
	for i, fr := range got["moves"].frames {
		if !bytes.Contains(fr, []byte(`"moves"`)) || bytes.Contains(fr, []byte(`"board"`)) {
			t.Fatalf("the moves selection's message %d is %s", i, fr)
		}
	}
	for i, fr := range got["board 1"].frames {
		if !bytes.Contains(fr, []byte(`"fen"`)) || bytes.Contains(fr, []byte(`"moves"`)) {
			t.Fatalf("the board selection's message %d is %s", i, fr)
		}
	}
	if n := len(got["board 1"].frames); !bytes.Contains(got["board 1"].frames[n-1], []byte(`"FINISHED"`)) {
		t.Fatalf("matchUpdates' last view is %s, want the finished match", got["board 1"].frames[n-1])
	}
}

// TestLiveGroupsHideCards: in a live UNFAIR_CHESS match, each player's sockets and the
// spectators' are grouped by viewer class. A seat's draws reach that seat in full and
// everyone else redacted; a spectator's view never holds a hand; two sockets of one class
// receive the same bytes, and the two seats' differ.
func TestLiveGroupsHideCards(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:UNFAIR_CHESS}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range []string{ann, bob} {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	const events = `subscription($m:ID!,$a:Int){matchEvents(matchId:$m, after:$a){version type data redacted visibility}}`
	const updates = `subscription($m:ID!){matchUpdates(matchId:$m){version status hand{slot card{id}}}}`
	tokens := map[string]string{"ann 1": ann, "ann 2": ann, "bob 1": bob, "bob 2": bob, "spectator 1": "", "spectator 2": ""}
	evSocks, upSocks := map[string]*websocket.Conn{}, map[string]*websocket.Conn{}
	for name, tok := range tokens {
		evSocks[name] = srv.openLive(t, ctx, tok, "1", events, map[string]any{"m": id, "a": 0})
		upSocks[name] = srv.openLive(t, ctx, tok, "1", updates, map[string]any{"m": id})
	}
	var head struct{ Match struct{ Version int } }
	srv.must(t, "", `query($m:ID!){match(id:$m){version}}`, map[string]any{"m": id}, &head)
	evs, ups := map[string]liveFrames{}, map[string]liveFrames{}
	for name := range tokens {
		evs[name] = readLive(t, ctx, evSocks[name], func(f [][]byte) bool { return len(f) == head.Match.Version })
		ups[name] = readLive(t, ctx, upSocks[name], func(f [][]byte) bool { return len(f) == 1 })
	}

	for _, class := range []string{"ann", "bob", "spectator"} {
		for _, got := range []map[string]liveFrames{evs, ups} {
			a, b := got[class+" 1"].frames, got[class+" 2"].frames
			if len(a) != len(b) {
				t.Fatalf("%s's two sockets got %d and %d messages", class, len(a), len(b))
			}
			for i := range a {
				if !bytes.Equal(a[i], b[i]) {
					t.Fatalf("%s's two sockets differ at message %d:\n%s\n%s", class, i, a[i], b[i])
				}
			}
		}
	}
	seatOf := map[string]string{"ann 1": "seat:0", "bob 1": "seat:1", "spectator 1": ""}
	hidden := map[string]int{}
	for name, own := range seatOf {
		eventVersions(t, name, evs[name].frames, 0)
		for _, fr := range evs[name].frames {
			var p struct {
				Data struct {
					MatchEvents struct {
						Version    int
						Type       string
						Data       json.RawMessage
						Redacted   bool
						Visibility string
					}
				}
			}
			_ = json.Unmarshal(payloadOf(t, fr), &p)
			e := p.Data.MatchEvents
			maySee := e.Visibility == "public" || e.Visibility == own
			if maySee == e.Redacted {
				t.Fatalf("%s got version %d (%s, %s) with redacted=%v", name, e.Version, e.Type, e.Visibility, e.Redacted)
			}
			if !maySee {
				hidden[name]++
			}
		}
		if hidden[name] == 0 {
			t.Fatalf("nothing was hidden from %s: the deal and the other seat's draws must be", name)
		}
	}
	if bytes.Equal(bytes.Join(evs["ann 1"].frames, nil), bytes.Join(evs["bob 1"].frames, nil)) {
		t.Fatalf("the two seats received the same events: one of them sees the other's draws, or neither its own")
	}
	// Each seat's view holds its own hand, as its own query reads it; a spectator's none.
	for name, tok := range map[string]string{"ann 1": ann, "bob 1": bob, "spectator 1": ""} {
		var q struct {
			Match struct{ Hand json.RawMessage }
		}
		srv.must(t, tok, `query($m:ID!){match(id:$m){hand{slot card{id}}}}`, map[string]any{"m": id}, &q)
		var p struct {
			Data struct {
				MatchUpdates struct{ Hand json.RawMessage }
			}
		}
		_ = json.Unmarshal(payloadOf(t, ups[name].frames[0]), &p)
		if !jsonEqual(p.Data.MatchUpdates.Hand, q.Match.Hand) {
			t.Fatalf("%s's matchUpdates shows the hand %s; its own query reads %s", name, p.Data.MatchUpdates.Hand, q.Match.Hand)
		}
		if name == "spectator 1" && string(q.Match.Hand) != "null" {
			t.Fatalf("a spectator reads a hand: %s", q.Match.Hand)
		}
		if name != "spectator 1" && string(q.Match.Hand) == "null" {
			t.Fatalf("%s reads no hand of its own", name)
		}
	}
}

// TestLiveResumeAfterLeaving: a subscriber that leaves a group and subscribes again after
// the last version it received, while moves go on, gets the rest with no gap and no
// duplicate, the same as one that stayed.
func TestLiveResumeAfterLeaving(t *testing.T) {
	srv, white, black, id := chessToWatch(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const q = `subscription($m:ID!,$a:Int){matchEvents(matchId:$m, after:$a){version type}}`
	stays := srv.openLive(t, ctx, "", "1", q, map[string]any{"m": id, "a": 0})
	leaves := srv.openLive(t, ctx, "", "1", q, map[string]any{"m": id, "a": 0})

	rng := rand.New(rand.NewPCG(11, 11))
	play := func(n int) {
		for range n {
			var d struct {
				Match struct {
					Turn  int
					Board struct{ LegalMoves []string }
				}
			}
			srv.must(t, "", `query($m:ID!){match(id:$m){turn board{legalMoves}}}`, map[string]any{"m": id}, &d)
			legal := d.Match.Board.LegalMoves
			if r := srv.play(t, []string{white, black}[d.Match.Turn], id, legal[rng.IntN(len(legal))]); len(r.Errors) > 0 {
				t.Fatalf("%+v", r.Errors)
			}
		}
	}
	play(5)
	first := readLive(t, ctx, leaves, func(f [][]byte) bool { return len(f) == 4 })
	leaves.CloseNow()
	resumeAt := eventVersions(t, "before leaving", first.frames, 0)
	play(5) // while it is away
	again := srv.openLive(t, ctx, "", "1", q, map[string]any{"m": id, "a": resumeAt})
	play(5)
	srv.must(t, white, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	rest := readLive(t, ctx, again, nil)
	all := readLive(t, ctx, stays, nil)
	if rest.end != "complete" || all.end != "complete" {
		t.Fatalf("the subscriptions ended with %q and %q, want complete", rest.end, all.end)
	}
	if a, b := eventVersions(t, "after resuming", rest.frames, resumeAt), eventVersions(t, "the one that stayed", all.frames, 0); a != b {
		t.Fatalf("the resumed subscriber ended at version %d, the one that stayed at %d", a, b)
	}
}

// TestAStoppedServerLeavesNoLiveWriter: the live subscriptions are written by a few
// goroutines of the server (graph's liveWriters) that outlive the requests which started
// them, and a server that stopped left them waiting for good: two or more per server
// built, in every test. Stopping the server ends them.
func TestAStoppedServerLeavesNoLiveWriter(t *testing.T) {
	before := liveWriterGoroutines()
	srv, _, _, id := chessToWatch(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn := srv.openLive(t, ctx, "", "1", `subscription($m:ID!){matchUpdates(matchId:$m){version}}`, map[string]any{"m": id})
	defer conn.CloseNow()
	if f := readLive(t, ctx, conn, func(f [][]byte) bool { return len(f) == 1 }); len(f.frames) != 1 {
		t.Fatalf("the subscription ended before its first update: %q %s", f.end, f.last)
	}
	if n := liveWriterGoroutines(); len(n) <= len(before) {
		t.Fatalf("%d live writers run while a subscription is served, %d before the server: the test sees none of the server's", len(n), len(before))
	}
	srv.stop(t)
	// stop returned once every writer said it returns: each is at most on its way out of
	// its function, which this waits for.
	deadline := time.Now().Add(10 * time.Second)
	after := liveWriterGoroutines()
	for len(after) > len(before) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		after = liveWriterGoroutines()
	}
	if len(after) > len(before) {
		t.Fatalf("%d live writers run after the server stopped, %d before it started:\n%s", len(after), len(before), strings.Join(after, "\n\n"))
	}
}

// liveWriterGoroutines returns the stacks of the goroutines that run graph's live
// writers (liveWriters' writers and watchdog) in this process.
func liveWriterGoroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "graph.(*liveWriters).") {
			out = append(out, g)
		}
	}
	return out
}
