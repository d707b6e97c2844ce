package eventstore

import (
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// MaxPayloadSize bounds one event's payload. An event is one fact of a turn-based game;
// a payload of a mebibyte is already a sign of a bug, and the bound keeps a single append
// from holding the writer of an embedded store for long.
const MaxPayloadSize = 1 << 20

// MaxEventsPerAppend bounds the events of one append, for the same reason.
const MaxEventsPerAppend = 10_000

// Times outside this range have no Unix nanosecond representation, which the hash and the
// adapters' storage use. The zero time is allowed: adapters stamp it with the commit time.
var (
	minTime = time.Unix(0, math.MinInt64).Add(time.Second)
	maxTime = time.Unix(0, math.MaxInt64).Add(-time.Second)
)

// ValidateAppend is Validate plus a check of the expected version's range.
func ValidateAppend(stream string, expected int64, events []Proposed) error {
	if expected < Any {
		return fmt.Errorf("%w: expected version %d (use Any, NoStream or a version)", ErrInvalid, expected)
	}
	return Validate(stream, events)
}

// Validate checks an append before any adapter touches storage. Every failure wraps
// ErrInvalid and names the offending event by its index.
func Validate(stream string, events []Proposed) error {
	if stream == "" {
		return fmt.Errorf("%w: empty stream name", ErrInvalid)
	}
	if len(events) == 0 {
		return fmt.Errorf("%w: no events to append to %q", ErrInvalid, stream)
	}
	if len(events) > MaxEventsPerAppend {
		return fmt.Errorf("%w: %d events in one append, at most %d", ErrInvalid, len(events), MaxEventsPerAppend)
	}
	seen := make(map[string]bool, len(events))
	for i, e := range events {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: event %d (%q): %s", ErrInvalid, i, e.ID, fmt.Sprintf(format, args...))
		}
		switch {
		case e.ID == "":
			return bad("empty ID")
		case seen[e.ID]:
			return bad("ID appears twice in the append")
		case e.Type == "":
			return bad("empty type")
		case e.SchemaVersion < 1:
			return bad("schema version %d, want 1 or more", e.SchemaVersion)
		case len(e.Payload) > MaxPayloadSize:
			return bad("payload of %d bytes, at most %d", len(e.Payload), MaxPayloadSize)
		case !json.Valid(e.Payload):
			return bad("payload is not valid JSON")
		case !e.Time.IsZero() && (e.Time.Before(minTime) || e.Time.After(maxTime)):
			return bad("time %v out of range", e.Time)
		}
		seen[e.ID] = true
	}
	return nil
}
