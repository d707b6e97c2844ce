// Package eventstore is the port through which Arbiter keeps its truth: append-only
// streams of events (one per match, one per player) with optimistic concurrency,
// idempotent appends, a global order across all streams, and subscriptions that catch up
// from the store and then follow live appends without a gap or a duplicate at the seam.
// Adapters live in sub-packages (memstore, sqlite, postgres), and every one passes the
// same conformance suite, eventstore/conformance.
package eventstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/domain/visibility"
)

// Expected versions that are not a concrete stream version.
const (
	// Any skips the concurrency check.
	Any int64 = -1
	// NoStream requires that the stream has no event yet.
	NoStream int64 = 0
)

// Errors an adapter returns, matched with errors.Is / errors.As.
var (
	// ErrWrongVersion is wrapped by *VersionConflict.
	ErrWrongVersion = errors.New("eventstore: wrong expected version")
	// ErrIDReused means an event ID that is already stored was sent with a different
	// stream, type or payload: it is not a retry of the same append.
	ErrIDReused = errors.New("eventstore: event ID already used by a different event")
	// ErrInvalid means the append itself was malformed (empty stream name, no event,
	// empty type or ID, payload that is not JSON...). Nothing was written.
	ErrInvalid = errors.New("eventstore: invalid append")
	// ErrClosed is returned after Close.
	ErrClosed = errors.New("eventstore: store is closed")
)

// VersionConflict is the typed error of a failed concurrency check.
type VersionConflict struct {
	Stream   string
	Expected int64
	Actual   int64
}

func (e *VersionConflict) Error() string {
	return fmt.Sprintf("eventstore: stream %q is at version %d, the append expected %d", e.Stream, e.Actual, e.Expected)
}

// Unwrap lets errors.Is(err, ErrWrongVersion) match.
func (e *VersionConflict) Unwrap() error { return ErrWrongVersion }

// Proposed is an event the caller asks to append.
type Proposed struct {
	ID            string                // unique across the store; a retried append reuses the same IDs
	Type          string                // past tense, e.g. "MovePlayed"
	SchemaVersion int                   // of the payload for this type, from 1
	Payload       []byte                // JSON
	CommandID     string                // the command that caused it
	Actor         string                // "seat:0", "player:<id>", "system"
	Visibility    visibility.Visibility // who may see it: set by the rules, applied in projections/redact.go
	Time          time.Time             // the server's receive time of the command
}

// Event is a stored event.
type Event struct {
	Proposed
	Stream   string
	Version  int64  // in its stream, from 1
	Position int64  // global, from 1, strictly increasing in commit order
	PrevHash string // hex SHA-256 of the previous event of the stream, "" for version 1
	Hash     string // hex SHA-256 over PrevHash and this event's content; see Hash
	// GlobalHash chains the event to the one before it in global order: see GlobalHash.
	GlobalHash string
}

// AppendResult tells where an append landed.
type AppendResult struct {
	// FirstVersion and LastVersion are the versions of the appended events in the stream.
	FirstVersion, LastVersion int64
	// FirstPosition and LastPosition are their global positions.
	FirstPosition, LastPosition int64
	// Duplicate is true when every event ID was already stored by an identical earlier
	// append: nothing was written and the earlier result is returned.
	Duplicate bool
}

// Commit is what a store's single writer did in one transaction: how many appends it
// committed together and how long the transaction took, from BEGIN to the end of the
// durable COMMIT (or the rollback of a failed one).
type Commit struct {
	Appends int // appends decided in the transaction, refused ones included
	Events  int // events those appends proposed
	Took    time.Duration
}

// CommitObserver is implemented by the stores whose one writer commits waiting appends
// in batches (SQLite, PostgreSQL), for benchmarks that look for the source of a latency
// tail: ObserveCommits calls f after every transaction, from the writer goroutine, so f
// must return quickly; nil stops the calls.
type CommitObserver interface {
	ObserveCommits(f func(Commit))
}

// Store is the port. Implementations are safe for concurrent use.
type Store interface {
	// Append writes events at the end of stream if its version equals expected (or expected
	// is Any). It returns only once the events are durable. Re-sending an append whose event
	// IDs are all already stored returns the first result with Duplicate set, whatever the
	// stream's version is now.
	Append(ctx context.Context, stream string, expected int64, events ...Proposed) (AppendResult, error)
	// ReadStream returns up to limit events of stream with Version > after, in order.
	// An unknown stream yields no events and no error. limit <= 0 means no limit.
	ReadStream(ctx context.Context, stream string, after int64, limit int) ([]Event, error)
	// StreamVersion returns the version of the last event of stream, 0 if it has none.
	StreamVersion(ctx context.Context, stream string) (int64, error)
	// ReadAll returns up to limit events of every stream with Position > after, in order.
	ReadAll(ctx context.Context, after int64, limit int) ([]Event, error)
	// HeadPosition returns the global position of the last stored event, 0 if none.
	HeadPosition(ctx context.Context) (int64, error)
	// Subscribe delivers every event with Position > after, first those already stored, then
	// live ones as they commit, in order, without gap or duplicate, until ctx ends. The
	// returned Subscription's Err tells why it stopped.
	Subscribe(ctx context.Context, after int64) (*Subscription, error)
	// SignedHead returns the head the store signed at its last commit: the position and
	// GlobalHash of its last event, signed in the same transaction as the event. A store
	// opened without a Signer keeps its heads unsigned.
	SignedHead(ctx context.Context) (Head, error)
	// Close releases the store. Appends acknowledged before Close are durable.
	Close() error
}
