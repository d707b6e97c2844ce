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
	ok := r.lit(`{"seat":`) && r.int(&m.Seat) &&
		r.lit(`,"uci":`) && r.str(&m.UCI) &&
		r.lit(`,"san":`) && r.str(&m.SAN) &&
		r.lit(`,"piece":`) && r.int(&m.Piece) &&
		r.lit(`,"fen":`) && r.str(&m.FEN)
	if !ok {
		return false
	}
	if r.lit(`,"at":`) {
		var at string
		if !r.str(&at) {
			return false
		}
		t, err := time.Parse(time.RFC3339Nano, at)
		if err != nil || t.Format(time.RFC3339Nano) != at {
			return false
		}
		m.At = t
	}
	if r.lit(`,"leftMs":`) {
		var left int
		if !r.int(&left) || left == 0 { // encoding/json omits a zero
			return false
		}
		m.LeftMs = int64(left)
	}
	return r.lit(`}`) && r.i == len(r.p)
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
func (r *reader) str(v *string) bool {
	if r.i >= len(r.p) || r.p[r.i] != '"' {
		return false
	}
	start := r.i + 1
	for j := start; j < len(r.p); j++ {
		switch c := r.p[j]; {
		case c == '"':
			*v = string(r.p[start:j])
			r.i = j + 1
			return true
		case c < 0x20 || c > 0x7e || c == '\\' || c == '<' || c == '>' || c == '&':
			return false
		}
	}
	return false
}
