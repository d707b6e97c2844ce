// Package postgres is Arbiter's event store on a PostgreSQL server, for deployments where
// several Arbiter processes share one store. It uses pgx/v5.
//
// Global positions must follow commit order, or a subscriber reading by position could
// pass position p+1 before the transaction holding p commits, and skip p for ever. A plain
// sequence does not give that: numbers are handed out at INSERT, commits land in any order.
// So every append transaction first takes a transaction-level advisory lock
// (pg_advisory_xact_lock), then assigns positions from a one-row counter table: the lock
// is released only after COMMIT is visible, so the next holder both sees every earlier
// append (each READ COMMITTED statement takes a fresh snapshot) and commits after it.
// Positions are gapless too, because the counter rolls back with a failed append. The cost
// is that appends are serialized across all processes; within a process, appends are
// grouped into one transaction per batch (group commit), which keeps the throughput up.
//
// Its tests run against the server named by ARBITER_PG_URL, for example
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable; they skip when it is unset,
// and fail under CI=true.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/groupcommit"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
)

const schemaVersion = 1

// tables is run with search_path set to the store's schema.
const tables = `
CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL);
CREATE TABLE IF NOT EXISTS head (position bigint NOT NULL);
CREATE TABLE IF NOT EXISTS events (
	position       bigint  PRIMARY KEY,
	stream         text    NOT NULL,
	version        bigint  NOT NULL,
	id             text    NOT NULL UNIQUE,
	type           text    NOT NULL,
	schema_version integer NOT NULL,
	payload        bytea   NOT NULL,
	command_id     text    NOT NULL,
	actor          text    NOT NULL,
	visibility     text    NOT NULL,
	time_ns        bigint  NOT NULL,
	prev_hash      text    NOT NULL,
	hash           text    NOT NULL,
	UNIQUE (stream, version)
);`

type config struct {
	schema   string
	poll     time.Duration
	maxBatch int
}

// Option configures Open.
type Option func(*config)

// WithSchema puts the store's tables in schema (default "arbiter"), created if needed.
func WithSchema(schema string) Option { return func(c *config) { c.schema = schema } }

// WithPoll sets how often subscriptions look for appends made by other processes
// (default 100ms). Appends made through this Store wake them at once.
func WithPoll(d time.Duration) Option { return func(c *config) { c.poll = d } }

// WithMaxBatch bounds the appends committed in one transaction (default 256).
func WithMaxBatch(n int) Option { return func(c *config) { c.maxBatch = max(n, 1) } }

// Store is an eventstore.Store in a PostgreSQL schema.
type Store struct {
	pool     *pgxpool.Pool
	lockKey  int64 // the advisory lock that serializes appends to this schema
	poll     time.Duration
	queue    *groupcommit.Queue
	notifier *eventstore.Notifier
	closed   atomic.Bool
}

var _ eventstore.Store = (*Store)(nil)

// Open connects to the server at url (a PostgreSQL connection URL or keyword/value
// string) and creates the store's schema and tables if needed.
func Open(ctx context.Context, url string, opts ...Option) (*Store, error) {
	cfg := config{schema: "arbiter", poll: 100 * time.Millisecond, maxBatch: 256}
	for _, o := range opts {
		o(&cfg)
	}
	pcfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse url: %w", err)
	}
	// Every connection works in the store's schema, so queries name bare tables.
	pcfg.ConnConfig.RuntimeParams["search_path"] = cfg.schema
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	h := fnv.New64a()
	h.Write([]byte("arbiter.eventstore." + cfg.schema))
	s := &Store{pool: pool, lockKey: int64(h.Sum64()), poll: cfg.poll, notifier: eventstore.NewNotifier()}
	if err := s.init(ctx, cfg.schema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open schema %q: %w", cfg.schema, err)
	}
	s.queue = groupcommit.New(s.commit, cfg.maxBatch)
	return s, nil
}

// init creates the schema under the append lock, so that processes opening the same
// store at once do not race on CREATE.
func (s *Store) init(ctx context.Context, schema string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, s.lockKey); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{schema}.Sanitize()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, tables); err != nil {
			return err
		}
		var v int64
		switch err := tx.QueryRow(ctx, `SELECT version FROM schema_version`).Scan(&v); {
		case errors.Is(err, pgx.ErrNoRows):
			if _, err := tx.Exec(ctx, `INSERT INTO schema_version (version) VALUES ($1)`, schemaVersion); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO head (position) VALUES (0)`); err != nil {
				return err
			}
		case err != nil:
			return err
		case v > schemaVersion:
			return fmt.Errorf("schema version %d, this build knows up to %d", v, schemaVersion)
		}
		return nil
	})
}

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

// commit is the group commit of a batch of appends, in one transaction holding the
// append lock, with a savepoint per append.
func (s *Store) commit(batch []*groupcommit.Request) {
	// One caller giving up must not fail the others' transaction.
	ctx := context.Background()
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, s.lockKey); err != nil {
			return err
		}
		now := time.Now()
		for _, r := range batch {
			// A nested pgx transaction is a savepoint.
			sp, err := tx.Begin(ctx)
			if err != nil {
				return err
			}
			r.Result, r.Err = sqlstore.Append(writeTx{ctx, sp}, r.Stream, r.Expected, r.Events, now)
			if r.Err != nil {
				err = sp.Rollback(ctx)
			} else {
				err = sp.Commit(ctx)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		for _, r := range batch {
			if r.Err == nil {
				r.Err = fmt.Errorf("postgres: append: %w", err)
			}
		}
		return
	}
	s.notifier.Notify()
}

// writeTx is sqlstore.Tx over a savepoint of the batch's transaction.
type writeTx struct {
	ctx context.Context
	tx  pgx.Tx
}

func (w writeTx) EventsByID(ids []string) ([]eventstore.Event, error) {
	rows, err := w.tx.Query(w.ctx, `SELECT `+sqlstore.Columns+` FROM events WHERE id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("look up event IDs: %w", err)
	}
	return collect(rows)
}

func (w writeTx) Last(stream string) (int64, string, error) {
	var (
		v int64
		h string
	)
	err := w.tx.QueryRow(w.ctx, `SELECT version, hash FROM events WHERE stream = $1 ORDER BY version DESC LIMIT 1`, stream).Scan(&v, &h)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", fmt.Errorf("read version of %q: %w", stream, err)
	}
	return v, h, nil
}

func (w writeTx) Reserve(n int) (int64, error) {
	var first int64
	err := w.tx.QueryRow(w.ctx, `UPDATE head SET position = position + $1 RETURNING position - $1 + 1`, int64(n)).Scan(&first)
	if err != nil {
		return 0, fmt.Errorf("reserve positions: %w", err)
	}
	return first, nil
}

// insertSQL takes the columns of sqlstore.Columns in order.
const insertSQL = `INSERT INTO events (` + sqlstore.Columns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`

func (w writeTx) Insert(events []eventstore.Event) error {
	// One round trip for all the events of the append.
	var b pgx.Batch
	for _, e := range events {
		b.Queue(insertSQL, sqlstore.Args(e)...)
	}
	if err := w.tx.SendBatch(w.ctx, &b).Close(); err != nil {
		return fmt.Errorf("insert events: %w", err)
	}
	return nil
}

// collect scans rows of sqlstore.Columns.
func collect(rows pgx.Rows) ([]eventstore.Event, error) {
	defer rows.Close()
	var out []eventstore.Event
	for rows.Next() {
		e, err := sqlstore.Scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
