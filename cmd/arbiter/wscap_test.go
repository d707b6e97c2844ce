package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// The caps on websockets open at once (graph/wscap.go), from outside: real sockets to a
// real server, from several loopback addresses.

// dialFrom opens a websocket to /graphql in protocol from the local address ip
// (127.0.0.1 when ""), sending nothing.
func (s *server) dialFrom(t *testing.T, ctx context.Context, protocol, ip string) *websocket.Conn {
	t.Helper()
	conn, err := s.tryDialFrom(ctx, protocol, ip)
	if err != nil {
		t.Fatalf("dialing the websocket from %s: %v", ip, err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}

func (s *server) tryDialFrom(ctx context.Context, protocol, ip string) (*websocket.Conn, error) {
	if ip == "" {
		ip = "127.0.0.1"
	}
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	client := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext, DisableKeepAlives: true}}
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.url, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{protocol}, HTTPClient: client})
	return conn, err
}

// sendInit sends connection_init, with the token when there is one.
func sendInit(t *testing.T, ctx context.Context, conn *websocket.Conn, token string) {
	t.Helper()
	init := map[string]any{"type": "connection_init"}
	if token != "" {
		init["payload"] = map[string]any{"Authorization": "Bearer " + token}
	}
	if err := wsjson.Write(ctx, conn, init); err != nil {
		t.Fatalf("sending connection_init: %v", err)
	}
}

// openAs opens a websocket from ip and initialises it (as the token's player, or without
// one), failing unless it is acknowledged.
func (s *server) openAs(t *testing.T, ctx context.Context, protocol, ip, token string) *websocket.Conn {
	t.Helper()
	conn := s.dialFrom(t, ctx, protocol, ip)
	sendInit(t, ctx, conn, token)
	var ack wsMsg
	if err := wsjson.Read(ctx, conn, &ack); err != nil || ack.Type != "connection_ack" {
		t.Fatalf("connection_init (%s from %s) answered %+v, %v", protocol, ip, ack, err)
	}
	return conn
}

// wantTooMany reads the refusal of a socket over a cap: in graphql-ws a connection_error
// TOO_MANY_CONNECTIONS; in both, close 1013 with a reason that starts with the code and
// says want.
func wantTooMany(t *testing.T, ctx context.Context, conn *websocket.Conn, protocol, want string) {
	t.Helper()
	if protocol == "graphql-ws" {
		var m wsMsg
		if err := wsjson.Read(ctx, conn, &m); err != nil || m.Type != "connection_error" ||
			!strings.Contains(string(m.Payload), `"code":"TOO_MANY_CONNECTIONS"`) || !strings.Contains(string(m.Payload), want) {
			t.Fatalf("a graphql-ws socket over the cap got %s %s, %v; want connection_error TOO_MANY_CONNECTIONS saying %q", m.Type, m.Payload, err, want)
		}
	}
	_, msg, err := conn.Read(ctx)
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusTryAgainLater ||
		!strings.HasPrefix(ce.Reason, "TOO_MANY_CONNECTIONS: ") || !strings.Contains(ce.Reason, want) {
		t.Fatalf("a %s socket over the cap got %q, %v; want close 1013 TOO_MANY_CONNECTIONS saying %q", protocol, msg, err, want)
	}
}

var websocketsGauge = regexp.MustCompile(`(?m)^arbiter_websockets\{counted="(\w+)"\} (\d+)$`)

// websockets reads arbiter_websockets from /metrics: awaiting_init, anonymous, player.
func (s *server) websockets(t *testing.T) [3]string {
	t.Helper()
	var out [3]string
	for _, m := range websocketsGauge.FindAllSubmatch(s.metrics(t), -1) {
		switch string(m[1]) {
		case "awaiting_init":
			out[0] = string(m[2])
		case "anonymous":
			out[1] = string(m[2])
		case "player":
			out[2] = string(m[2])
		}
	}
	return out
}

// waitForWebsockets waits until /metrics counts awaiting, anonymous and player sockets:
// the server counts a socket's end once it has read it (the client's close, or the drop).
func (s *server) waitForWebsockets(t *testing.T, ctx context.Context, awaiting, anonymous, player int) {
	t.Helper()
	want := [3]string{fmt.Sprint(awaiting), fmt.Sprint(anonymous), fmt.Sprint(player)}
	var got [3]string
	waitUntil(t, ctx, fmt.Sprintf("arbiter_websockets %v (awaiting_init, anonymous, player)", want), func() bool {
		got = s.websockets(t)
		return got == want
	})
}

// meOn sends { me { name } } on an initialised graphql-transport-ws socket and returns
// the name.
func meOn(t *testing.T, ctx context.Context, conn *websocket.Conn, id string) string {
	t.Helper()
	sendOp(t, ctx, conn, id, `{ me { name } }`, nil)
	var m struct {
		ID      string
		Type    string
		Payload struct {
			Data struct{ Me struct{ Name string } }
		}
	}
	if err := wsjson.Read(ctx, conn, &m); err != nil || m.Type != "next" || m.ID != id {
		t.Fatalf("{ me { name } } on an open socket: %+v, %v", m, err)
	}
	var done wsMsg
	if err := wsjson.Read(ctx, conn, &done); err != nil || done.Type != "complete" {
		t.Fatalf("{ me { name } } did not complete: %+v, %v", done, err)
	}
	return m.Payload.Data.Me.Name
}

// TestWebsocketsPerPlayer: with the default cap, a player's ninth websocket is refused at
// connection_init, in both protocols, and the refusal changes nothing: the eight keep
// working, and once one closes a new one is accepted at once. Another player, and a
// socket without a token from the same address, are not affected.
func TestWebsocketsPerPlayer(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const tw, legacy = "graphql-transport-ws", "graphql-ws"
	var anns []*websocket.Conn
	for i := range 8 {
		protocol := tw
		if i%2 == 1 {
			protocol = legacy
		}
		anns = append(anns, srv.openAs(t, ctx, protocol, "", ann))
	}
	srv.waitForWebsockets(t, ctx, 0, 0, 8)
	for _, protocol := range []string{tw, legacy} {
		conn := srv.dialFrom(t, ctx, protocol, "")
		sendInit(t, ctx, conn, ann)
		wantTooMany(t, ctx, conn, protocol, "this player has 8 websockets open, the most allowed")
	}
	// The refused sockets held nothing once they ended, and the eight still serve.
	srv.waitForWebsockets(t, ctx, 0, 0, 8)
	for i := 0; i < len(anns); i += 2 {
		if name := meOn(t, ctx, anns[i], fmt.Sprint("me", i)); name != "Ann" {
			t.Fatalf("Ann's socket %d answered me as %q", i, name)
		}
	}
	bobs := srv.openAs(t, ctx, tw, "", bob)
	if name := meOn(t, ctx, bobs, "me"); name != "Bob" {
		t.Fatalf("Bob's socket answered me as %q", name)
	}
	srv.openAs(t, ctx, tw, "", "")
	srv.waitForWebsockets(t, ctx, 0, 1, 9)

	// Ann closes one: her close is answered once its place is given back, so a new one is
	// accepted at once; and the ninth again is not.
	if err := anns[0].Close(websocket.StatusNormalClosure, "done"); err != nil {
		t.Fatalf("closing one of Ann's sockets: %v", err)
	}
	again := srv.openAs(t, ctx, tw, "", ann)
	if name := meOn(t, ctx, again, "me"); name != "Ann" {
		t.Fatalf("Ann's new socket answered me as %q", name)
	}
	over := srv.dialFrom(t, ctx, tw, "")
	sendInit(t, ctx, over, ann)
	wantTooMany(t, ctx, over, tw, "this player has 8 websockets")

	// A socket the server closes (a message that is not JSON) gives its place back too.
	if err := anns[2].Write(ctx, websocket.MessageText, []byte("{")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := anns[2].Read(ctx); websocket.CloseStatus(err) != 4400 {
		t.Fatalf("a message that is not JSON: %v, want close 4400", err)
	}
	srv.waitForWebsockets(t, ctx, 0, 1, 8)
	srv.openAs(t, ctx, legacy, "", ann)
	srv.waitForWebsockets(t, ctx, 0, 1, 9)
}

// TestWebsocketsPerAddress: sockets without a token are capped per address
// (--ws-per-address), and so, apart from them, are the sockets still awaiting their
// connection_init, which are refused at once; a player from a capped address still gets
// in, another address is not affected, and --ws-per-player sets the players' cap.
func TestWebsocketsPerAddress(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"), "--ws-per-address", "3", "--ws-per-player", "2")
	_, ann := srv.register(t, "Ann")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const tw, legacy = "graphql-transport-ws", "graphql-ws"
	for range 3 {
		srv.openAs(t, ctx, tw, "127.0.0.1", "")
	}
	for _, protocol := range []string{tw, legacy} {
		conn := srv.dialFrom(t, ctx, protocol, "127.0.0.1")
		sendInit(t, ctx, conn, "")
		wantTooMany(t, ctx, conn, protocol, "this address has 3 websockets without a token open, the most allowed")
	}
	annFromThere := srv.openAs(t, ctx, tw, "127.0.0.1", ann)
	if name := meOn(t, ctx, annFromThere, "me"); name != "Ann" {
		t.Fatalf("Ann's socket from a capped address answered me as %q", name)
	}
	srv.openAs(t, ctx, legacy, "127.0.0.2", "")
	srv.waitForWebsockets(t, ctx, 0, 4, 1)

	// Sockets that send nothing: three from one address wait, the fourth is refused at
	// once, before it sends anything.
	var waiting []*websocket.Conn
	for range 3 {
		waiting = append(waiting, srv.dialFrom(t, ctx, tw, "127.0.0.3"))
	}
	srv.waitForWebsockets(t, ctx, 3, 4, 1)
	for _, protocol := range []string{tw, legacy} {
		wantTooMany(t, ctx, srv.dialFrom(t, ctx, protocol, "127.0.0.3"), protocol, "3 websockets from this address await connection_init, the most allowed")
	}
	sendInit(t, ctx, waiting[0], "")
	var ack wsMsg
	if err := wsjson.Read(ctx, waiting[0], &ack); err != nil || ack.Type != "connection_ack" {
		t.Fatalf("an awaiting socket's connection_init: %+v, %v", ack, err)
	}
	srv.openAs(t, ctx, tw, "127.0.0.3", "") // in the place the first left

	// --ws-per-player 2.
	srv.openAs(t, ctx, tw, "127.0.0.2", ann)
	over := srv.dialFrom(t, ctx, tw, "127.0.0.2")
	sendInit(t, ctx, over, ann)
	wantTooMany(t, ctx, over, tw, "this player has 2 websockets open")
	srv.waitForWebsockets(t, ctx, 2, 6, 2)
}

// TestWebsocketChurnLeavesNoCount: sockets opened and dropped abruptly at every stage
// (before the upgrade's answer, awaiting, initialised, refused over a cap, refused for a
// wrong token, closed by the server, holding a subscription), many at once, leave every
// count at zero, and every cap whole.
func TestWebsocketChurnLeavesNoCount(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"), "--ws-per-address", "4", "--ws-per-player", "2")
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	match := srv.newMatch(t, ann, bob, false)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	host := strings.TrimPrefix(srv.url, "http://")
	cycle := func(i int) error {
		ip := fmt.Sprintf("127.0.0.%d", 1+i%3)
		if i%8 == 7 { // the upgrade request, and gone before its answer
			nc, err := net.Dial("tcp", host)
			if err != nil {
				return err
			}
			fmt.Fprintf(nc, "GET /graphql HTTP/1.1\r\nHost: %s\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: graphql-ws\r\n\r\n", host)
			return nc.Close()
		}
		protocol := "graphql-transport-ws"
		if i%2 == 1 {
			protocol = "graphql-ws"
		}
		conn, err := srv.tryDialFrom(ctx, protocol, ip)
		if err != nil {
			return err
		}
		defer conn.CloseNow() // a drop: no close frame
		init := func(token string) error {
			m := map[string]any{"type": "connection_init"}
			if token != "" {
				m["payload"] = map[string]any{"authToken": token}
			}
			return wsjson.Write(ctx, conn, m)
		}
		switch i % 8 {
		case 0: // awaiting (or refused at once)
		case 1: // without a token (or over the cap)
			err = init("")
		case 2, 3: // a player (or over the cap), sometimes answered
			err = init(ann)
			if err == nil && i%8 == 3 {
				_, _, err = conn.Read(ctx)
			}
		case 4: // a wrong token
			err = init("p0.00000000000000000000000000000000")
		case 5: // not JSON: closed by the server
			err = conn.Write(ctx, websocket.MessageText, []byte("{"))
		case 6: // a subscription held
			if err = init(bob); err == nil {
				start := "subscribe"
				if protocol == "graphql-ws" {
					start = "start"
				}
				err = wsjson.Write(ctx, conn, map[string]any{"id": "1", "type": start,
					"payload": map[string]any{"query": `subscription($m:ID!){matchUpdates(matchId:$m){version}}`, "variables": map[string]any{"m": match}}})
			}
		}
		if err != nil && websocket.CloseStatus(err) == -1 {
			return fmt.Errorf("cycle %d (%s from %s): %w", i, protocol, ip, err)
		}
		return nil
	}
	const workers, cycles = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, workers*cycles)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range cycles {
				if err := cycle(w*cycles + c); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	srv.waitForWebsockets(t, ctx, 0, 0, 0)
	// Every place is there again: each player's two, each address's four.
	for range 2 {
		srv.openAs(t, ctx, "graphql-transport-ws", "", ann)
		srv.openAs(t, ctx, "graphql-ws", "127.0.0.2", bob)
	}
	for range 4 {
		srv.openAs(t, ctx, "graphql-transport-ws", "127.0.0.3", "")
	}
	srv.waitForWebsockets(t, ctx, 0, 4, 4)
}

// TestWebsocketCapFlags: a cap below 1 (or above a million) is refused before anything is
// opened, naming the flags.
func TestWebsocketCapFlags(t *testing.T) {
	for _, args := range [][]string{{"--ws-per-player", "0"}, {"--ws-per-address", "-1"}, {"--ws-per-address", "2000000"}} {
		var stdout, stderr strings.Builder
		code := run(context.Background(), append([]string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "a.db")}, args...), &stdout, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), "--ws-per-player and --ws-per-address must be from 1 to 1000000") {
			t.Fatalf("serve %v: exit %d, %s", args, code, stderr.String())
		}
	}
}

// TestBenchSpectatorsNamesTheCap: bench spectators against a server whose cap per address
// is below its spectators fails saying so, and what to do.
func TestBenchSpectatorsNamesTheCap(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "a.db"), "--ws-per-address", "3")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := benchSpectators(ctx, spectatorConfig{URL: srv.url, Kind: "events", Spectators: 5, Matches: 1, Moves: 2, Rate: 50, Seed: 7})
	// Opened 64 at a time, they meet the cap on anonymous sockets or the one on sockets
	// awaiting their connection_init, whichever comes first: both name the 3.
	if err == nil || !regexp.MustCompile(`TOO_MANY_CONNECTIONS: [^"]*\b3 websockets`).MatchString(err.Error()) || !strings.Contains(err.Error(), "start the server with --ws-per-address above the connections") {
		t.Fatalf("bench spectators over the cap: %v", err)
	}
}
