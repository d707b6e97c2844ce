package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/groupcommit"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
)

// The writer goroutine does as little SQL as it can per append, because with the pure-Go
// driver every statement costs tens of microseconds and the writer is the store's only
// path to the disk. In the common case an append is one INSERT: the stream's last version
// and hash come from a cache, and event IDs are not looked up first, because the UNIQUE
// constraint on id finds a reused ID anyway. A statement that fails on a constraint is
// undone by SQLite on its own (ON CONFLICT ABORT keeps the transaction and the earlier
// statements), so an append of one statement needs no savepoint; only then, or when the
// expected version does not match, is the append decided again by sqlstore.Append, which
// looks the IDs up first and so keeps the port's order: idempotency before the version.
//
// The appends of a batch share their INSERTs (batch.go): up to maxRows events of several
// appends go in one statement, which costs the writer about as much as one append's.

const (
	// maxRows bounds the rows of one INSERT statement: 15 columns each, well below
	// SQLite's limit of 32766 bound parameters. A longer append takes several statements
	// inside a savepoint.
	maxRows = 64
)

// tail is what an append needs of the end of its stream, and the stream's ID in the
// streams table (0 while it has none).
type tail struct {
	version  int64
	hash     string
	stream   int64
	position int64 // of the stream's last event, 0 for none: the next one's prev
}

// touched is a stream the transaction appended to: its tail now, and the position of its
// last event before the transaction, where the file's heads row must still be when the
// transaction writes the new one (writeHeads).
type touched struct {
	tail
	base int64
}

// mark is a row of the marks table.
type mark struct{ stream, version, position int64 }

// writer is the writer goroutine's state: its one connection, pinned so that statements
// are prepared once, and what it knows of the file between transactions.
type writer struct {
	conn                           *sql.Conn
	raw                            *rawConn // the statements run on conn's driver connection (raw.go)
	begin, commit, rollback        rawStmt
	savepoint, rollbackTo, release rawStmt
	byID, last, lastEvent, setHead rawStmt
	newStream, dataVersion         rawStmt
	inserts, updateHeads           *rowsStatement
	newHeads, addMarks             *rowsStatement
	args                           []driver.NamedValue // of the statement being run, reused
	rows                           *rowArgs            // the blobs of an INSERT's args: pending's or insertRows'
	pending                        pending             // appends sealed, their rows waiting for a shared INSERT
	now                            time.Time           // the batch's
	signer                         eventstore.Signer
	head                           int64              // position of the last event, committed or in the transaction
	headHash                       string             // its global hash
	tails                          *tails             // by stream, of committed or in-transaction events
	touched                        map[string]touched // by stream, in the transaction; they come before tails
	marks                          []mark             // the transaction's, to write with the heads
	values                         []int64            // the heads or marks being written
	stale                          bool               // a transaction failed: reload before the next
	seen                           int64              // PRAGMA data_version at the last transaction: another process's commit changes it
	broken                         error              // the current transaction cannot go on
	ctx                            context.Context    // the transaction outlives any caller's context
}

func newWriter(ctx context.Context, db *sql.DB, signer eventstore.Signer) (*writer, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("pin the writer's connection: %w", err)
	}
	w := &writer{conn: conn, raw: newRawConn(context.Background(), conn), tails: newTails(), touched: map[string]touched{}, stale: true,
		ctx: context.Background(), signer: signer, args: make([]driver.NamedValue, 0, 15*maxRows), rows: newRowArgs(maxRows),
		pending: pending{args: make([]driver.NamedValue, 0, 15*maxRows)},
		inserts: newRowsStatement(`INSERT INTO events (`+insertColumns+`) VALUES `, 15, ``),
		// The heads and the marks of the streams a transaction appended to, maxRows streams
		// to a statement, where a statement per stream would cost microseconds each.
		updateHeads: newRowsStatement(`WITH v (stream_id, version, position, base) AS (VALUES `, 4,
			`) UPDATE heads SET version = v.version, position = v.position FROM v WHERE heads.stream_id = v.stream_id AND heads.position = v.base`),
		newHeads: newRowsStatement(`INSERT INTO heads (stream_id, version, position) VALUES `, 3, ``),
		addMarks: newRowsStatement(`INSERT INTO marks (stream_id, version, position) VALUES `, 3, ``),
	}
	for _, p := range []struct {
		stmt *rawStmt
		sql  string
	}{
		// IMMEDIATE takes the write lock at BEGIN, not on the first write, so that a reader
		// in another process cannot make the transaction fail half-way.
		{&w.begin, `BEGIN IMMEDIATE`},
		{&w.commit, `COMMIT`},
		{&w.rollback, `ROLLBACK`},
		{&w.savepoint, `SAVEPOINT append`},
		{&w.rollbackTo, `ROLLBACK TO append`},
		{&w.release, `RELEASE append`},
		{&w.byID, `SELECT ` + selectColumns + ` FROM ` + fromEvents + ` WHERE e.id = ?`},
		{&w.newStream, `INSERT INTO streams (name) VALUES (?)`},
		{&w.last, `SELECT s.id, COALESCE(h.version, 0), COALESCE(h.position, 0), COALESCE(e.hash, '') FROM streams s
			LEFT JOIN heads h ON h.stream_id = s.id LEFT JOIN events e ON e.position = h.position WHERE s.name = ?`},
		{&w.lastEvent, `SELECT position, global_hash FROM events ORDER BY position DESC LIMIT 1`},
		{&w.setHead, `UPDATE head SET position = ?, hash = ?, signed_ns = ?, signature = ?`},
		{&w.dataVersion, `PRAGMA data_version`},
	} {
		stmt, err := w.raw.prepare(ctx, p.sql)
		if err != nil {
			w.close()
			return nil, fmt.Errorf("prepare %q: %w", p.sql, err)
		}
		*p.stmt = stmt
	}
	return w, nil
}

// close releases the statements and gives the connection back to its pool.
func (w *writer) close() error {
	stmts := []rawStmt{w.begin, w.commit, w.rollback, w.savepoint, w.rollbackTo,
		w.release, w.byID, w.newStream, w.last, w.lastEvent, w.setHead, w.dataVersion}
	for _, r := range []*rowsStatement{w.inserts, w.updateHeads, w.newHeads, w.addMarks} {
		stmts = append(stmts, r.stmts[:]...)
	}
	_ = w.raw.close(stmts...) // as before: a statement that fails to finalize is no caller's to handle
	return w.conn.Close()
}

// exec runs st with w.args and clears them, so as not to keep the payloads alive.
func (w *writer) exec(st rawStmt) (driver.Result, error) {
	res, err := w.raw.exec(st, w.args)
	clear(w.args)
	w.args = w.args[:0]
	return res, err
}

// arg appends v to w.args.
func (w *writer) arg(v any) {
	w.args = append(w.args, driver.NamedValue{Ordinal: len(w.args) + 1, Value: v})
}

// queryRow runs st with w.args, cleared, and returns its first row.
func (w *writer) queryRow(st rawStmt) rawRow {
	row := w.raw.queryRow(st, w.args)
	clear(w.args)
	w.args = w.args[:0]
	return row
}

// commit is the group commit of a batch of appends, in one transaction.
func (s *Store) commit(batch []*groupcommit.Request) {
	w := s.w
	s.ckpt.finish(w.ctx, w.conn)
	if err := w.run(batch); err != nil {
		// The transaction is rolled back: every verdict reached inside it is void, a
		// version conflict included (it may have been caused by a rolled-back append of
		// the same batch). The callers may retry; appends are idempotent.
		for _, r := range batch {
			r.Result, r.Err = eventstore.AppendResult{}, fmt.Errorf("sqlite: append: %w", err)
		}
		return
	}
	s.notifier.Notify()
	events := 0
	for _, r := range batch {
		if r.Err == nil && !r.Result.Duplicate {
			events += len(r.Events)
		}
	}
	s.ckpt.committed(events)
}

// run appends the batch in one transaction and commits it. On error, nothing of the
// batch is stored and the writer reloads its state before the next batch.
func (w *writer) run(batch []*groupcommit.Request) error {
	if _, err := w.exec(w.begin); err != nil {
		w.stale = true
		return err
	}
	err := w.external()
	if err == nil {
		err = w.reload()
	}
	head := w.head
	if err == nil {
		err = w.appendAll(batch)
	}
	if err == nil {
		err = w.writeHeads()
	}
	if err == nil && w.head != head {
		// The head is signed in the transaction that stores it: a signed head never names
		// an event that did not commit, and every acknowledged event is covered by one.
		h := eventstore.SignHead(w.signer, w.head, w.headHash, time.Now())
		w.arg(h.Position)
		w.arg(h.Hash)
		w.arg(h.Time.UnixNano())
		w.arg(h.Signature)
		_, err = w.exec(w.setHead)
	}
	if err == nil {
		_, err = w.exec(w.commit)
	}
	if err != nil {
		// Whatever state the failure left, the head and the tails may describe events
		// that are not stored: forget them.
		w.stale = true
		_, _ = w.exec(w.rollback)
		return err
	}
	return nil
}

// external notes a commit by another process since the writer's last transaction (an
// operator's command such as grant-reviewer on the file a server appends to): the head
// and the tails the writer keeps are then stale. SQLite's data_version changes exactly
// when another connection commits, so the check costs no read of the events.
func (w *writer) external() error {
	var v int64
	if err := w.queryRow(w.dataVersion).Scan(&v); err != nil {
		return fmt.Errorf("read data_version: %w", err)
	}
	if v != w.seen {
		w.stale, w.seen = true, v
	}
	return nil
}

// reload reads the head from the file after a failed transaction (or at the start),
// before the batch's head is noted: a batch that appends nothing signs nothing.
func (w *writer) reload() error {
	if !w.stale {
		return nil
	}
	err := w.queryRow(w.lastEvent).Scan(&w.head, textHash{&w.headHash})
	if errors.Is(err, sql.ErrNoRows) {
		w.head, w.headHash, err = 0, "", nil
	}
	if err != nil {
		return fmt.Errorf("read head position: %w", err)
	}
	w.tails.reset()
	w.stale = false
	return nil
}

func (w *writer) appendAll(batch []*groupcommit.Request) error {
	w.broken = nil
	w.pending.reset() // of a batch that broke
	clear(w.touched)
	w.marks = w.marks[:0]
	w.now = time.Now()
	for _, r := range batch {
		w.tails.appended()
		if !w.buffer(r) {
			// The slow path looks the IDs up, and a long append has statements of its
			// own: the pending rows are stored first, as they were appended first.
			if w.flush(); w.broken == nil {
				r.Result, r.Err = w.append(r.Stream, r.Expected, r.Events, w.now)
			}
		}
		if w.broken != nil {
			return w.broken
		}
	}
	w.flush()
	return w.broken
}

// append runs one validated append inside the batch's transaction, on its own, with no
// append's rows pending. An error of the transaction itself is left in w.broken; the
// error returned is the append's own.
func (w *writer) append(stream string, expected int64, events []eventstore.Proposed, now time.Time) (eventstore.AppendResult, error) {
	t, err := w.tail(stream)
	if err != nil {
		return eventstore.AppendResult{}, err
	}
	if eventstore.CheckExpected(stream, expected, t.version) == nil {
		sealed := eventstore.Seal(stream, t.version, t.hash, w.head+1, w.headHash, now, events)
		err := w.insert(sealed)
		if err == nil {
			return eventstore.Result(sealed, false), nil
		}
		if w.broken != nil {
			return eventstore.AppendResult{}, err
		}
		// An ID is already stored (a retry, or a reuse), or the tail was not the stream's
		// end after all: decide again with the full check.
		w.tails.drop(stream)
	}
	return sqlstore.Append(slowTx{w}, stream, expected, events, now)
}

// tail returns the end of stream, from the transaction, the cache, or else the file.
func (w *writer) tail(stream string) (tail, error) {
	if t, ok := w.touched[stream]; ok {
		return t.tail, nil
	}
	if t, ok := w.tails.get(stream); ok {
		return t, nil
	}
	var t tail
	w.arg(stream)
	err := w.queryRow(w.last).Scan(&t.stream, &t.version, &t.position, textHash{&t.hash})
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return tail{}, w.fail(fmt.Errorf("read version of %q: %w", stream, err))
	}
	w.tails.put(stream, t)
	return t, nil
}

// streamTail returns the tail of stream, adding the stream to the streams table if it
// has no ID there.
func (w *writer) streamTail(stream string) (tail, error) {
	t, err := w.tail(stream)
	if err != nil || t.stream != 0 {
		return t, err
	}
	w.arg(stream)
	res, err := w.exec(w.newStream)
	if err == nil {
		t.stream, err = res.LastInsertId()
	}
	if err != nil {
		return tail{}, w.fail(fmt.Errorf("add stream %q: %w", stream, err))
	}
	w.tails.put(stream, t)
	return t, nil
}

// insert stores the events of one append, all or none, advances the head and the tail of
// their stream. A constraint violation is returned with the transaction intact; any
// other failure also sets w.broken.
func (w *writer) insert(events []eventstore.Event) error {
	last := events[len(events)-1]
	t, err := w.streamTail(last.Stream)
	if err != nil {
		return err
	}
	if len(events) <= maxRows {
		if err := w.insertRows(events, t.stream, t.position); err != nil {
			return w.check(fmt.Errorf("insert events: %w", err))
		}
	} else if err := w.insertChunks(events, t.stream, t.position); err != nil {
		return err
	}
	w.advance(events, t)
	return nil
}

// advance moves the head past events, stored or pending, and the tail of their stream,
// whose tail before them was t.
func (w *writer) advance(events []eventstore.Event, t tail) {
	last := events[len(events)-1]
	w.head, w.headHash = last.Position, last.GlobalHash
	next := tail{last.Version, last.Hash, t.stream, last.Position}
	w.tails.put(last.Stream, next)
	base := t.position
	if tt, ok := w.touched[last.Stream]; ok {
		base = tt.base
	}
	w.touched[last.Stream] = touched{next, base}
	for _, e := range events {
		if e.Version%markEvery == 0 {
			w.marks = append(w.marks, mark{t.stream, e.Version, e.Position})
		}
	}
}

// insertChunks stores a long append in several statements, inside a savepoint that
// undoes the first ones if a later one fails.
func (w *writer) insertChunks(events []eventstore.Event, stream, prev int64) error {
	if _, err := w.exec(w.savepoint); err != nil {
		return w.fail(err)
	}
	for chunk := range slices.Chunk(events, maxRows) {
		if err := w.insertRows(chunk, stream, prev); err != nil {
			if _, rerr := w.exec(w.rollbackTo); rerr != nil {
				return w.fail(rerr)
			}
			if _, rerr := w.exec(w.release); rerr != nil {
				return w.fail(rerr)
			}
			return w.check(fmt.Errorf("insert events: %w", err))
		}
		prev = chunk[len(chunk)-1].Position
	}
	if _, err := w.exec(w.release); err != nil {
		return w.fail(err)
	}
	return nil
}

// insertRows runs one INSERT of up to maxRows events of the stream whose ID is stream, the
// first one's previous event at position prev.
func (w *writer) insertRows(events []eventstore.Event, stream, prev int64) error {
	stmt, err := w.inserts.get(w, len(events))
	if err != nil {
		return err
	}
	for i, e := range events {
		w.args = w.rows.append(w.args, i, e, stream, prev)
		prev = e.Position
	}
	_, err = w.exec(stmt)
	return err
}

// writeHeads writes the heads of the streams the transaction appended to, and their marks,
// in a statement per maxRows streams (at most three for most transactions).
//
// Without the UNIQUE index on (stream_id, version) of schema version 3, what keeps two
// events of a stream from having the same version is that one writer appends, from the
// tails it keeps, and drops them when another process committed (external). The heads
// are the backstop, at no statement per append: a stream's row is updated only where it
// still names the event the transaction's first append to it followed (base), and a new
// stream's row is inserted only if it has none, so a tail that was not the stream's end
// fails the transaction rather than forking the stream.
func (w *writer) writeHeads() error {
	if len(w.touched) == 0 {
		return nil
	}
	w.values = w.values[:0]
	for _, t := range w.touched {
		if t.base != 0 {
			w.values = append(w.values, t.stream, t.version, t.position, t.base)
		}
	}
	updates := int64(len(w.values) / 4)
	n, err := w.execRows(w.updateHeads, w.values)
	if err == nil && n != updates {
		err = fmt.Errorf("%d of the %d streams appended to have moved since this writer read them: has another process appended to the file?", updates-n, updates)
	}
	if err != nil {
		return fmt.Errorf("write the heads of the streams: %w", err)
	}
	w.values = w.values[:0]
	for _, t := range w.touched {
		if t.base == 0 {
			w.values = append(w.values, t.stream, t.version, t.position)
		}
	}
	if _, err := w.execRows(w.newHeads, w.values); err != nil {
		return fmt.Errorf("write the heads of the new streams: %w", err)
	}
	w.values = w.values[:0]
	for _, m := range w.marks {
		w.values = append(w.values, m.stream, m.version, m.position)
	}
	if _, err := w.execRows(w.addMarks, w.values); err != nil {
		return fmt.Errorf("write the marks of the streams: %w", err)
	}
	return nil
}

// execRows runs st over values, st.width to a row, maxRows rows to a statement, and
// returns how many rows the statements changed.
func (w *writer) execRows(st *rowsStatement, values []int64) (int64, error) {
	var changed int64
	for chunk := range slices.Chunk(values, st.width*maxRows) {
		stmt, err := st.get(w, len(chunk)/st.width)
		if err != nil {
			return changed, err
		}
		for _, v := range chunk {
			w.arg(v)
		}
		res, err := w.exec(stmt)
		var n int64
		if err == nil {
			n, err = res.RowsAffected()
		}
		if err != nil {
			return changed, err
		}
		changed += n
	}
	return changed, nil
}

// rowsStatement is a statement of up to maxRows rows of values, prepared on the writer's
// connection by number of rows on first use.
type rowsStatement struct {
	prefix, suffix string
	width          int // values a row
	stmts          [maxRows + 1]rawStmt
}

func newRowsStatement(prefix string, width int, suffix string) *rowsStatement {
	return &rowsStatement{prefix: prefix, suffix: suffix, width: width}
}

// get returns the statement of n rows.
func (r *rowsStatement) get(w *writer, n int) (rawStmt, error) {
	if st := r.stmts[n]; st != nil {
		return st, nil
	}
	row := "(?" + strings.Repeat(", ?", r.width-1) + ")"
	st, err := w.raw.prepare(w.ctx, r.prefix+row+strings.Repeat(", "+row, n-1)+r.suffix)
	if err != nil {
		return nil, err
	}
	r.stmts[n] = st
	return st, nil
}

// check returns err, and marks the transaction broken unless err is a constraint
// violation, which SQLite undoes by itself.
func (w *writer) check(err error) error {
	if isConstraint(err) {
		return err
	}
	return w.fail(err)
}

func (w *writer) fail(err error) error {
	if w.broken == nil {
		w.broken = err
	}
	return err
}

func isConstraint(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// damaged marks an error of a damaged file (SQLite found it corrupt, or not a database at
// all) with eventstore.ErrDamaged, so that whoever opened the file can say what to do.
func damaged(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) && (se.Code()&0xff == sqlite3.SQLITE_CORRUPT || se.Code()&0xff == sqlite3.SQLITE_NOTADB) {
		return fmt.Errorf("%w: %w", eventstore.ErrDamaged, err)
	}
	return err
}

// slowTx is sqlstore.Tx over the writer's transaction, for the full check of an append.
type slowTx struct{ w *writer }

func (t slowTx) EventsByID(ids []string) ([]eventstore.Event, error) {
	var found []eventstore.Event
	for _, id := range ids {
		t.w.arg(storedID(id))
		e, err := scanEvent(t.w.queryRow(t.w.byID))
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, t.w.fail(fmt.Errorf("look up event %q: %w", id, err))
		}
		found = append(found, e)
	}
	return found, nil
}

func (t slowTx) Last(stream string) (int64, string, error) {
	tl, err := t.w.tail(stream)
	return tl.version, tl.hash, err
}

// Reserve hands out the positions after the head: a single writer commits in the order
// it assigns, so positions follow commit order and have no gap. insert advances the head.
func (t slowTx) Reserve(n int) (int64, string, error) { return t.w.head + 1, t.w.headHash, nil }

func (t slowTx) Insert(events []eventstore.Event) error { return t.w.insert(events) }
