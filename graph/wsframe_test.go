package graph

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// clientFrame is a frame as a client sends it: masked, with the length in the form its
// size needs.
func clientFrame(fin bool, op byte, payload []byte) []byte {
	b := []byte{op, 0x80}
	if fin {
		b[0] |= 0x80
	}
	switch n := len(payload); {
	case n < 126:
		b[1] |= byte(n)
	case n <= 0xffff:
		b[1] |= 126
		b = binary.BigEndian.AppendUint16(b, uint16(n))
	default:
		b[1] |= 127
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	mask := [4]byte{0xa1, 0x02, 0x5c, 0xff}
	b = append(b, mask[:]...)
	for i, c := range payload {
		b = append(b, c^mask[i%4])
	}
	return b
}

// TestFrameReader: messages of each length form, fragments with control frames between
// them, and each way a client's frames can be wrong, with the close code it gets.
func TestFrameReader(t *testing.T) {
	long := bytes.Repeat([]byte("x"), 70_000) // a 64-bit length
	mid := bytes.Repeat([]byte("y"), 300)     // a 16-bit length
	var stream []byte
	stream = append(stream, clientFrame(true, opText, []byte(`{"type":"ping"}`))...)
	stream = append(stream, clientFrame(true, opBinary, mid)...)
	stream = append(stream, clientFrame(false, opText, long[:30_000])...)
	stream = append(stream, clientFrame(true, opPing, []byte("hi"))...)
	stream = append(stream, clientFrame(true, opPong, nil)...)
	stream = append(stream, clientFrame(true, opContinuation, long[30_000:])...)
	stream = append(stream, clientFrame(true, opClose, []byte{0x03, 0xe8})...)
	f := frameReader{r: bytes.NewReader(stream), limit: 1 << 20}
	var controls []byte
	on := func(c control) error {
		controls = append(controls, c.op)
		if c.op == opClose {
			return errPeerClosed
		}
		return nil
	}
	for i, want := range [][]byte{[]byte(`{"type":"ping"}`), mid, long} {
		got, err := f.next(on)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("message %d: %d bytes, %v; want %d bytes", i, len(got), err, len(want))
		}
	}
	if _, err := f.next(on); !errors.Is(err, errPeerClosed) {
		t.Fatalf("the close frame read as %v", err)
	}
	if !bytes.Equal(controls, []byte{opPing, opPong, opClose}) {
		t.Fatalf("control frames handed over: %v", controls)
	}

	unmasked := clientFrame(true, opText, []byte("{}"))
	unmasked[1] &^= 0x80
	unmasked = append(unmasked[:2], []byte("{}")...)
	rsv := clientFrame(true, opText, []byte("{}"))
	rsv[0] |= 0x40
	for _, c := range []struct {
		name   string
		frames []byte
		code   int
	}{
		{"unmasked", unmasked, closeProtocolError},
		{"a reserved bit", rsv, closeProtocolError},
		{"an unknown opcode", clientFrame(true, 0x3, nil), closeProtocolError},
		{"a continuation of nothing", clientFrame(true, opContinuation, []byte("x")), closeProtocolError},
		{"a new message inside another", append(clientFrame(false, opText, []byte("a")), clientFrame(true, opText, []byte("b"))...), closeProtocolError},
		{"a fragmented ping", clientFrame(false, opPing, nil), closeProtocolError},
		{"a long ping", clientFrame(true, opPing, bytes.Repeat([]byte("p"), 126)), closeProtocolError},
		{"one frame over the limit", clientFrame(true, opText, bytes.Repeat([]byte("z"), 1025)), closeTooBig},
		{"fragments over the limit", append(clientFrame(false, opText, bytes.Repeat([]byte("z"), 1000)), clientFrame(true, opContinuation, bytes.Repeat([]byte("z"), 25))...), closeTooBig},
		{"a reserved opcode claiming a length over the limit", clientFrame(true, 0x4, bytes.Repeat([]byte("z"), 2000)), closeProtocolError},
		{"a reserved control opcode inside a message", append(clientFrame(false, opText, []byte("a")), clientFrame(true, 0xB, nil)...), closeProtocolError},
		{"a text frame not UTF-8", clientFrame(true, opText, []byte("{\"x\":\"\xff\"}")), closeInvalidData},
		{"text fragments not UTF-8 once joined", append(clientFrame(false, opText, []byte("ab\xc3")), clientFrame(true, opContinuation, []byte("z"))...), closeInvalidData},
		{"a text message cut inside a character", clientFrame(true, opText, []byte("ab\xc3")), closeInvalidData},
	} {
		f := frameReader{r: bytes.NewReader(c.frames), limit: 1024}
		var ce *wsCloseError
		if _, err := f.next(func(control) error { return nil }); !errors.As(err, &ce) || ce.code != c.code {
			t.Errorf("%s: %v, want close code %d", c.name, err, c.code)
		}
	}
}

// TestClosePayload: a close frame carries the code and at most 123 bytes of reason, cut
// between characters.
func TestClosePayload(t *testing.T) {
	reason := strings.Repeat("é", 100) // 200 bytes
	p := closePayload(4403, reason)
	if binary.BigEndian.Uint16(p) != 4403 || len(p) > 125 || !utf8.Valid(p[2:]) || !strings.HasPrefix(reason, string(p[2:])) || len(p) < 120 {
		t.Fatalf("close payload of %d bytes: % x", len(p), p[:4])
	}
}

// Every reserved opcode fails the connection, the control ones (0xB-0xF) included, which
// were once read as pongs; a text message is checked for UTF-8 once whole, so a
// character split between fragments is fine, and a binary message is not checked.
func TestFrameReaderReservedOpcodesAndUTF8(t *testing.T) {
	for op := byte(0x3); op <= 0xF; op++ {
		if op >= opClose && op <= opPong {
			continue
		}
		f := frameReader{r: bytes.NewReader(clientFrame(true, op, []byte("x"))), limit: 1024}
		var ce *wsCloseError
		if _, err := f.next(func(control) error { t.Fatalf("opcode %#x handed over as a control frame", op); return nil }); !errors.As(err, &ce) || ce.code != closeProtocolError {
			t.Errorf("opcode %#x: %v, want close code %d", op, err, closeProtocolError)
		}
	}
	e := []byte("é") // c3 a9
	var stream []byte
	stream = append(stream, clientFrame(false, opText, append([]byte(`{"x":"`), e[0]))...)
	stream = append(stream, clientFrame(true, opContinuation, append([]byte{e[1]}, `"}`...))...)
	stream = append(stream, clientFrame(true, opBinary, []byte{0xff, 0xfe})...)
	f := frameReader{r: bytes.NewReader(stream), limit: 1024}
	for _, want := range []string{`{"x":"é"}`, "\xff\xfe"} {
		if got, err := f.next(func(control) error { return nil }); err != nil || string(got) != want {
			t.Errorf("read %q, %v; want %q", got, err, want)
		}
	}
}

// A client's close frame is checked before it is answered: a one-byte body or a code no
// endpoint may send is 1002, a reason that is not UTF-8 is 1007; the codes a client may
// send pass.
func TestCheckClose(t *testing.T) {
	body := func(code int, reason string) []byte {
		return append(binary.BigEndian.AppendUint16(nil, uint16(code)), reason...)
	}
	for _, c := range []struct {
		body []byte
		code int // 0: accepted
	}{
		{nil, 0}, {body(1000, ""), 0}, {body(1001, "bye"), 0}, {body(1011, ""), 0}, {body(3000, ""), 0}, {body(4999, "é"), 0},
		{[]byte{0x03}, closeProtocolError}, {body(999, ""), closeProtocolError}, {body(1004, ""), closeProtocolError},
		{body(1005, ""), closeProtocolError}, {body(1006, ""), closeProtocolError}, {body(1015, ""), closeProtocolError},
		{body(2999, ""), closeProtocolError}, {body(5000, ""), closeProtocolError}, {body(1000, "\xff"), closeInvalidData},
	} {
		err := checkClose(c.body)
		var ce *wsCloseError
		switch {
		case c.code == 0 && err != nil:
			t.Errorf("% x: refused (%v)", c.body, err)
		case c.code != 0 && (!errors.As(err, &ce) || ce.code != c.code):
			t.Errorf("% x: %v, want close code %d", c.body, err, c.code)
		}
	}
}
