package graph

// The websocket protocol (RFC 6455) on the server's side, as much as the API needs: the
// opening handshake, the client's frames (masked, possibly fragmented, pings and closes
// among them) and the server's (unmasked, one frame per message). No extension is
// negotiated, so a client never compresses.

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Frame opcodes.
const (
	opContinuation = 0x0
	opText         = 0x1
	opBinary       = 0x2
	opClose        = 0x8
	opPing         = 0x9
	opPong         = 0xA
)

// Close codes the server sends.
const (
	closeNormal        = 1000
	closeGoingAway     = 1001
	closeProtocolError = 1002
	closeInvalidData   = 1007 // a text message that is not UTF-8
	closeTooBig        = 1009
	closeNoStatus      = 1005 // received only: a close frame without a code
	// graphql-transport-ws's own.
	closeBadMessage   = 4400
	closeForbidden    = 4403
	closeDuplicateSub = 4409
	closeTooManyInits = 4429
)

// maxFrameHeader is the longest header of a server frame: two bytes and a 64-bit length.
const maxFrameHeader = 10

// wsHandshake checks an upgrade request and returns the Sec-WebSocket-Accept of its
// answer and the subprotocol chosen ("" when the client offered neither of ours), or
// the status and message to refuse it with.
func wsHandshake(r *http.Request) (accept, protocol string, status int, refusal string) {
	switch {
	case r.Method != http.MethodGet:
		return "", "", http.StatusMethodNotAllowed, "a websocket opens with GET"
	case !headerHas(r.Header, "Connection", "upgrade") || !headerHas(r.Header, "Upgrade", "websocket"):
		return "", "", http.StatusUpgradeRequired, "this upgrade is not to a websocket: send Connection: Upgrade and Upgrade: websocket"
	case r.Header.Get("Sec-WebSocket-Version") != "13":
		return "", "", http.StatusBadRequest, "unsupported websocket version: send Sec-WebSocket-Version: 13"
	}
	key := strings.TrimSpace(r.Header.Get("Sec-WebSocket-Key"))
	if raw, err := base64.StdEncoding.DecodeString(key); err != nil || len(raw) != 16 {
		return "", "", http.StatusBadRequest, "the Sec-WebSocket-Key is missing or malformed"
	}
	sum := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	// The server's order, as gqlgen's transport chose: the legacy protocol when a client
	// offers both.
	for _, p := range []string{legacyWS, transportWS} {
		if headerHas(r.Header, "Sec-WebSocket-Protocol", p) {
			protocol = p
			break
		}
	}
	return base64.StdEncoding.EncodeToString(sum[:]), protocol, 0, ""
}

// headerHas reports whether a comma-separated header lists token (case-insensitively).
func headerHas(h http.Header, key, token string) bool {
	for _, v := range h.Values(key) {
		for item := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(item), token) {
				return true
			}
		}
	}
	return false
}

// frameHeader writes into b the header of an unmasked, final frame of n bytes and
// returns its length.
func frameHeader(b *[maxFrameHeader]byte, op byte, n int) int {
	b[0] = 0x80 | op
	switch {
	case n < 126:
		b[1] = byte(n)
		return 2
	case n <= 0xffff:
		b[1] = 126
		binary.BigEndian.PutUint16(b[2:], uint16(n))
		return 4
	default:
		b[1] = 127
		binary.BigEndian.PutUint64(b[2:], uint64(n))
		return 10
	}
}

// wsCloseError ends a connection with a close code and reason for the client.
type wsCloseError struct {
	code   int
	reason string
}

func (e *wsCloseError) Error() string {
	return fmt.Sprintf("websocket closed %d: %s", e.code, e.reason)
}

// errPeerClosed is a client's close frame, answered.
var errPeerClosed = errors.New("the client closed the websocket")

// frameReader reads a client's frames without a buffer of its own: a client sends a few
// small messages (connection_init, subscribe, ping, complete), so the syscalls of
// reading a header apart cost nothing that counts, and an idle connection holds no
// buffer.
type frameReader struct {
	r     io.Reader
	limit int64 // the largest message accepted
	hdr   [8]byte
}

// control is a ping or close frame met between the fragments of a message.
type control struct {
	op      byte
	payload []byte
}

// next reads the client's next whole data message. Control frames are handed to onControl
// as they come (it answers pings; a close ends the reading with errPeerClosed). As RFC 6455
// says, a reserved opcode fails the connection (1002), and so does a text message, whole
// or reassembled from its fragments, that is not UTF-8 (1007).
func (f *frameReader) next(onControl func(control) error) ([]byte, error) {
	var msg []byte
	started, text := false, false
	for {
		fin, op, n, mask, err := f.header()
		if err != nil {
			return nil, err
		}
		if op >= opClose {
			if !fin || n > 125 {
				return nil, &wsCloseError{closeProtocolError, "a control frame must be whole and at most 125 bytes"}
			}
			payload, err := f.payload(n, mask)
			if err != nil {
				return nil, err
			}
			if err := onControl(control{op, payload}); err != nil {
				return nil, err
			}
			continue
		}
		switch {
		case op == opContinuation && !started:
			return nil, &wsCloseError{closeProtocolError, "a continuation frame without a message to continue"}
		case op != opContinuation && started:
			return nil, &wsCloseError{closeProtocolError, "a new message before the end of the previous one"}
		}
		if !started {
			started, text = true, op == opText
		}
		if int64(len(msg))+n > f.limit {
			return nil, &wsCloseError{closeTooBig, fmt.Sprintf("a message may have at most %d bytes", f.limit)}
		}
		payload, err := f.payload(n, mask)
		if err != nil {
			return nil, err
		}
		if msg == nil && fin {
			msg = payload
		} else {
			msg = append(msg, payload...)
		}
		if !fin {
			continue
		}
		if text && !utf8.Valid(msg) {
			return nil, &wsCloseError{closeInvalidData, "a text message must be valid UTF-8"}
		}
		return msg, nil
	}
}

// header reads a frame's header: whether it ends its message, its opcode, its length and
// its mask (every client frame is masked).
func (f *frameReader) header() (fin bool, op byte, n int64, mask [4]byte, err error) {
	b := f.hdr[:2]
	if _, err = io.ReadFull(f.r, b); err != nil {
		return
	}
	fin, op = b[0]&0x80 != 0, b[0]&0x0f
	if b[0]&0x70 != 0 {
		err = &wsCloseError{closeProtocolError, "reserved bits set: no extension was negotiated"}
		return
	}
	if op > opPong || op > opBinary && op < opClose {
		err = &wsCloseError{closeProtocolError, fmt.Sprintf("unknown opcode %d: 0x3-0x7 and 0xB-0xF are reserved", op)}
		return
	}
	if b[1]&0x80 == 0 {
		err = &wsCloseError{closeProtocolError, "a client's frame must be masked"}
		return
	}
	switch n = int64(b[1] & 0x7f); n {
	case 126:
		if _, err = io.ReadFull(f.r, f.hdr[:2]); err != nil {
			return
		}
		n = int64(binary.BigEndian.Uint16(f.hdr[:2]))
	case 127:
		if _, err = io.ReadFull(f.r, f.hdr[:8]); err != nil {
			return
		}
		u := binary.BigEndian.Uint64(f.hdr[:8])
		if u > 1<<62 {
			err = &wsCloseError{closeTooBig, "a frame longer than any message accepted"}
			return
		}
		n = int64(u)
	}
	if _, err = io.ReadFull(f.r, mask[:]); err != nil {
		return
	}
	if op < opClose && n > f.limit {
		err = &wsCloseError{closeTooBig, fmt.Sprintf("a message may have at most %d bytes", f.limit)}
	}
	return
}

// payload reads n bytes of a frame and unmasks them.
func (f *frameReader) payload(n int64, mask [4]byte) ([]byte, error) {
	if n == 0 {
		return []byte{}, nil
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(f.r, b); err != nil {
		return nil, err
	}
	for i := range b {
		b[i] ^= mask[i&3]
	}
	return b, nil
}

// checkClose checks a client's close frame as RFC 6455 says (5.5.1, 7.4): no body, or a
// two-byte code that an endpoint may send followed by a reason in UTF-8. A body of one
// byte, or a code reserved or unassigned, fails the connection with 1002, a reason that is
// not UTF-8 with 1007.
func checkClose(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	if len(p) == 1 {
		return &wsCloseError{closeProtocolError, "a close frame's body is a 2-byte code, then a reason"}
	}
	switch code := int(binary.BigEndian.Uint16(p)); {
	case code < 1000, code >= 5000, code >= 1016 && code < 3000, code == 1004, code == closeNoStatus, code == 1006, code == 1015:
		return &wsCloseError{closeProtocolError, fmt.Sprintf("close code %d may not be sent", code)}
	case !utf8.Valid(p[2:]):
		return &wsCloseError{closeInvalidData, "a close reason must be valid UTF-8"}
	}
	return nil
}

// closePayload is the body of a close frame: the code, then the reason cut to fit the
// 125 bytes a control frame may carry, on a character boundary.
func closePayload(code int, reason string) []byte {
	if len(reason) > 123 {
		reason = reason[:123]
		for !utf8.ValidString(reason) {
			reason = reason[:len(reason)-1]
		}
	}
	b := binary.BigEndian.AppendUint16(nil, uint16(code))
	return append(b, reason...)
}
