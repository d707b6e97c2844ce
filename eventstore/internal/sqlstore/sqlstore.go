// Package sqlstore holds what the SQL adapters (SQLite, PostgreSQL) share: the layout of
// an event row and the steps of one append inside a transaction. The adapters bring the
// dialect, the locking and the transaction.
package sqlstore

import (
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Columns lists an event row's columns in the order Scan reads and Args writes them.
// Times are stored as Unix nanoseconds in UTC (a 64-bit integer) in every adapter, so
// that an event reads back exactly as it was hashed.
const Columns = "position, stream, version, id, type, schema_version, payload, command_id, actor, visibility, time_ns, prev_hash, hash, global_hash"

// Scanner is a row of database/sql or pgx.
type Scanner interface {
	Scan(dest ...any) error
}

// Scan reads one row of Columns.
func Scan(row Scanner) (eventstore.Event, error) {
	var (
		e      eventstore.Event
		vis    string
		timeNS int64
	)
	if err := row.Scan(&e.Position, &e.Stream, &e.Version, &e.ID, &e.Type, &e.SchemaVersion, &e.Payload,
		&e.CommandID, &e.Actor, &vis, &timeNS, &e.PrevHash, &e.Hash, &e.GlobalHash); err != nil {
		return e, err
	}
	v, err := visibility.Parse(vis)
	if err != nil {
		return e, fmt.Errorf("eventstore: the event at position %d: %w", e.Position, err)
	}
	e.Visibility = v
	e.Time = time.Unix(0, timeNS).UTC()
	return e, nil
}

// ScanHead reads a row of position, hash, signed_ns and signature: the signed head.
func ScanHead(row Scanner) (eventstore.Head, error) {
	var (
		h  eventstore.Head
		ns int64
	)
	err := row.Scan(&h.Position, &h.Hash, &ns, &h.Signature)
	h.Time = time.Unix(0, ns).UTC()
	return h, err
}

// Args returns e's values in the order of Columns.
func Args(e eventstore.Event) []any { return AppendArgs(nil, e) }

// AppendArgs appends e's values in the order of Columns to args, for multi-row INSERTs.
func AppendArgs(args []any, e eventstore.Event) []any {
	return append(args, e.Position, e.Stream, e.Version, e.ID, e.Type, e.SchemaVersion, e.Payload,
		e.CommandID, e.Actor, e.Visibility.String(), e.Time.UnixNano(), e.PrevHash, e.Hash, e.GlobalHash)
}

// Tx is what one append needs from a transaction that holds the adapter's write lock.
// An adapter may answer from memory (what it read for the whole batch, plus the appends
// of the batch before this one) and write later, as long as the answers are those the
// transaction would give.
type Tx interface {
	// EventsByID returns the stored events with any of ids.
	EventsByID(ids []string) ([]eventstore.Event, error)
	// Last returns the version and hash of stream's last event, 0 and "" if it has none.
	Last(stream string) (version int64, hash string, err error)
	// Reserve assigns n global positions and returns the first, and the GlobalHash of the
	// event before it ("" at position 1).
	Reserve(n int) (first int64, prevGlobal string, err error)
	// Insert stores events.
	Insert(events []eventstore.Event) error
}

// Append runs one validated append inside tx: the idempotency check first (a retry whose
// first attempt succeeded succeeds, however far the stream moved since), then the expected
// version, then the writes. On error the caller rolls back whatever this append wrote.
func Append(tx Tx, stream string, expected int64, proposed []eventstore.Proposed, now time.Time) (eventstore.AppendResult, error) {
	found, err := tx.EventsByID(eventstore.IDs(proposed))
	if err != nil {
		return eventstore.AppendResult{}, err
	}
	if res, ok, err := eventstore.MatchRetry(stream, proposed, found); ok || err != nil {
		return res, err
	}
	version, hash, err := tx.Last(stream)
	if err != nil {
		return eventstore.AppendResult{}, err
	}
	if err := eventstore.CheckExpected(stream, expected, version); err != nil {
		return eventstore.AppendResult{}, err
	}
	first, prevGlobal, err := tx.Reserve(len(proposed))
	if err != nil {
		return eventstore.AppendResult{}, err
	}
	sealed := eventstore.Seal(stream, version, hash, first, prevGlobal, now, proposed)
	if err := tx.Insert(sealed); err != nil {
		return eventstore.AppendResult{}, err
	}
	return eventstore.Result(sealed, false), nil
}

// Tail is the version and hash of a stream's last event.
type Tail struct {
	Version int64
	Hash    string
}

// Batch is a Tx answered from memory, for an adapter that reads first what a whole batch
// of appends needs (under its write lock, or at a revision its write will check), decides
// every append of the batch in memory, one after the other as if each ran alone, and
// writes Rows at the end.
type Batch struct {
	Head     int64  // the position of the last event, stored or of the batch
	HeadHash string // its GlobalHash
	// ByID points into the events found and into each append's sealed events: a map of
	// events by value would copy every event of the batch once more.
	ByID  map[string]*eventstore.Event
	Tails map[string]Tail
	// Known, if not nil, answers Last for a stream that Tails does not hold; else such a
	// stream has no event.
	Known func(stream string) Tail
	Rows  []eventstore.Event // to write
}

// NewBatch returns a Batch at head, knowing the stored events found, for a batch that
// proposes events events in all: its map of IDs and its rows are sized once for them
// rather than grown append by append (0 when the count is not known).
func NewBatch(head int64, headHash string, found []eventstore.Event, events int) *Batch {
	b := &Batch{Head: head, HeadHash: headHash, ByID: make(map[string]*eventstore.Event, max(len(found), events)),
		Tails: map[string]Tail{}, Rows: make([]eventstore.Event, 0, events)}
	for i := range found {
		b.ByID[found[i].ID] = &found[i]
	}
	return b
}

// EventsByID implements Tx.
func (b *Batch) EventsByID(ids []string) ([]eventstore.Event, error) {
	var out []eventstore.Event
	for _, id := range ids {
		if e, ok := b.ByID[id]; ok {
			out = append(out, *e)
		}
	}
	return out, nil
}

// Last implements Tx.
func (b *Batch) Last(stream string) (int64, string, error) {
	t, ok := b.Tails[stream]
	if !ok && b.Known != nil {
		t = b.Known(stream)
	}
	return t.Version, t.Hash, nil
}

// Reserve implements Tx: the positions after the head; Insert advances it.
func (b *Batch) Reserve(int) (int64, string, error) { return b.Head + 1, b.HeadHash, nil }

// Insert implements Tx.
func (b *Batch) Insert(events []eventstore.Event) error {
	b.Rows = append(b.Rows, events...)
	for i := range events {
		b.ByID[events[i].ID] = &events[i] // Seal's, which no one changes
	}
	last := events[len(events)-1]
	b.Head, b.HeadHash = last.Position, last.GlobalHash
	b.Tails[last.Stream] = Tail{last.Version, last.Hash}
	return nil
}
