package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
)

// TestWebsocketRFC6455Failures: what RFC 6455 says fails a connection does, over a real
// server with frames written by hand: every reserved opcode (0x3-0x7, and 0xB-0xF, once
// taken for pongs) with 1002, a reserved bit, a long or fragmented control frame with
// 1002, a text message that is not UTF-8, in one frame or once its fragments are
// joined, with 1007, and a close frame with a code no client may send (1002) or a reason
// that is not UTF-8 (1007). A character split between two fragments is not a mistake. (An
// unmasked frame: TestWebsocketProtocolMistakes.)
func TestWebsocketRFC6455Failures(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	type mistake struct {
		name   string
		do     func(ws *rawWS)
		code   int
		reason string
	}
	var mistakes []mistake
	for op := byte(0x3); op <= 0xF; op++ {
		if op >= 0x8 && op <= 0xA {
			continue
		}
		mistakes = append(mistakes, mistake{fmt.Sprintf("opcode %#x", op), func(ws *rawWS) { ws.frame(true, op, []byte("x"), true) }, 1002, "reserved"})
	}
	init := []byte(`{"type":"connection_init","payload":{"name":"é"}}`)
	cut := bytes.IndexByte(init, 0xc3) + 1 // between the two bytes of é
	mistakes = append(mistakes,
		mistake{"a reserved bit", func(ws *rawWS) { ws.frame(true, 0x40|0x1, init, true) }, 1002, "reserved bits"},
		mistake{"a reserved opcode inside a message", func(ws *rawWS) {
			ws.frame(false, 0x1, init[:5], true)
			ws.frame(true, 0xB, nil, true)
		}, 1002, "reserved"},
		mistake{"a ping of 126 bytes", func(ws *rawWS) { ws.frame(true, 0x9, bytes.Repeat([]byte("p"), 126), true) }, 1002, "control frame"},
		mistake{"a fragmented ping", func(ws *rawWS) { ws.frame(false, 0x9, []byte("p"), true) }, 1002, "control frame"},
		mistake{"a text frame not UTF-8", func(ws *rawWS) { ws.frame(true, 0x1, init[:cut], true) }, 1007, "UTF-8"},
		mistake{"a close code no client may send", func(ws *rawWS) { ws.frame(true, 0x8, []byte{0x03, 0xee}, true) }, 1002, "close code 1006"},
		mistake{"a close reason not UTF-8", func(ws *rawWS) { ws.frame(true, 0x8, []byte{0x03, 0xe8, 0xff}, true) }, 1007, "UTF-8"},
		mistake{"text fragments not UTF-8 once joined", func(ws *rawWS) {
			ws.frame(false, 0x1, init[:cut], true)
			ws.frame(true, 0x0, []byte(`x"}}`), true)
		}, 1007, "UTF-8"},
	)
	for _, c := range mistakes {
		t.Run(c.name, func(t *testing.T) {
			ws := dialRaw(t, srv, "graphql-transport-ws")
			c.do(ws)
			ws.closed(c.code, c.reason)
		})
	}
	t.Run("a character split between fragments", func(t *testing.T) {
		ws := dialRaw(t, srv, "graphql-transport-ws")
		ws.frame(false, 0x1, init[:cut], true)
		ws.frame(true, 0x0, init[cut:], true)
		if m := ws.message(); m.Type != "connection_ack" {
			t.Fatalf("connection_init with é split between fragments answered %+v", m)
		}
	})
}
