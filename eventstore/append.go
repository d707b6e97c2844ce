package eventstore

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The helpers in this file hold the append semantics that every adapter shares, so that
// the adapters differ only in how they store and lock.

// CheckExpected returns a *VersionConflict unless a stream at version actual accepts an
// append that expected version expected.
func CheckExpected(stream string, expected, actual int64) error {
	if expected == Any || expected == actual {
		return nil
	}
	return &VersionConflict{Stream: stream, Expected: expected, Actual: actual}
}

// Seal turns proposed events into the events to store at the end of a stream whose last
// event has version lastVersion and hash lastHash, with global positions from
// firstPosition, after the event whose GlobalHash is prevGlobal. It stamps a zero Time
// with now, sets every Time to UTC, and computes both hash chains. Payloads are copied:
// the caller may reuse its buffers.
func Seal(stream string, lastVersion int64, lastHash string, firstPosition int64, prevGlobal string, now time.Time, proposed []Proposed) []Event {
	return AppendSealed(nil, stream, lastVersion, lastHash, firstPosition, prevGlobal, now, proposed)
}

// AppendSealed is Seal appending the sealed events to dst, for a store that keeps them in
// memory it reuses or in its own layout (memstore).
func AppendSealed(dst []Event, stream string, lastVersion int64, lastHash string, firstPosition int64, prevGlobal string, now time.Time, proposed []Proposed) []Event {
	// The store's single writer seals every append while the others wait, so an append
	// costs it three allocations whatever its length: the events (none if dst has room),
	// one copy of all the payloads, and one string holding all the hashes, which the
	// events' Hash and GlobalHash slice.
	dst = slices.Grow(dst, len(proposed))
	out := dst[len(dst) : len(dst)+len(proposed)]
	size := 0
	for _, p := range proposed {
		size += len(p.Payload)
	}
	payloads := make([]byte, 0, size)
	var hashes strings.Builder
	hashes.Grow(2 * len(hexSum{}) * len(proposed))
	prev := lastHash
	var sum hexSum
	for i, p := range proposed {
		if p.Time.IsZero() {
			p.Time = now
		}
		// Round-tripping through Unix nanoseconds drops the monotonic reading and the
		// location, exactly as storage will.
		p.Time = time.Unix(0, p.Time.UnixNano()).UTC()
		if p.Payload != nil {
			at := len(payloads)
			payloads = append(payloads, p.Payload...)
			p.Payload = payloads[at:len(payloads):len(payloads)] // an append to one cannot reach the next
		}
		e := &out[i]
		*e = Event{
			Proposed: p,
			Stream:   stream,
			Version:  lastVersion + int64(i) + 1,
			Position: firstPosition + int64(i),
			PrevHash: prev,
		}
		// Each hash is taken as a string from the append's one allocation as soon as it
		// is written there (what was written stays in place: Grow made room for all).
		eventSum(&sum, prev, e)
		hashes.Write(sum[:])
		e.Hash = hashes.String()[hashes.Len()-len(sum):]
		globalSum(&sum, prevGlobal, e.Position, e.Hash)
		hashes.Write(sum[:])
		e.GlobalHash = hashes.String()[hashes.Len()-len(sum):]
		prev, prevGlobal = e.Hash, e.GlobalHash
	}
	return dst[:len(dst)+len(proposed)]
}

// Result returns the AppendResult describing stored, the events of one append in order.
func Result(stored []Event, duplicate bool) AppendResult {
	first, last := stored[0], stored[len(stored)-1]
	return AppendResult{
		FirstVersion: first.Version, LastVersion: last.Version,
		FirstPosition: first.Position, LastPosition: last.Position,
		Duplicate: duplicate,
	}
}

// MatchRetry decides what an append means when some of its event IDs are already stored.
// found holds the stored events that carry one of the proposed IDs, in any order.
//
//   - None found: ok is false and err nil; the adapter goes on with a normal append.
//   - All found, in stream, in the same order, at consecutive versions, with the same type,
//     schema version, payload, command ID, actor and visibility: it is a retry of an append
//     that succeeded; ok is true and res is the stored result with Duplicate set.
//   - Anything else (some found, or different content): err wraps ErrIDReused.
//
// The store does not record where one append ended and the next began, so resending a
// contiguous run of identical stored events (the second half of an earlier append) is
// also a duplicate: nothing is written and the run's place is returned, which is harmless.
//
// Time is not compared: it is stamped by the caller when it receives a command, and a
// retry of the same command may carry a later stamp without being a different fact.
func MatchRetry(stream string, proposed []Proposed, found []Event) (res AppendResult, ok bool, err error) {
	if len(found) == 0 {
		return AppendResult{}, false, nil
	}
	if len(found) != len(proposed) {
		return AppendResult{}, false, fmt.Errorf("%w: %d of the %d event IDs are already stored: a partial retry is not the same append",
			ErrIDReused, len(found), len(proposed))
	}
	byID := make(map[string]Event, len(found))
	for _, e := range found {
		byID[e.ID] = e
	}
	ordered := make([]Event, len(proposed))
	for i, p := range proposed {
		e, exists := byID[p.ID]
		switch {
		case !exists:
			return AppendResult{}, false, fmt.Errorf("%w: event ID %q is not part of the earlier append", ErrIDReused, p.ID)
		case e.Stream != stream:
			return AppendResult{}, false, fmt.Errorf("%w: event ID %q is stored in stream %q", ErrIDReused, p.ID, e.Stream)
		case i > 0 && e.Version != ordered[i-1].Version+1:
			return AppendResult{}, false, fmt.Errorf("%w: event ID %q is stored at version %d, not after the previous event", ErrIDReused, p.ID, e.Version)
		case !sameContent(e.Proposed, p):
			return AppendResult{}, false, fmt.Errorf("%w: event ID %q is stored with different content", ErrIDReused, p.ID)
		}
		ordered[i] = e
	}
	return Result(ordered, true), true, nil
}

func sameContent(a, b Proposed) bool {
	return a.Type == b.Type && a.SchemaVersion == b.SchemaVersion && bytes.Equal(a.Payload, b.Payload) &&
		a.CommandID == b.CommandID && a.Actor == b.Actor && a.Visibility == b.Visibility
}

// IDs returns the event IDs of an append, for the adapters' lookups.
func IDs(events []Proposed) []string {
	ids := make([]string, len(events))
	for i, e := range events {
		ids[i] = e.ID
	}
	return ids
}
