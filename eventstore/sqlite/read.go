package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
)

// readStatements are the reads, prepared once: the pure-Go SQLite spends more time
// compiling a statement than running one of these.
//
// ReadAll's page reads write their LIMIT into the statement, one statement per distinct limit
// (limited): SQLite expires a prepared statement whenever a parameter its plan depends
// on is bound again, and the LIMIT is one, so one statement shared by callers that read
// 256 and 1000 events at a time was compiled again on nearly every read (18 % of a
// server's CPU with thousands of subscribers, issue 11).
type readStatements struct {
	stream, all, version, head *sql.Stmt
	db                         *sql.DB
	mu                         sync.Mutex
	paged                      map[int]*sql.Stmt // by limit
}

// maxPagedStatements bounds the statements kept per limit; reads with yet another limit
// share the statement with a bound LIMIT.
const maxPagedStatements = 16

// paged returns the statement for a page read with the given limit.
func (r *readStatements) page(ctx context.Context, limit int) (*sql.Stmt, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if st := r.paged[limit]; st != nil {
		return st, nil
	}
	if len(r.paged) >= maxPagedStatements {
		return nil, nil
	}
	q := readAllSQL + ` LIMIT ` + strconv.Itoa(limit)
	st, err := r.db.PrepareContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("sqlite: prepare %q: %w", q, err)
	}
	if r.paged == nil {
		r.paged = map[int]*sql.Stmt{}
	}
	r.paged[limit] = st
	return st, nil
}

// readAllSQL is ReadAll's page read, but for its LIMIT.
const readAllSQL = `SELECT ` + selectColumns + ` FROM ` + fromEvents + ` WHERE e.position > ? ORDER BY e.position`

// readStreamSQL reads the events of stream ?1 after version ?2, ?3 of them (all for 0 or
// less), in one statement: the chain of prev (row.go) is walked inside SQLite, where a
// statement per event would cost microseconds each. The walk starts at the first mark at
// or above the last version to read, or at the head when there is none below it, and
// stops at the first version to read: at most limit+markEvery rows, whatever the
// stream's length. The limit is no LIMIT clause, so one statement serves every limit
// (readStatements, above, says why a bound LIMIT would not).
const readStreamSQL = `
WITH RECURSIVE
	h(sid, hv, hp, top) AS (
		SELECT h.stream_id, h.version, h.position, CASE WHEN ?3 <= 0 OR ?2 + ?3 >= h.version THEN h.version ELSE ?2 + ?3 END
		FROM streams s JOIN heads h ON h.stream_id = s.id WHERE s.name = ?1 AND h.version > ?2),
	chain(position, version, prev) AS (
		SELECT e.position, e.version, e.prev FROM h, events e WHERE e.position = COALESCE(
			(SELECT m.position FROM marks m WHERE m.stream_id = h.sid AND m.version >= h.top ORDER BY m.version LIMIT 1), h.hp)
		UNION ALL
		SELECT e.position, e.version, e.prev FROM chain c JOIN events e ON e.position = c.prev WHERE c.version > ?2 + 1)
SELECT ` + selectColumns + ` FROM chain c JOIN h JOIN events e ON e.position = c.position LEFT JOIN streams s ON s.id = e.stream_id
WHERE c.version > ?2 AND c.version <= h.top ORDER BY c.version`

func prepareReads(ctx context.Context, db *sql.DB) (*readStatements, error) {
	r := &readStatements{db: db}
	for _, p := range []struct {
		stmt  **sql.Stmt
		query string
	}{
		{&r.stream, readStreamSQL},
		{&r.all, readAllSQL + ` LIMIT ?`},
		{&r.version, `SELECT COALESCE((SELECT h.version FROM streams s JOIN heads h ON h.stream_id = s.id WHERE s.name = ?), 0)`},
		{&r.head, `SELECT COALESCE(MAX(position), 0) FROM events`},
	} {
		stmt, err := db.PrepareContext(ctx, p.query)
		if err != nil {
			return r, fmt.Errorf("sqlite: prepare %q: %w", p.query, err)
		}
		*p.stmt = stmt
	}
	return r, nil
}

func (r *readStatements) close() error {
	if r == nil {
		return nil
	}
	errs := []error{r.stream.Close(), r.all.Close(), r.version.Close(), r.head.Close()}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, st := range r.paged {
		errs = append(errs, st.Close())
	}
	return errors.Join(errs...)
}

// ReadStream implements eventstore.Store.
func (s *Store) ReadStream(ctx context.Context, stream string, after int64, limit int) ([]eventstore.Event, error) {
	return s.query(ctx, s.reads.stream, stream, after, limit)
}

// pagedStmt returns the statement for a page read with its limit written in, or nil when
// the read has no limit or too many limits are in use (the bound statement serves then).
func (s *Store) pagedStmt(ctx context.Context, limit int) (*sql.Stmt, error) {
	if limit <= 0 || s.closed.Load() {
		return nil, nil
	}
	st, err := s.reads.page(ctx, limit)
	if err != nil {
		return nil, s.readErr(err)
	}
	return st, nil
}

// ReadAll implements eventstore.Store.
func (s *Store) ReadAll(ctx context.Context, after int64, limit int) ([]eventstore.Event, error) {
	if st, err := s.pagedStmt(ctx, limit); err != nil || st != nil {
		if err != nil {
			return nil, err
		}
		return s.query(ctx, st, after)
	}
	return s.query(ctx, s.reads.all, after, sqlLimit(limit))
}

// StreamVersion implements eventstore.Store.
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	return s.queryInt(ctx, s.reads.version, stream)
}

// HeadPosition implements eventstore.Store.
func (s *Store) HeadPosition(ctx context.Context) (int64, error) {
	return s.queryInt(ctx, s.reads.head)
}

// SignedHead implements eventstore.Store.
func (s *Store) SignedHead(ctx context.Context) (eventstore.Head, error) {
	if s.closed.Load() {
		return eventstore.Head{}, eventstore.ErrClosed
	}
	h, err := sqlstore.ScanHead(s.read.QueryRowContext(ctx, `SELECT position, hash, signed_ns, signature FROM head`))
	if errors.Is(err, sql.ErrNoRows) {
		return eventstore.Head{}, nil // the row was deleted: an unsigned head, which verify reports
	}
	if err != nil {
		return eventstore.Head{}, fmt.Errorf("sqlite: read the signed head: %w", err)
	}
	return h, nil
}

// Subscribe implements eventstore.Store. Only this process appends to the file, so the
// writer's wake-ups are enough: no polling.
func (s *Store) Subscribe(ctx context.Context, after int64) (*eventstore.Subscription, error) {
	if s.closed.Load() {
		return nil, eventstore.ErrClosed
	}
	if after < 0 {
		return nil, fmt.Errorf("%w: subscription after position %d", eventstore.ErrInvalid, after)
	}
	return eventstore.Follow(ctx, s, after, s.notifier, 0), nil
}

// Close implements eventstore.Store: it lets queued appends commit, ends subscriptions
// and closes the file.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.queue.Close()
	s.notifier.Close()
	rerr := errors.Join(s.ckpt.close(), s.reads.close(), s.read.Close(), s.w.close())
	// Fold the WAL back into the main file, so the file alone holds everything; a failure
	// here loses nothing, the WAL is replayed on the next open.
	_, _ = s.write.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	if err := errors.Join(rerr, s.write.Close()); err != nil {
		return fmt.Errorf("sqlite: close: %w", err)
	}
	return nil
}

// sqlLimit maps the port's "no limit" to SQLite's.
func sqlLimit(limit int) int {
	if limit <= 0 {
		return -1
	}
	return limit
}

func (s *Store) query(ctx context.Context, stmt *sql.Stmt, args ...any) ([]eventstore.Event, error) {
	if s.closed.Load() {
		return nil, eventstore.ErrClosed
	}
	rows, err := stmt.QueryContext(ctx, args...)
	if err != nil {
		return nil, s.readErr(err)
	}
	defer rows.Close()
	var out []eventstore.Event
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, s.readErr(err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, s.readErr(err)
	}
	return out, nil
}

func (s *Store) queryInt(ctx context.Context, stmt *sql.Stmt, args ...any) (int64, error) {
	if s.closed.Load() {
		return 0, eventstore.ErrClosed
	}
	var n int64
	if err := stmt.QueryRowContext(ctx, args...).Scan(&n); err != nil {
		return 0, s.readErr(err)
	}
	return n, nil
}

// readErr reports a read that raced with Close as ErrClosed.
func (s *Store) readErr(err error) error {
	if s.closed.Load() {
		return eventstore.ErrClosed
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("sqlite: read: %w", damaged(err))
}
