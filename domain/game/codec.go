package game

import (
	"encoding/json"
	"fmt"
)

// Codec turns stored events back into values. Each event type is registered with its
// current schema version; an upcaster may convert an older payload to the current one,
// so an old event is read in today's shape and never rewritten.
type Codec struct {
	types map[string]codecEntry
}

type codecEntry struct {
	schema int
	decode func(payload []byte) (Event, error)
	upcast func(schema int, payload []byte) ([]byte, error)
	check  func(Event) error // of a payload stored at the current schema (Require)
}

// NewCodec returns an empty codec.
func NewCodec() *Codec { return &Codec{types: map[string]codecEntry{}} }

// Register adds the event type T, a plain struct value, at its current schema version.
func Register[T Event](c *Codec, schema int) {
	var zero T
	typ := zero.EventType()
	if _, dup := c.types[typ]; dup {
		panic("game: event type registered twice: " + typ)
	}
	c.types[typ] = codecEntry{schema: schema, decode: func(payload []byte) (Event, error) {
		var v T
		if fd, ok := any(&v).(FastDecoder); ok && fd.DecodeFast(payload) {
			return v, nil
		}
		v = *new(T) // a fast decoder that gave up may have filled some fields
		err := json.Unmarshal(payload, &v)
		return v, err
	}}
}

// FastDecoder may be implemented (on the pointer) by an event type stored so often that
// decoding it dominates a replay, such as a chess move. DecodeFast reads the exact form
// encoding/json writes for the type and reports false for anything else, which the codec
// then decodes with encoding/json: the result is the same either way, only faster.
type FastDecoder interface {
	DecodeFast(payload []byte) bool
}

// FastEncoder may be implemented by an event type the engine encodes for nearly every
// command, such as a chess move. AppendFast appends to b exactly the bytes encoding/json
// writes for the value, or reports false and returns b as it was, and Encode then uses
// encoding/json: stored payloads, and so the hashes over them, are the same either way.
// It appends so that a caller can encode into memory it reuses (AppendEncode).
type FastEncoder interface {
	AppendFast(b []byte) ([]byte, bool)
}

// PlainJSON reports whether encoding/json writes s as it is between quotes: printable
// ASCII but the characters it escapes (the quote, the backslash, and <, > and &, which it
// escapes for HTML). A fast encoder writes such a string directly.
func PlainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// Upcaster sets how payloads of older schema versions of typ become the current one.
func (c *Codec) Upcaster(typ string, up func(schema int, payload []byte) ([]byte, error)) *Codec {
	e, ok := c.types[typ]
	if !ok {
		panic("game: upcaster for an unregistered event type: " + typ)
	}
	e.upcast = up
	c.types[typ] = e
	return c
}

// Require sets what a payload of typ stored at its current schema must hold once decoded:
// what that schema added and made required, which an older payload, upcast to it, may
// lack. A payload that fails check is refused as one that does not decode (verify reports
// it, a fold sets its match aside), for want of which it would pass for an older one.
func (c *Codec) Require(typ string, check func(Event) error) *Codec {
	e, ok := c.types[typ]
	if !ok {
		panic("game: requirement for an unregistered event type: " + typ)
	}
	e.check = check
	c.types[typ] = e
	return c
}

// Merge adds every type of other (a game reusing another package's events).
func (c *Codec) Merge(other *Codec) *Codec {
	for t, e := range other.types {
		if _, dup := c.types[t]; dup {
			panic("game: event type registered twice: " + t)
		}
		c.types[t] = e
	}
	return c
}

// Knows reports whether typ is one of the codec's event types.
func (c *Codec) Knows(typ string) bool { _, ok := c.types[typ]; return ok }

// Schema returns the current schema version of typ.
func (c *Codec) Schema(typ string) int { return c.types[typ].schema }

// Decode reads a stored event.
func (c *Codec) Decode(typ string, schema int, payload []byte) (Event, error) {
	e, ok := c.types[typ]
	if !ok {
		return nil, fmt.Errorf("game: unknown event type %q", typ)
	}
	current := schema == e.schema
	if !current {
		if schema > e.schema || e.upcast == nil {
			return nil, fmt.Errorf("game: event %s has schema %d, these rules read %d", typ, schema, e.schema)
		}
		up, err := e.upcast(schema, payload)
		if err != nil {
			return nil, fmt.Errorf("game: upcasting %s from schema %d: %w", typ, schema, err)
		}
		payload = up
	}
	v, err := e.decode(payload)
	if err != nil {
		return nil, fmt.Errorf("game: decoding %s: %w", typ, err)
	}
	if current && e.check != nil {
		if err := e.check(v); err != nil {
			return nil, fmt.Errorf("game: decoding %s of schema %d: %w", typ, schema, err)
		}
	}
	return v, nil
}
