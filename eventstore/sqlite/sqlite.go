// Package sqlite is Arbiter's embedded event store: one SQLite file, no server to run,
// through the pure-Go driver modernc.org/sqlite. One writer goroutine commits every
// waiting append in one transaction (group commit, see write.go), which also makes global
// positions follow commit order, as subscriptions need; reads use a pool of connections
// that WAL lets run alongside the writer; COMMIT returns only once the WAL is on disk.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/groupcommit"
)

// schemaVersion is the version of the tables below. Open migrates a file of version 2 or
// 3 to it (migrate.go, migrate4.go), unless told not to (WithoutMigration), and refuses any
// other.
const schemaVersion = 4

// ErrNotMigrated is the error of Open, with WithoutMigration, on a file of an older schema
// version this build migrates: it is left as it was, and a tool that only reads cannot read
// it before it is migrated. The error is a *NotMigratedError, which says the version.
var ErrNotMigrated = errors.New("the file is of an older schema version, which this build reads only once migrated")

// NotMigratedError is ErrNotMigrated for a file of schema version Version.
type NotMigratedError struct{ Version int64 }

func (e *NotMigratedError) Error() string {
	return fmt.Sprintf("the file has schema version %d, which this build reads only once migrated to %d", e.Version, schemaVersion)
}

// Is makes errors.Is(err, ErrNotMigrated) hold.
func (e *NotMigratedError) Is(target error) bool { return target == ErrNotMigrated }

// schema creates the tables of a new file; row.go says why they take this form.
var schema = streamsTable + eventsTable("events", true) + idIndex + streamTables + headTable

const streamsTable = `
CREATE TABLE IF NOT EXISTS streams (
	id   INTEGER PRIMARY KEY,
	name TEXT    NOT NULL UNIQUE
);`

// eventsTable creates the table of events under name, without its index; withPrev adds
// the column prev of schema version 4 (row.go), which version 3 had not.
func eventsTable(name string, withPrev bool) string {
	prev := ""
	if withPrev {
		prev = ",\n\tprev           INTEGER NOT NULL -- position of the stream's previous event, 0 for none"
	}
	return `
CREATE TABLE IF NOT EXISTS ` + name + ` (
	position       INTEGER PRIMARY KEY,
	stream_id      INTEGER NOT NULL, -- streams.id
	version        INTEGER NOT NULL,
	id             BLOB    NOT NULL,
	type           TEXT    NOT NULL,
	schema_version INTEGER NOT NULL,
	payload        BLOB    NOT NULL,
	command_id     TEXT    NOT NULL,
	actor          TEXT    NOT NULL,
	visibility     TEXT    NOT NULL,
	time_ns        INTEGER NOT NULL,
	prev_hash      BLOB    NOT NULL,
	hash           BLOB    NOT NULL,
	global_hash    BLOB    NOT NULL` + prev + `
);`
}

// idIndex finds an event by its ID, and refuses a second event with the same ID.
const idIndex = `
CREATE UNIQUE INDEX events_by_id ON events (id);
`

// streamTables find a stream's events without an index on (stream_id, version): heads
// holds each stream's last version and the position of its last event, marks the position
// of every markEvery-th version (row.go).
const streamTables = `
CREATE TABLE IF NOT EXISTS heads (
	stream_id INTEGER PRIMARY KEY, -- streams.id
	version   INTEGER NOT NULL,
	position  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS marks (
	stream_id INTEGER NOT NULL,
	version   INTEGER NOT NULL, -- a multiple of markEvery
	position  INTEGER NOT NULL,
	PRIMARY KEY (stream_id, version)
) WITHOUT ROWID;`

// headTable holds one row: the head the writer signed at its last commit (eventstore.Head).
const headTable = `
CREATE TABLE IF NOT EXISTS head (
	position  INTEGER NOT NULL,
	hash      TEXT    NOT NULL,
	signed_ns INTEGER NOT NULL,
	signature BLOB
);`

type config struct {
	signer      eventstore.Signer
	log         *slog.Logger
	readConns   int
	maxBatch    int
	busyTimeout time.Duration
	noMigration bool
	// checkpointEvery and walPages are checkpoint.go's constants but in tests, where a
	// few thousand events go through many checkpoints.
	checkpointEvery, walPages int
}

// Option configures Open.
type Option func(*config)

// WithSigner signs the store's head at every commit (see eventstore.Head). Without it the
// heads are stored unsigned, and `arbiter verify` rejects them.
func WithSigner(s eventstore.Signer) Option { return func(c *config) { c.signer = s } }

// WithLogger sets where a migration logs its progress (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.log = l } }

// WithReadConns sets the size of the read connection pool (default 4).
func WithReadConns(n int) Option { return func(c *config) { c.readConns = max(n, 1) } }

// WithMaxBatch bounds the appends committed in one transaction (default 1024). A writer
// that falls behind commits what has queued up at once: the bigger its transaction, the
// fewer flushes, signatures and writes of each index page per append, so it catches up
// sooner. At 20,000 moves/s offered on a loaded machine (docs/benchmarks.md), 1024 rather
// than 256 gave 12,000 to 12,800 moves/s rather than 9,500 to 9,900, with 10 % less CPU
// per move.
func WithMaxBatch(n int) Option { return func(c *config) { c.maxBatch = max(n, 1) } }

// WithBusyTimeout sets how long a connection waits for a lock held by another process
// before failing (default 5s). Only one process should append to a file, but tools such
// as `arbiter verify` may read it meanwhile.
func WithBusyTimeout(d time.Duration) Option { return func(c *config) { c.busyTimeout = d } }

// WithoutMigration makes Open refuse a file of schema version 2 or 3 with ErrNotMigrated,
// leaving it as it was, instead of migrating it: for the tools that only read a file
// (`arbiter verify` must not change what it verifies).
func WithoutMigration() Option { return func(c *config) { c.noMigration = true } }

// Store is an eventstore.Store in one SQLite file.
type Store struct {
	write    *sql.DB // one connection, used only by the writer goroutine
	read     *sql.DB
	reads    *readStatements
	queue    *groupcommit.Queue
	ckpt     *checkpointer // fed by the writer goroutine
	notifier *eventstore.Notifier
	closed   atomic.Bool

	w *writer // owned by the writer goroutine
}

var (
	_ eventstore.Store          = (*Store)(nil)
	_ eventstore.CommitObserver = (*Store)(nil)
)

// Open opens the event store in the file at path, creating the file and its tables if
// needed.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	cfg := config{log: slog.Default(), readConns: 4, maxBatch: 1024, busyTimeout: 5 * time.Second, checkpointEvery: checkpointEvery, walPages: walPages}
	for _, o := range opts {
		o(&cfg)
	}
	// The journal is WAL with synchronous=FULL, so that COMMIT returns only after the WAL
	// is flushed to disk. With WAL, synchronous=NORMAL survives a process crash (kill -9)
	// but may lose the last commits on power loss, which an acknowledged append must not.
	pragmas := []string{
		fmt.Sprintf("busy_timeout(%d)", cfg.busyTimeout.Milliseconds()),
		"journal_mode(WAL)",
		"synchronous(FULL)",
	}
	// The writer's connection gets a larger page cache, so that the index pages of a
	// thousand live streams stay in memory (measured with BenchmarkAppendLoad over 200 000
	// appends, with checkpoints every 8000 pages: 9 800 appends/s with the defaults,
	// 14 500 to 16 200 with these), and leaves checkpoints to the checkpointer
	// (checkpoint.go) but past walPages pages of WAL. An INSERT of several appends' rows
	// (batch.go) keeps the pages it changes in a statement journal, to undo them if it
	// fails; past 64 KiB SQLite spills that journal to a temporary file, a write system
	// call per page, which cost more than the statements saved: temp_store(MEMORY) keeps
	// it in memory, a few hundred KiB for an INSERT of maxRows rows.
	write, err := openDB(path, append(pragmas, "cache_size(-65536)", fmt.Sprintf("wal_autocheckpoint(%d)", cfg.walPages),
		"temp_store(MEMORY)"), "immediate", 1)
	if err != nil {
		return nil, err
	}
	s := &Store{write: write, notifier: eventstore.NewNotifier()}
	if err := s.init(ctx, cfg); err != nil {
		write.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, damaged(err))
	}
	s.read, err = openDB(path, append(pragmas, "query_only(1)"), "", cfg.readConns)
	if err == nil {
		s.reads, err = prepareReads(ctx, s.read)
	}
	var ckpt *sql.DB
	if err == nil {
		ckpt, err = openDB(path, pragmas, "", 1)
	}
	if err != nil {
		if s.read != nil {
			s.read.Close()
		}
		s.w.close()
		write.Close()
		return nil, err
	}
	s.ckpt = startCheckpointer(ckpt, cfg.checkpointEvery)
	s.queue = groupcommit.New(s.commit, cfg.maxBatch)
	s.queue.OnIdle(func() { s.ckpt.finish(s.w.ctx, s.w.conn) })
	return s, nil
}

func openDB(path string, pragmas []string, txlock string, conns int) (*sql.DB, error) {
	q := url.Values{"_pragma": pragmas}
	if txlock != "" {
		// BEGIN IMMEDIATE takes the write lock at once instead of failing on upgrade.
		q.Set("_txlock", txlock)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	db.SetConnMaxLifetime(0)
	return db, nil
}

// init creates the tables, checks the schema version and sets up the writer, which loads
// the head position with its first batch.
func (s *Store) init(ctx context.Context, cfg config) error {
	if err := s.setUp(ctx, cfg); err != nil {
		return err
	}
	w, err := newWriter(ctx, s.write, cfg.signer)
	if err != nil {
		return err
	}
	s.w = w
	return nil
}

// setUp creates the tables of a new file, migrates a file of schema version 2 or 3 (or refuses
// it untouched, with cfg.noMigration), and refuses a file of any other version untouched.
func (s *Store) setUp(ctx context.Context, cfg config) error {
	v, err := s.fileVersion(ctx)
	if err != nil {
		return err
	}
	switch v {
	case 0, schemaVersion:
	case 2, 3:
		if cfg.noMigration {
			return &NotMigratedError{Version: v}
		}
		if v == 2 {
			if err := to3.run(ctx, s.write, cfg.log); err != nil {
				return fmt.Errorf("migrate from schema version 2: %w", err)
			}
		}
		if err := to4.run(ctx, s.write, cfg.log); err != nil {
			return fmt.Errorf("migrate from schema version 3: %w", err)
		}
	default:
		return fmt.Errorf("the file has schema version %d, this build reads %d and migrates 2 and 3", v, schemaVersion)
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Read again under the write lock: another process may have created the tables since.
	switch err := tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, schema); err != nil {
			return fmt.Errorf("create tables: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (?)`, schemaVersion); err != nil {
			return fmt.Errorf("record schema version: %w", err)
		}
	case err != nil:
		return fmt.Errorf("read schema version: %w", err)
	case v != schemaVersion:
		return fmt.Errorf("the file has schema version %d, this build reads %d and migrates 2 and 3", v, schemaVersion)
	}
	// The writer updates the one head row; a crash of the first open may have left none.
	if _, err := tx.ExecContext(ctx, `INSERT INTO head (position, hash, signed_ns) SELECT 0, '', 0 WHERE NOT EXISTS (SELECT 1 FROM head)`); err != nil {
		return fmt.Errorf("record the head: %w", err)
	}
	return tx.Commit()
}

// fileVersion returns the file's schema version, 0 for a new file, creating the table
// that records it if need be (the only change made to a file that is then refused).
func (s *Store) fileVersion(ctx context.Context) (int64, error) {
	if _, err := s.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return 0, fmt.Errorf("create the schema_version table: %w", err)
	}
	var v int64
	switch err := s.write.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); {
	case errors.Is(err, sql.ErrNoRows):
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// ObserveCommits implements eventstore.CommitObserver.
func (s *Store) ObserveCommits(f func(eventstore.Commit)) { s.queue.Observe(f) }

// Append implements eventstore.Store.
func (s *Store) Append(ctx context.Context, stream string, expected int64, events ...eventstore.Proposed) (eventstore.AppendResult, error) {
	if err := eventstore.ValidateAppend(stream, expected, events); err != nil {
		return eventstore.AppendResult{}, err
	}
	if s.closed.Load() {
		return eventstore.AppendResult{}, eventstore.ErrClosed
	}
	return s.queue.Submit(ctx, stream, expected, events)
}
