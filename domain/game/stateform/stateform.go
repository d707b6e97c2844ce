// Package stateform writes and reads the stored form of a game's state (game.Snapshotting):
// a format version, the game's ID, the game's own fields as varints and length-prefixed
// strings, and a CRC-32C of all of it. Each game writes its fields in its own order; this
// package only makes the form self-checking, so that a game's DecodeState refuses another
// version, another game's bytes and damaged or truncated bytes with an error wrapping
// game.ErrStateFormat instead of reading garbage or panicking.
package stateform

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"time"

	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Writer builds one stored form. Its zero value is not ready: use New.
type Writer struct {
	b []byte
}

// New starts the form of a state of game id in format version.
func New(version byte, id string) *Writer {
	w := &Writer{b: make([]byte, 0, 256)}
	w.b = append(w.b, version)
	w.String(id)
	return w
}

// Bytes seals the form with its checksum and returns it.
func (w *Writer) Bytes() []byte { return Seal(w.b) }

// Seal appends the checksum to the body of a form: a fuzz test seals its fuzzed bodies so
// that the fields behind the checksum are fuzzed too.
func Seal(body []byte) []byte {
	return binary.BigEndian.AppendUint32(body, crc32.Checksum(body, castagnoli))
}

// Uint writes an unsigned integer as a varint.
func (w *Writer) Uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }

// Int writes a signed integer as a zigzag varint.
func (w *Writer) Int(v int64) { w.b = binary.AppendVarint(w.b, v) }

// Bool writes one byte, 0 or 1.
func (w *Writer) Bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

// Uint16 writes two bytes, little-endian (a packed chess move).
func (w *Writer) Uint16(v uint16) { w.b = binary.LittleEndian.AppendUint16(w.b, v) }

// String writes a length-prefixed string.
func (w *Writer) String(s string) {
	w.Uint(uint64(len(s)))
	w.b = append(w.b, s...)
}

// Strings writes a counted list of strings; Reader.Strings reads it back, nil for none.
func (w *Writer) Strings(xs []string) {
	w.Uint(uint64(len(xs)))
	for _, x := range xs {
		w.String(x)
	}
}

// Time writes an instant to the nanosecond; the zero time is one byte. Its location is
// not kept: Time reads it back in UTC, as the store's timestamps are.
func (w *Writer) Time(t time.Time) {
	w.Bool(!t.IsZero())
	if !t.IsZero() {
		w.Int(t.Unix())
		w.Uint(uint64(t.Nanosecond()))
	}
}

// Reader reads one stored form. The first error sticks: later reads return zero values
// and Err reports it, so that a decoder reads all its fields and checks once.
type Reader struct {
	b   []byte
	i   int
	err error
}

// Error is a stored form this build cannot read; it wraps game.ErrStateFormat.
type Error struct {
	Game   string // the game whose decoder refused it
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("stored %s state: %s", e.Game, e.Reason)
}

// Unwrap makes errors.Is(err, game.ErrStateFormat) hold.
func (e *Error) Unwrap() error { return game.ErrStateFormat }

// Open checks b's checksum, version and game, and returns a reader of its fields.
func Open(b []byte, version byte, id string) (*Reader, error) {
	if len(b) < 5 {
		return nil, &Error{Game: id, Reason: fmt.Sprintf("%d bytes are too few for a stored state", len(b))}
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, &Error{Game: id, Reason: "the checksum does not match: the bytes are damaged or truncated"}
	}
	if body[0] != version {
		return nil, &Error{Game: id, Reason: fmt.Sprintf("format version %d, this build reads %d", body[0], version)}
	}
	r := &Reader{b: body, i: 1}
	if got := r.String(); r.err != nil || got != id {
		return nil, &Error{Game: id, Reason: fmt.Sprintf("the state of game %.40q, not %s", got, id)}
	}
	return r, nil
}

// Fail records the first error of a decoder's own checks.
func (r *Reader) Fail(format string, args ...any) {
	if r.err == nil {
		r.err = &Error{Reason: fmt.Sprintf(format, args...)}
	}
}

// Err is the first error met, or an error if bytes are left over; nil when the whole
// form was read. game names the game in the error.
func (r *Reader) Err(game string) error {
	if r.err == nil && r.i != len(r.b) {
		r.Fail("%d bytes are left over", len(r.b)-r.i)
	}
	if e, ok := r.err.(*Error); ok {
		e.Game = game
	}
	return r.err
}

// Uint reads a varint.
func (r *Reader) Uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 {
		r.Fail("a bad varint at byte %d", r.i)
		return 0
	}
	r.i += n
	return v
}

// Count reads a varint that counts things each at least min bytes long, and refuses one
// more than the bytes left could hold, so that a damaged count allocates nothing huge.
func (r *Reader) Count(min int) int {
	v := r.Uint()
	if r.err == nil && v > uint64(len(r.b)-r.i)/uint64(max(min, 1)) {
		r.Fail("a count of %d at byte %d, more than the bytes left hold", v, r.i)
		return 0
	}
	return int(v)
}

// Small reads a varint no greater than limit (a seat, an index, an enumeration).
func (r *Reader) Small(limit int) int {
	v := r.Uint()
	if r.err == nil && v > uint64(limit) {
		r.Fail("%d at byte %d, more than %d", v, r.i, limit)
		return 0
	}
	return int(v)
}

// Int reads a zigzag varint.
func (r *Reader) Int() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.i:])
	if n <= 0 {
		r.Fail("a bad varint at byte %d", r.i)
		return 0
	}
	r.i += n
	return v
}

// Bool reads a byte that must be 0 or 1.
func (r *Reader) Bool() bool {
	if r.err != nil {
		return false
	}
	if r.i >= len(r.b) || r.b[r.i] > 1 {
		r.Fail("no boolean at byte %d", r.i)
		return false
	}
	r.i++
	return r.b[r.i-1] == 1
}

// Uint16 reads two bytes, little-endian.
func (r *Reader) Uint16() uint16 {
	if r.err != nil {
		return 0
	}
	if len(r.b)-r.i < 2 {
		r.Fail("truncated at byte %d", r.i)
		return 0
	}
	r.i += 2
	return binary.LittleEndian.Uint16(r.b[r.i-2:])
}

// String reads a length-prefixed string.
func (r *Reader) String() string {
	n := r.Count(1)
	if r.err != nil {
		return ""
	}
	r.i += n
	return string(r.b[r.i-n : r.i])
}

// Strings reads a list Writer.Strings wrote: nil for an empty one, as a fold leaves a
// list nothing was added to.
func (r *Reader) Strings() []string {
	n := r.Count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.String()
	}
	return out
}

// Time reads an instant written by Writer.Time, in UTC.
func (r *Reader) Time() time.Time {
	if !r.Bool() {
		return time.Time{}
	}
	sec, ns := r.Int(), r.Uint()
	if r.err != nil {
		return time.Time{}
	}
	if ns >= 1e9 || sec == math.MinInt64 {
		r.Fail("a bad instant at byte %d", r.i)
		return time.Time{}
	}
	t := time.Unix(sec, int64(ns)).UTC()
	if t.IsZero() { // the zero time is written as one byte
		r.Fail("a bad instant at byte %d", r.i)
	}
	return t
}

// Clock writes a clock (domain/clock): whether it runs, and then all of its fields.
func (w *Writer) Clock(c clock.Clock) {
	w.Bool(c.On)
	if !c.On {
		return
	}
	w.Int(int64(c.Initial))
	w.Int(int64(c.Increment))
	w.Uint(uint64(len(c.Left)))
	for _, d := range c.Left {
		w.Int(int64(d))
	}
	w.Time(c.TurnStart)
	w.Bool(c.Paused)
}

// Clock reads a clock written by Writer.Clock, which must have seats seats if it runs.
func (r *Reader) Clock(seats int) clock.Clock {
	if !r.Bool() {
		return clock.Clock{}
	}
	c := clock.Clock{On: true, Initial: time.Duration(r.Int()), Increment: time.Duration(r.Int())}
	c.Left = make([]time.Duration, r.Count(1))
	for i := range c.Left {
		c.Left[i] = time.Duration(r.Int())
	}
	c.TurnStart, c.Paused = r.Time(), r.Bool()
	if r.err == nil && len(c.Left) != seats {
		r.Fail("a clock of %d seats, not %d", len(c.Left), seats)
	}
	return c
}
