package main

// The websocket protocols as the server speaks them (graph/wsconn.go, graph/wsframe.go),
// checked frame by frame with a client written here on a plain TCP connection: what a
// library client never sends (fragments with a ping between them, unmasked frames, an
// operation before connection_init, an ID in use) and the close codes of
// graphql-transport-ws.

import (
	"bufio"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rawWS is a websocket client that writes each frame as told.
type rawWS struct {
	t  *testing.T
	nc net.Conn
	r  *bufio.Reader
}

// dialRaw opens a websocket to srv's /graphql offering protocol, and checks the answer.
func dialRaw(t *testing.T, srv *server, protocol string) *rawWS {
	t.Helper()
	host := strings.TrimPrefix(srv.url, "http://")
	nc, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second))
	key := make([]byte, 16)
	_, _ = rand.Read(key)
	k := base64.StdEncoding.EncodeToString(key)
	req := "GET /graphql HTTP/1.1\r\nHost: " + host + "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n" +
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + k + "\r\nSec-WebSocket-Protocol: " + protocol + "\r\n\r\n"
	if _, err := io.WriteString(nc, req); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(nc)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha1.Sum([]byte(k + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) ||
		resp.Header.Get("Sec-WebSocket-Protocol") != protocol {
		t.Fatalf("the handshake was answered %d %v", resp.StatusCode, resp.Header)
	}
	return &rawWS{t: t, nc: nc, r: r}
}

// frame writes one frame, masked unless told otherwise.
func (w *rawWS) frame(fin bool, op byte, payload []byte, masked bool) {
	w.t.Helper()
	b := []byte{op, 0}
	if fin {
		b[0] |= 0x80
	}
	switch n := len(payload); {
	case n < 126:
		b[1] = byte(n)
	case n <= 0xffff:
		b[1] = 126
		b = binary.BigEndian.AppendUint16(b, uint16(n))
	default:
		b[1] = 127
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	body := append([]byte(nil), payload...)
	if masked {
		b[1] |= 0x80
		mask := []byte{0x37, 0xfa, 0x21, 0x3d}
		b = append(b, mask...)
		for i := range body {
			body[i] ^= mask[i%4]
		}
	}
	if _, err := w.nc.Write(append(b, body...)); err != nil {
		w.t.Fatal(err)
	}
}

// send writes a message as one text frame.
func (w *rawWS) send(v any) {
	w.t.Helper()
	b, _ := json.Marshal(v)
	w.frame(true, 0x1, b, true)
}

// read returns the server's next frame: its opcode and payload.
func (w *rawWS) read() (byte, []byte) {
	w.t.Helper()
	var h [2]byte
	if _, err := io.ReadFull(w.r, h[:]); err != nil {
		w.t.Fatalf("reading a frame: %v", err)
	}
	if h[0]&0x80 == 0 || h[1]&0x80 != 0 {
		w.t.Fatalf("the server sent a fragment or a masked frame: % x", h)
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var l [2]byte
		_, _ = io.ReadFull(w.r, l[:])
		n = uint64(binary.BigEndian.Uint16(l[:]))
	case 127:
		var l [8]byte
		_, _ = io.ReadFull(w.r, l[:])
		n = binary.BigEndian.Uint64(l[:])
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(w.r, p); err != nil {
		w.t.Fatalf("reading a frame's %d bytes: %v", n, err)
	}
	return h[0] & 0x0f, p
}

// message reads the next text message.
func (w *rawWS) message() wsMsg {
	w.t.Helper()
	op, p := w.read()
	var m wsMsg
	if op != 0x1 || json.Unmarshal(p, &m) != nil {
		w.t.Fatalf("the server sent opcode %d %q, want a message", op, p)
	}
	return m
}

// closed reads the server's close frame, and checks its code.
func (w *rawWS) closed(code int, reason string) {
	w.t.Helper()
	op, p := w.read()
	if op != 0x8 || len(p) < 2 || int(binary.BigEndian.Uint16(p)) != code || !strings.Contains(string(p[2:]), reason) {
		w.t.Fatalf("the server sent opcode %d %q, want close %d %q", op, p, code, reason)
	}
	w.frame(true, 0x8, p[:2], true)
	if _, err := w.r.ReadByte(); err != io.EOF {
		w.t.Fatalf("after the close handshake the connection is still open: %v", err)
	}
}

// TestWebsocketFrames: a message in three fragments with a ping among them is read
// whole, the ping answered with its payload; an operation runs over both protocols; a
// client's close is answered.
func TestWebsocketFrames(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	for _, protocol := range []string{"graphql-transport-ws", "graphql-ws"} {
		t.Run(protocol, func(t *testing.T) {
			ws := dialRaw(t, srv, protocol)
			init := []byte(`{"type":"connection_init","payload":{}}`)
			ws.frame(false, 0x1, init[:10], true)
			ws.frame(true, 0x9, []byte("are you there"), true)
			ws.frame(false, 0x0, init[10:20], true)
			ws.frame(true, 0x0, init[20:], true)
			if op, p := ws.read(); op != 0xA || string(p) != "are you there" {
				t.Fatalf("a ping was answered with opcode %d %q", op, p)
			}
			if m := ws.message(); m.Type != "connection_ack" {
				t.Fatalf("connection_init in fragments answered %+v", m)
			}
			data, start := "next", "subscribe"
			if protocol == "graphql-ws" {
				data, start = "data", "start"
				if m := ws.message(); m.Type != "ka" {
					t.Fatalf("graphql-ws: no keep-alive after the ack, but %+v", m)
				}
			}
			ws.send(map[string]any{"id": "q", "type": start, "payload": map[string]any{"query": "{games{id}}"}})
			if m := ws.message(); m.ID != "q" || m.Type != data || !strings.Contains(string(m.Payload), "CHESS") {
				t.Fatalf("a query over the socket answered %+v", m)
			}
			if m := ws.message(); m.ID != "q" || m.Type != "complete" {
				t.Fatalf("after a query's answer came %+v, want complete", m)
			}
			ws.frame(true, 0x8, []byte{0x03, 0xe8}, true)
			if op, p := ws.read(); op != 0x8 || len(p) < 2 || binary.BigEndian.Uint16(p) != 1000 {
				t.Fatalf("a client's close was answered with opcode %d %q", op, p)
			}
			if _, err := ws.r.ReadByte(); err != io.EOF {
				t.Fatalf("after the close handshake the connection is still open: %v", err)
			}
		})
	}
}

// TestWebsocketProtocolMistakes: each mistake ends the connection with the close code
// graphql-transport-ws gives it (and RFC 6455 for the frames).
func TestWebsocketProtocolMistakes(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	initTW := func(ws *rawWS) {
		ws.send(map[string]any{"type": "connection_init"})
		if m := ws.message(); m.Type != "connection_ack" {
			t.Fatalf("connection_init answered %+v", m)
		}
	}
	sub := map[string]any{"query": `subscription{matchUpdates(matchId:"nosuchmatch"){id}}`}
	for _, c := range []struct {
		name   string
		do     func(ws *rawWS)
		code   int
		reason string
	}{
		{"an unmasked frame", func(ws *rawWS) { ws.frame(true, 0x1, []byte(`{"type":"connection_init"}`), false) }, 1002, "masked"},
		{"an unknown opcode", func(ws *rawWS) { ws.frame(true, 0x3, []byte(`{}`), true) }, 1002, "opcode"},
		{"a continuation of nothing", func(ws *rawWS) { ws.frame(true, 0x0, []byte(`{}`), true) }, 1002, "continuation"},
		{"not JSON", func(ws *rawWS) { ws.frame(true, 0x1, []byte(`{"type":`), true) }, 4400, "invalid json"},
		{"subscribe before connection_init", func(ws *rawWS) {
			ws.send(map[string]any{"id": "1", "type": "subscribe", "payload": sub})
		}, 4401, "Unauthorized"},
		{"a second connection_init", func(ws *rawWS) {
			initTW(ws)
			ws.send(map[string]any{"type": "connection_init"})
		}, 4429, "Too many initialisation requests"},
		{"an unknown message type", func(ws *rawWS) {
			initTW(ws)
			ws.send(map[string]any{"type": "start", "id": "1"})
		}, 4400, "unexpected message start"},
		// An id is kept while its operation runs and echoed in each result: ids of a
		// message's size made a socket keep and send megabytes.
		{"an operation id of 129 bytes", func(ws *rawWS) {
			initTW(ws)
			ws.send(map[string]any{"id": strings.Repeat("a", 129), "type": "subscribe", "payload": sub})
		}, 4400, "the operation's id has 129 bytes; at most 128 are allowed"},
		{"a bad token", func(ws *rawWS) {
			ws.send(map[string]any{"type": "connection_init", "payload": map[string]any{"Authorization": "Bearer nope.0000"}})
		}, 4403, "Forbidden"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := dialRaw(t, srv, "graphql-transport-ws")
			c.do(ws)
			ws.closed(c.code, c.reason)
		})
	}

	t.Run("an operation id of 129 bytes in graphql-ws", func(t *testing.T) {
		ws := dialRaw(t, srv, "graphql-ws")
		ws.send(map[string]any{"type": "connection_init"})
		for _, want := range []string{"connection_ack", "ka"} {
			if m := ws.message(); m.Type != want {
				t.Fatalf("connection_init answered %+v, want %s", m, want)
			}
		}
		ws.send(map[string]any{"id": strings.Repeat("a", 128), "type": "start", "payload": sub})
		for _, want := range []string{"data", "complete"} { // no such match: its error
			if m := ws.message(); m.ID != strings.Repeat("a", 128) || m.Type != want {
				t.Fatalf("a start with an id of 128 bytes answered %+v, want its %s", m, want)
			}
		}
		ws.send(map[string]any{"id": strings.Repeat("a", 129), "type": "start", "payload": sub})
		if m := ws.message(); m.Type != "connection_error" || !strings.Contains(string(m.Payload), "the operation's id has 129 bytes; at most 128 are allowed") {
			t.Fatalf("a start with an id of 129 bytes answered %+v", m)
		}
		ws.closed(1002, "operation id too long")
	})

	t.Run("an ID in use", func(t *testing.T) {
		_, white := srv.register(t, "White")
		_, black := srv.register(t, "Black")
		id := srv.newMatch(t, white, black, false)
		ws := dialRaw(t, srv, "graphql-transport-ws")
		initTW(ws)
		live := map[string]any{"query": `subscription($m:ID!){matchUpdates(matchId:$m){version}}`, "variables": map[string]any{"m": id}}
		ws.send(map[string]any{"id": "a", "type": "subscribe", "payload": live})
		if m := ws.message(); m.ID != "a" || m.Type != "next" {
			t.Fatalf("a live subscription answered %+v", m)
		}
		// Completed by the client, its ID is free again at once.
		ws.send(map[string]any{"id": "a", "type": "complete"})
		ws.send(map[string]any{"id": "a", "type": "subscribe", "payload": live})
		if m := ws.message(); m.ID != "a" || m.Type != "next" {
			t.Fatalf("subscribing again under a completed ID answered %+v", m)
		}
		ws.send(map[string]any{"id": "a", "type": "subscribe", "payload": live})
		ws.closed(4409, "Subscriber for a already exists")
	})
}
