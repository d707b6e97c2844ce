package classic

import (
	"slices"
	"strconv"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

// DecodeFast reads a MovePlayed in the exact form encoding/json writes it, fields in
// declaration order, strings without escapes, and reports false for anything else (the
// codec then uses encoding/json). Moves are most of what a replay or a projection rebuild
// decodes, and encoding/json spends most of its time validating before it decodes.
func (m *MovePlayed) DecodeFast(p []byte) bool {
	r := reader{p: p}
	var uci, san, fen, at []byte
	ok := r.lit(`{"seat":`) && r.int(&m.Seat) &&
		r.lit(`,"uci":`) && r.str(&uci) &&
		r.lit(`,"san":`) && r.str(&san) &&
		r.lit(`,"piece":`) && r.int(&m.Piece) &&
		r.lit(`,"fen":`) && r.str(&fen)
	if !ok {
		return false
	}
	stamped := r.lit(`,"at":`)
	if stamped && !r.str(&at) {
		return false
	}
	if r.lit(`,"leftMs":`) {
		var left int
		if !r.int(&left) || left == 0 { // encoding/json omits a zero
			return false
		}
		m.LeftMs = int64(left)
	}
	if !r.lit(`}`) || r.i != len(r.p) {
		return false
	}
	// The strings are substrings of one, made at once: a replay decodes a move per event,
	// and four strings were four allocations. The time is parsed from its substring.
	var buf [160]byte // a move's strings fit, a FEN being under 96 bytes
	b := append(append(append(append(buf[:0], uci...), san...), fen...), at...)
	all := string(b)
	i, j, k := len(uci), len(uci)+len(san), len(uci)+len(san)+len(fen)
	m.UCI, m.SAN, m.FEN = all[:i], all[i:j], all[j:k]
	if stamped {
		at := all[k:]
		t, err := time.Parse(time.RFC3339Nano, at)
		var buf [64]byte // written on the stack: Format would allocate
		if err != nil || string(t.AppendFormat(buf[:0], time.RFC3339Nano)) != at {
			return false
		}
		m.At = t
	}
	return true
}

// AppendFast appends m as encoding/json writes it, fields in declaration order, and
// reports false when a string would need escaping or the time is not one encoding/json
// writes in UTC's form (the engine stamps every move in UTC).
func (m MovePlayed) AppendFast(b []byte) ([]byte, bool) {
	if !game.PlainJSON(m.UCI) || !game.PlainJSON(m.SAN) || !game.PlainJSON(m.FEN) {
		return b, false
	}
	stamped := !m.At.IsZero() // omitzero
	if stamped && (m.At.Location() != time.UTC || m.At.Year() < 0 || m.At.Year() > 9999) {
		return b, false
	}
	b = slices.Grow(b, 96+len(m.UCI)+len(m.SAN)+len(m.FEN))
	b = strconv.AppendInt(append(b, `{"seat":`...), int64(m.Seat), 10)
	b = append(append(append(b, `,"uci":"`...), m.UCI...), '"')
	b = append(append(append(b, `,"san":"`...), m.SAN...), '"')
	b = strconv.AppendInt(append(b, `,"piece":`...), int64(m.Piece), 10)
	b = append(append(append(b, `,"fen":"`...), m.FEN...), '"')
	if stamped {
		b = append(m.At.AppendFormat(append(b, `,"at":"`...), time.RFC3339Nano), '"')
	}
	if m.LeftMs != 0 { // omitempty
		b = strconv.AppendInt(append(b, `,"leftMs":`...), m.LeftMs, 10)
	}
	return append(b, '}'), true
}

// reader walks a payload for DecodeFast.
type reader struct {
	p []byte
	i int
}

// lit consumes s if the payload continues with it.
func (r *reader) lit(s string) bool {
	if len(r.p)-r.i < len(s) || string(r.p[r.i:r.i+len(s)]) != s {
		return false
	}
	r.i += len(s)
	return true
}

// int reads a JSON integer as encoding/json writes it: an optional minus, no leading zero.
func (r *reader) int(v *int) bool {
	start := r.i
	if r.i < len(r.p) && r.p[r.i] == '-' {
		r.i++
	}
	digits := r.i
	for r.i < len(r.p) && r.p[r.i] >= '0' && r.p[r.i] <= '9' {
		r.i++
	}
	if r.i == digits || r.i-digits > 1 && r.p[digits] == '0' {
		return false
	}
	n, err := strconv.Atoi(string(r.p[start:r.i]))
	*v = n
	return err == nil
}

// str reads a JSON string without escapes: printable ASCII only, since encoding/json
// escapes <, > and & and anything else could need a decoding this reader does not do.
// v is the string's bytes in the payload, not copied.
func (r *reader) str(v *[]byte) bool {
	if r.i >= len(r.p) || r.p[r.i] != '"' {
		return false
	}
	start := r.i + 1
	for j := start; j < len(r.p); j++ {
		switch c := r.p[j]; {
		case c == '"':
			*v = r.p[start:j]
			r.i = j + 1
			return true
		case c < 0x20 || c > 0x7e || c == '\\' || c == '<' || c == '>' || c == '&':
			return false
		}
	}
	return false
}
