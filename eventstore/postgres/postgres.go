// Package postgres is Arbiter's event store on a PostgreSQL server (through pgx/v5), for
// deployments where several Arbiter processes share one store. Appends are serialized
// across processes by an advisory lock, so that global positions follow commit order
// (see commitBatch), and grouped into one transaction per batch within a process. Its
// tests run against the server named by ARBITER_PG_URL, for example
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

// schemaVersion is the version of the tables below; Open refuses a store of any other.
const schemaVersion = 2

// tables is run with search_path set to the store's schema. head holds one row: the
// position counter, which is also the head the store signed at its last commit
// (eventstore.Head).
const tables = `
CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL);
CREATE TABLE IF NOT EXISTS head (
	position  bigint NOT NULL,
	hash      text   NOT NULL DEFAULT '',
	signed_ns bigint NOT NULL DEFAULT 0,
	signature bytea
);
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
	global_hash    text    NOT NULL,
	UNIQUE (stream, version)
);`

type config struct {
	signer   eventstore.Signer
	schema   string
	poll     time.Duration
	maxBatch int
}

// Option configures Open.
type Option func(*config)

// WithSchema puts the store's tables in schema (default "arbiter"), created if needed.
func WithSchema(schema string) Option { return func(c *config) { c.schema = schema } }

// WithSigner signs the store's head at every commit (see eventstore.Head). Every process
// appending to one store must sign with the same key. Without it the heads are stored
// unsigned, and `arbiter verify` rejects them.
func WithSigner(s eventstore.Signer) Option { return func(c *config) { c.signer = s } }

// WithPoll sets how often subscriptions look for appends made by other processes, a
// fallback for when the LISTEN connection is down (default 1s). Appends made through this
// Store or, through NOTIFY, by other processes wake them at once.
func WithPoll(d time.Duration) Option { return func(c *config) { c.poll = d } }

// WithMaxBatch bounds the appends committed in one transaction (default 256).
func WithMaxBatch(n int) Option { return func(c *config) { c.maxBatch = max(n, 1) } }

// Store is an eventstore.Store in a PostgreSQL schema.
type Store struct {
	pool     *pgxpool.Pool
	lockKey  int64 // the advisory lock that serializes appends to this schema
	signer   eventstore.Signer
	poll     time.Duration
	queue    *groupcommit.Queue
	notifier *eventstore.Notifier
	closed   atomic.Bool
	// copyBuf holds the last batch's COPY stream, reused by the next: only commit, which
	// the queue runs one batch at a time, touches it.
	copyBuf []byte

	stopListening context.CancelFunc
	listening     chan struct{} // closed when the listener has stopped
}

var (
	_ eventstore.Store          = (*Store)(nil)
	_ eventstore.CommitObserver = (*Store)(nil)
)

// Open connects to the server at url (a PostgreSQL connection URL or keyword/value
// string) and creates the store's schema and tables if needed.
func Open(ctx context.Context, url string, opts ...Option) (*Store, error) {
	cfg := config{schema: "arbiter", poll: time.Second, maxBatch: 256}
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
	s := &Store{pool: pool, lockKey: int64(h.Sum64()), signer: cfg.signer, poll: cfg.poll, notifier: eventstore.NewNotifier()}
	if err := s.init(ctx, cfg.schema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open schema %q: %w", cfg.schema, err)
	}
	s.queue = groupcommit.New(s.commit, cfg.maxBatch)
	lctx, cancel := context.WithCancel(context.Background())
	s.stopListening, s.listening = cancel, make(chan struct{})
	go s.listen(lctx)
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
		case v != schemaVersion:
			return fmt.Errorf("schema version %d, this build reads %d only", v, schemaVersion)
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
// append lock, in two round trips whatever the size of the batch: BEGIN, the lock and
// every read the batch needs, pipelined; then the COPY of every event, the new head and
// COMMIT in one message (write). The reads happen under the lock, so nothing changes them until COMMIT, and
// the appends are decided in memory from there, one after the other as if each ran
// alone. None can then fail half-way, so there is no savepoint; a failure of the
// transaction fails the whole batch.
func (s *Store) commit(batch []*groupcommit.Request) {
	// One caller giving up must not fail the others' transaction.
	if err := s.commitBatch(context.Background(), batch); err != nil {
		// Every verdict reached inside the rolled-back transaction is void, a version
		// conflict included (an earlier append of the batch may have caused it).
		for _, r := range batch {
			r.Result, r.Err = eventstore.AppendResult{}, fmt.Errorf("postgres: append: %w", err)
		}
		return
	}
	s.notifier.Notify()
}

// commitBatch appends a batch in one transaction. Global positions must follow commit
// order, or a subscriber reading by position could pass position p+1 before the
// transaction holding p commits, and skip p for ever. A plain sequence does not give that:
// numbers are handed out at INSERT, commits land in any order. So every append
// transaction first takes a transaction-level advisory lock (pg_advisory_xact_lock), then
// assigns positions from a one-row counter table: the lock is released only after COMMIT
// is visible, so the next holder both sees every earlier append (each READ COMMITTED
// statement takes a fresh snapshot) and commits after it. Positions are gapless too,
// because the counter rolls back with a failed append. The cost is that appends are
// serialized across all processes; group commit keeps the throughput up.
func (s *Store) commitBatch(ctx context.Context, batch []*groupcommit.Request) (err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	defer func() {
		if err != nil {
			// Ends a transaction left open or failed; if even this fails, the pool
			// closes a connection released inside a transaction.
			_, _ = conn.Exec(ctx, `ROLLBACK`)
		}
	}()
	m, err := s.load(ctx, conn, batch)
	if err != nil {
		return err
	}
	now := time.Now()
	for _, r := range batch {
		r.Result, r.Err = sqlstore.Append(m, r.Stream, r.Expected, r.Events, now)
	}
	if len(m.Rows) == 0 {
		// Nothing to write (every append a retry or refused): end the transaction.
		_, err := conn.Exec(ctx, `COMMIT`)
		return err
	}
	// Signed in the transaction that stores it: a signed head never names an event that
	// did not commit, and every acknowledged event is covered by one.
	h := eventstore.SignHead(s.signer, m.Head, m.HeadHash, time.Now())
	s.copyBuf, err = s.write(ctx, conn, s.copyBuf, m.Rows, h)
	if cap(s.copyBuf) > maxKeptCopyBuf {
		s.copyBuf = nil // a rare batch of large payloads: do not hold its memory
	}
	return err
}

// load begins the transaction, takes the append lock and reads, in one round trip, the
// head position, the stored events that carry any of the batch's IDs and the last event
// of each stream the batch appends to.
func (s *Store) load(ctx context.Context, conn *pgxpool.Conn, batch []*groupcommit.Request) (*sqlstore.Batch, error) {
	n := 0
	for _, r := range batch {
		n += len(r.Events)
	}
	var (
		ids     = make([]string, 0, n)
		streams = make([]string, 0, len(batch))
		seen    = make(map[string]bool, len(batch))
	)
	for _, r := range batch {
		for _, e := range r.Events {
			ids = append(ids, e.ID)
		}
		if !seen[r.Stream] {
			seen[r.Stream] = true
			streams = append(streams, r.Stream)
		}
	}
	var b pgx.Batch
	// Statements of a pipeline run in order: the reads below start after the lock is
	// held, each with a snapshot that includes every earlier holder's commit.
	b.Queue(`BEGIN`)
	b.Queue(`SELECT pg_advisory_xact_lock($1)`, s.lockKey)
	// The statements are prepared once per connection, and a generic plan made while the
	// table was small scans it whole for ever after: 6 ms per batch at 20 000 events.
	// Planning each time costs far less and keeps the index probes.
	b.Queue(`SET LOCAL plan_cache_mode = force_custom_plan`)
	b.Queue(`SELECT position, hash FROM head`)
	b.Queue(`SELECT `+sqlstore.Columns+` FROM events WHERE id = ANY($1)`, ids)
	// One index probe per stream, however long the stream.
	b.Queue(`SELECT s.stream, e.version, e.hash FROM unnest($1::text[]) AS s(stream)
		CROSS JOIN LATERAL (SELECT version, hash FROM events WHERE events.stream = s.stream ORDER BY version DESC LIMIT 1) e`, streams)
	br := conn.SendBatch(ctx, &b)
	defer br.Close()
	if _, err := br.Exec(); err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	if _, err := br.Exec(); err != nil {
		return nil, fmt.Errorf("take the append lock: %w", err)
	}
	if _, err := br.Exec(); err != nil {
		return nil, fmt.Errorf("set the plan cache mode: %w", err)
	}
	var (
		head     int64
		headHash string
	)
	if err := br.QueryRow().Scan(&head, &headHash); err != nil {
		return nil, fmt.Errorf("read head position: %w", err)
	}
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("look up event IDs: %w", err)
	}
	found, err := collect(rows)
	if err != nil {
		return nil, fmt.Errorf("look up event IDs: %w", err)
	}
	m := sqlstore.NewBatch(head, headHash, found, n)
	m.Tails = make(map[string]sqlstore.Tail, len(streams))
	rows, err = br.Query()
	if err != nil {
		return nil, fmt.Errorf("read stream versions: %w", err)
	}
	var (
		stream string
		t      sqlstore.Tail
	)
	if _, err := pgx.ForEachRow(rows, []any{&stream, &t.Version, &t.Hash}, func() error {
		m.Tails[stream] = t
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read stream versions: %w", err)
	}
	return m, br.Close()
}

// maxKeptCopyBuf bounds the COPY buffer kept between batches (a full batch of moves
// takes about 200 KB).
const maxKeptCopyBuf = 4 << 20

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

// ObserveCommits implements eventstore.CommitObserver.
func (s *Store) ObserveCommits(f func(eventstore.Commit)) { s.queue.Observe(f) }
