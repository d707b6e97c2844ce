package eventstore

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/arbiter-games/arbiter/domain/visibility"
)

// hashDomain separates Arbiter's event hashes from any other SHA-256 of the same bytes and
// names the encoding, so that a future encoding can coexist with this one.
const hashDomain = "arbiter.event.v1"

// Hash returns the hex SHA-256 that chains e to the previous event of its stream, whose
// hash is prevHash ("" for version 1).
//
// The hash covers the stream's content only: prevHash, stream, version, ID, type, schema
// version, payload, command ID, actor, visibility and time (UTC, Unix nanoseconds). It does
// not cover the global position, which is assigned at commit and differs from one store to
// another: a stream copied into another store keeps its hashes and still verifies.
//
// Every field is written as an 8-byte big-endian length followed by its bytes (integers as
// 8-byte big-endian values), so that no two different events share an encoding.
func Hash(prevHash string, e Event) string {
	var h hexSum
	eventSum(&h, prevHash, &e)
	return string(h[:])
}

// hexSum is a hash in the hex form the events store, built without an allocation: Seal
// turns the sums of a whole append into strings with one.
type hexSum [2 * sha256.Size]byte

// eventSum writes Hash(prevHash, *e) to h.
func eventSum(h *hexSum, prevHash string, e *Event) {
	// The store's single writer computes this and GlobalHash for every event it commits,
	// while the other appends wait: the fields are laid out in one buffer on the stack
	// (a move's event, with a payload of several hundred bytes, fits) and hashed at once,
	// with no allocation per field.
	var buf [1024]byte
	encoding(buf[:0]).
		string(hashDomain).
		string(prevHash).
		string(e.Stream).
		int(e.Version).
		string(e.ID).
		string(e.Type).
		int(int64(e.SchemaVersion)).
		bytes(e.Payload).
		string(e.CommandID).
		string(e.Actor).
		visibility(e.Visibility).
		int(e.Time.UnixNano()).
		sum(h)
}

// encoding is the layout Hash, GlobalHash and Head.Message share: every field as an
// 8-byte big-endian length followed by its bytes, integers as 8-byte big-endian values.
type encoding []byte

func (b encoding) bytes(p []byte) encoding {
	return append(binary.BigEndian.AppendUint64(b, uint64(len(p))), p...)
}

func (b encoding) string(s string) encoding {
	return append(binary.BigEndian.AppendUint64(b, uint64(len(s))), s...)
}

func (b encoding) int(v int64) encoding {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(b, 8), uint64(v))
}

// visibility writes v's stored form (visibility.Visibility.String) as a string field
// without building it first: String allocates "seat:N" and "team:N".
func (b encoding) visibility(v visibility.Visibility) encoding {
	kind, n := "", 0
	if seat, ok := v.Seat(); ok {
		kind, n = "seat:", seat
	} else if team, ok := v.Team(); ok {
		kind, n = "team:", team
	} else {
		return b.string(v.String()) // "" or "server": constants
	}
	var digits [20]byte
	num := strconv.AppendInt(digits[:0], int64(n), 10)
	b = binary.BigEndian.AppendUint64(b, uint64(len(kind)+len(num)))
	return append(append(b, kind...), num...)
}

// sum writes the hex SHA-256 of the encoding to h.
func (b encoding) sum(h *hexSum) {
	sum := sha256.Sum256(b)
	hex.Encode(h[:], sum[:])
}

// ChainError reports the first event of a stream whose version, PrevHash or Hash does not
// follow from the events before it.
type ChainError struct {
	Stream  string
	Version int64 // the first version at which the chain breaks: index in the stream + 1
	// Misnumbered says the event there has another version than its place: a gap, a
	// duplicate or a reordering, rather than a hash that does not match.
	Misnumbered bool
	Reason      string
}

func (e *ChainError) Error() string {
	return fmt.Sprintf("eventstore: stream %q breaks its hash chain at version %d: %s", e.Stream, e.Version, e.Reason)
}

// VerifyChain checks the events of one stream, in order from version 1: versions are
// contiguous, each PrevHash is the Hash of the event before, and each Hash is recomputed
// from the event's content. It returns a *ChainError naming the first bad version, or nil.
// Verifying a suffix of a stream is possible by passing the events from version 1 anyway;
// an empty slice verifies.
func VerifyChain(events []Event) error { return VerifyLinks(events, nil) }

// VerifyLinks is VerifyChain over a stream of which some events are shown without their
// content (an export redacted for its viewer): for the events at the indices where opaque
// is true, the Hash is taken as given, not recomputed, and still linked, since the next
// event's PrevHash must equal it; so an opaque event cannot be changed without breaking
// the next one it is shown with. A nil opaque recomputes every hash.
func VerifyLinks(events []Event, opaque func(i int) bool) error {
	prev := ""
	for i, e := range events {
		bad := func(misnumbered bool, format string, args ...any) error {
			return &ChainError{Stream: events[0].Stream, Version: int64(i) + 1, Misnumbered: misnumbered, Reason: fmt.Sprintf(format, args...)}
		}
		switch {
		case e.Stream != events[0].Stream:
			return bad(false, "the event here belongs to stream %q", e.Stream)
		case e.Version != int64(i)+1:
			return bad(true, "the event here claims version %d", e.Version)
		case e.PrevHash != prev:
			return bad(false, "PrevHash %q does not match the previous event's hash %q", e.PrevHash, prev)
		}
		if opaque == nil || !opaque(i) {
			var got hexSum
			if eventSum(&got, prev, &e); string(got[:]) != e.Hash {
				return bad(false, "stored hash %q, content hashes to %q", e.Hash, got[:])
			}
		}
		prev = e.Hash
	}
	return nil
}
