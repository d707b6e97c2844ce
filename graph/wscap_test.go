package graph

import (
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// The counts hold what is open and nothing more: a cap is whole again once its sockets
// are given back, a key is forgotten with its last socket, and a give of what was never
// taken changes nothing.
func TestWebsocketCounts(t *testing.T) {
	var s wsCounts
	ann := wsKey{class: wsPlayer, who: "ann"}
	addr := wsKey{class: wsAnonymous, who: "192.0.2.1"}
	for i := range 3 {
		if !s.take(ann, 3) {
			t.Fatalf("Ann's socket %d of 3 refused", i+1)
		}
	}
	if s.take(ann, 3) {
		t.Fatal("Ann's fourth socket taken with a cap of 3")
	}
	if !s.take(addr, 1) || !s.take(wsKey{class: wsAwaiting, who: "192.0.2.1"}, 1) {
		t.Fatal("the address's anonymous and awaiting sockets count apart from each other and from Ann's")
	}
	if by, keys := s.totals(); by != [wsClasses]int{1, 1, 3} || keys != 3 {
		t.Fatalf("totals %v over %d keys, want [1 1 3] over 3", by, keys)
	}
	s.give(ann)
	if !s.take(ann, 3) || s.take(ann, 3) {
		t.Fatal("a socket given back makes room for one, and only one")
	}
	s.give(wsKey{class: wsPlayer, who: "bob"}) // never taken
	for range 3 {
		s.give(ann)
	}
	s.give(addr)
	s.give(wsKey{class: wsAwaiting, who: "192.0.2.1"})
	if by, keys := s.totals(); by != [wsClasses]int{} || keys != 0 || len(s.open) != 0 {
		t.Fatalf("after every socket was given back: totals %v, %d keys held", by, keys)
	}
}

// A refusal's reason fits a close frame (123 bytes) whole at the largest cap serve takes,
// and names the cap and the code.
func TestTooManyReasonFitsACloseFrame(t *testing.T) {
	for _, class := range []wsClass{wsAwaiting, wsAnonymous, wsPlayer} {
		r := tooManyReason(class, 1_000_000)
		if len(r) > 123 || !strings.HasPrefix(r, CodeTooManyConnections+": ") || !strings.Contains(r, " 1000000 ") {
			t.Errorf("class %d: %d bytes, %q", class, len(r), r)
		}
	}
}

// Real sockets on a real listener, the resolver's counts read directly: a player's socket
// over its cap is refused at connection_init in both protocols (close 1013, and in
// graphql-ws a connection_error first) and holds nothing once it ends; a socket gives its
// place back as soon as its close frame is read; one over the awaiting cap is refused
// before it sends anything.
func TestWebsocketCapsOnSockets(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r := &Resolver{Engine: engine.New(engine.Config{Store: memstore.New()})}
	_, ann, err := r.Engine.RegisterPlayer(ctx, "Ann", "register-ann-0123456789abcdef0123456789")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(Handler(r, Limits{WebsocketsPerPlayer: 2, WebsocketsPerAddress: 2, Log: slog.New(slog.DiscardHandler)}))
	defer ts.Close()
	defer r.Close()
	dial := func(protocol string) *websocket.Conn {
		t.Helper()
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/graphql", &websocket.DialOptions{Subprotocols: []string{protocol}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		return c
	}
	// open sends connection_init with token and returns the first message, or the close.
	open := func(protocol, token string) (*websocket.Conn, string, error) {
		t.Helper()
		c := dial(protocol)
		if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"connection_init","payload":{"token":"`+token+`"}}`)); err != nil {
			t.Fatal(err)
		}
		_, msg, err := c.Read(ctx)
		return c, string(msg), err
	}
	counts := func(want [wsClasses]int) {
		t.Helper()
		for {
			if got, _ := r.sockets.totals(); got == want {
				return
			}
			select { // the server counts a socket's end once it has read it
			case <-ctx.Done():
				got, _ := r.sockets.totals()
				t.Fatalf("counts %v, want %v", got, want)
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	refused := func(msg string, err error, what string) {
		t.Helper()
		var ce websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != closeTryAgainLater || !strings.Contains(ce.Reason, what) {
			t.Fatalf("over the cap: %q, %v; want close 1013 saying %q", msg, err, what)
		}
	}
	first, msg, err := open(transportWS, ann)
	if err != nil || !strings.Contains(msg, "connection_ack") {
		t.Fatalf("Ann's first socket: %q, %v", msg, err)
	}
	if _, msg, err := open(legacyWS, ann); err != nil || !strings.Contains(msg, "connection_ack") {
		t.Fatalf("Ann's second socket: %q, %v", msg, err)
	}
	_, msg, err = open(transportWS, ann)
	refused(msg, err, "this player has 2 websockets open")
	over, msg, err := open(legacyWS, ann)
	if err != nil || !strings.Contains(msg, `"type":"connection_error"`) || !strings.Contains(msg, `"code":"TOO_MANY_CONNECTIONS"`) {
		t.Fatalf("a graphql-ws socket over the cap: %q, %v; want connection_error TOO_MANY_CONNECTIONS", msg, err)
	}
	_, b, err := over.Read(ctx)
	refused(string(b), err, "this player has 2 websockets open")
	counts([wsClasses]int{0, 0, 2})

	if err := first.Close(websocket.StatusNormalClosure, ""); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.sockets.totals(); got != [wsClasses]int{0, 0, 1} {
		t.Fatalf("once its close was answered, counts %v, want [0 0 1]", got)
	}
	if _, msg, err := open(transportWS, ann); err != nil || !strings.Contains(msg, "connection_ack") {
		t.Fatalf("Ann's socket in the place of the closed one: %q, %v", msg, err)
	}

	waiting := []*websocket.Conn{dial(transportWS), dial(legacyWS)}
	counts([wsClasses]int{2, 0, 2})
	_, b, err = dial(transportWS).Read(ctx)
	refused(string(b), err, "2 websockets from this address await connection_init")
	for _, c := range waiting {
		c.CloseNow()
	}
	counts([wsClasses]int{0, 0, 2})
}
