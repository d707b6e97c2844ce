// Package singlewriter runs a read model that must be written by one node of a cluster
// at a time: its output is in PostgreSQL, shared by every node and by whatever reads the
// database, and each event must count in it exactly once. Every node runs a Writer; the
// one that holds the model's lease writes, the others poll for it.
//
// The lease is the model's row in the checkpoints table: the holder's name, its session
// (pg_backend_pid), an epoch, and when the lease expires, by the database's clock (now()):
// the nodes' clocks are never compared. The holder renews it every Renew; a node takes it
// over, bumping the epoch, once it has expired or once the holder's session has ended.
// Every transaction of the holder first moves the row where it is still the holder's
// epoch (the fence), then writes the output, then commits; the row lock orders it against
// a takeover. So a holder that hung with its connection open (a stopped process, a
// goroutine stuck, a long pause) and wakes up after losing the lease writes nothing: its
// fence finds another epoch, it steps down and competes again. The model's checkpoint,
// the position of the last event it counted, is in the same row, written in the same
// transaction as the output, so the next holder goes on exactly where the last commit
// left off.
//
// When the holder dies, PostgreSQL ends its session (at once when the process dies and
// its socket closes; within the TCP keepalive set below when its host vanishes) and a
// polling node takes over at its next poll; when it hangs, a node takes over once the
// lease expires. The new holder rebuilds the model in memory from the store up to the
// checkpoint, then writes what follows. docs/operations.md says which read models run
// this way and why.
package singlewriter

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/arbiter-games/arbiter/eventstore"
)

// Model is a read model written to PostgreSQL by one node at a time.
type Model interface {
	// Name identifies the model: its checkpoint and lease row, the logs.
	Name() string
	// Tables is the DDL of the model's tables, safe to run again (IF NOT EXISTS). It
	// runs with search_path set to the writer's schema.
	Tables() string
	// Apply folds one event into the model in memory, in position order.
	Apply(ev eventstore.Event) error
	// Flush writes in tx what changed in memory since the last Flush. epoch is the lease
	// epoch of the writer: a model may store it in its rows, so that the table shows
	// which tenure wrote each row. With a nil tx it only forgets the changes: they are
	// in the tables already (a holder catching up to the checkpoint).
	Flush(ctx context.Context, tx pgx.Tx, epoch int64) error
}

// The lease's defaults. A holder that hangs stops the model's output for at most
// DefaultLease (plus the new holder's catch-up); a holder renews five times per lease, so
// it loses the lease only when it misses four renewals in a row: a pause of about 8 s,
// which a GC pause or a slow commit does not reach. A takeover is harmless when it does
// happen (the fence refuses the old holder's writes), but costs the new holder a rebuild
// of the model from the store. Waiting nodes poll at the renewal period, so when the
// holder's process dies the next one takes over within about DefaultRenew.
const (
	DefaultLease = 10 * time.Second
	DefaultRenew = 2 * time.Second
)

// ErrLeaseLost is why a holder steps down: its fence found that another node took the
// lease (a newer epoch), so it wrote nothing more.
var ErrLeaseLost = errors.New("singlewriter: the lease was taken over by another node")

// Config configures a Writer.
type Config struct {
	// URL is the PostgreSQL database of the output (a connection URL); Schema holds the
	// tables, created if needed (default "arbiter_read").
	URL, Schema string
	// Store is the event store the model is fed from.
	Store eventstore.Store
	// New returns a fresh model; a node calls it each time it takes the lease.
	New func() Model
	// Node names this node in the lease row while it holds the lease (the host name and
	// the process ID would do; the caller chooses). Each node needs a name of its own.
	Node string
	// Lease is how long the lease lasts after each renewal, by the database's clock
	// (default DefaultLease); Renew is how often the holder renews it and how often the
	// others poll for it (default DefaultRenew). Renew must be under half of Lease.
	Lease, Renew time.Duration
	// Retry is the pause after a failure before competing again (default 1s).
	Retry time.Duration
	// Logger, if not nil, logs when this node takes the lease and why it lost it.
	Logger *slog.Logger
	// Committed, if not nil, is called after each commit that moved the checkpoint, with
	// the lease's epoch and the checkpoint written.
	Committed func(epoch, position int64)

	// beforeCommit, if not nil, is called before each commit that moves the checkpoint
	// (export_test.go: a test makes the holder's goroutine hang there).
	beforeCommit func(position int64)
}

// Writer competes for one model's lease and writes the model while it holds it.
type Writer struct {
	cfg  Config
	name string
	key  int64 // the advisory lock that orders the nodes' CREATE statements
}

// New returns a Writer for cfg; Run starts it.
func New(cfg Config) (*Writer, error) {
	if cfg.URL == "" || cfg.Store == nil || cfg.New == nil || cfg.Node == "" {
		return nil, errors.New("singlewriter: the URL, the store, the model and the node's name are required")
	}
	if cfg.Schema == "" {
		cfg.Schema = "arbiter_read"
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Renew <= 0 {
		cfg.Renew = min(DefaultRenew, cfg.Lease/5)
	}
	if 2*cfg.Renew >= cfg.Lease {
		return nil, fmt.Errorf("singlewriter: a renewal every %v of a lease of %v leaves no room for one missed renewal: renew at most every %v", cfg.Renew, cfg.Lease, cfg.Lease/2)
	}
	if cfg.Retry <= 0 {
		cfg.Retry = time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	name := cfg.New().Name()
	h := fnv.New64a()
	h.Write([]byte("arbiter.singlewriter." + cfg.Schema + "." + name))
	return &Writer{cfg: cfg, name: name, key: int64(h.Sum64())}, nil
}

// Run takes the lease when it is free and writes the model until ctx ends; after a
// failure (the lease lost, the connection lost, the store unreachable) it steps down,
// pauses and competes again. It returns nil when ctx ends.
func (w *Writer) Run(ctx context.Context) error {
	for {
		err := w.hold(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, ErrLeaseLost) {
			w.cfg.Logger.Warn("single writer: lost the lease; stepping down", "model", w.name, "node", w.cfg.Node, "err", err)
		} else {
			w.cfg.Logger.Warn("single writer: gave up; competing again", "model", w.name, "node", w.cfg.Node, "err", err, "retry in", w.cfg.Retry)
		}
		select {
		case <-time.After(w.cfg.Retry):
		case <-ctx.Done():
			return nil
		}
	}
}

// checkpoints is the table of every model's checkpoint and lease. The ALTERs bring a
// table made before the lease up to date.
const checkpoints = `CREATE TABLE IF NOT EXISTS checkpoints (
	model    text        PRIMARY KEY,
	position bigint      NOT NULL,
	holder   text        NOT NULL,
	since    timestamptz,
	updated  timestamptz
);
ALTER TABLE checkpoints ADD COLUMN IF NOT EXISTS epoch bigint NOT NULL DEFAULT 0,
	ADD COLUMN IF NOT EXISTS pid integer,
	ADD COLUMN IF NOT EXISTS expires timestamptz;`

// tenure is one holding of the lease.
type tenure struct {
	epoch    int64
	position int64     // the checkpoint as this tenure last wrote it
	renewed  time.Time // this node's monotonic clock, only to pace the renewals
}

// hold runs one tenure: connect, set up, wait for the lease, catch up, write. It returns
// why it ended; the connection is closed on return.
func (w *Writer) hold(ctx context.Context) error {
	conn, err := w.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	model := w.cfg.New()
	if err := w.setup(ctx, conn, model); err != nil {
		return fmt.Errorf("creating the tables: %w", err)
	}
	t, err := w.acquire(ctx, conn)
	if err != nil {
		return err
	}
	w.cfg.Logger.Info("single writer: holding the lease", "model", w.name, "node", w.cfg.Node, "epoch", t.epoch, "checkpoint", t.position)
	if err := w.catchUp(ctx, conn, model, t); err != nil {
		return err
	}
	sub, err := w.cfg.Store.Subscribe(ctx, t.position)
	if err != nil {
		return fmt.Errorf("subscribing to the store: %w", err)
	}
	renew := time.NewTicker(w.cfg.Renew)
	defer renew.Stop()
	for {
		last, err := w.applyBatch(ctx, sub, model, renew.C)
		if err != nil {
			return err
		}
		if err := w.commit(ctx, conn, model, t, last); err != nil {
			return err
		}
	}
}

// acquire polls the lease row every Renew until this node takes it: when it is free,
// expired by the database's clock, or its holder's session has ended. It bumps the epoch.
func (w *Writer) acquire(ctx context.Context, conn *pgx.Conn) (*tenure, error) {
	w.cfg.Logger.Info("single writer: competing for the lease", "model", w.name, "node", w.cfg.Node)
	poll := time.NewTicker(w.cfg.Renew)
	defer poll.Stop()
	for {
		t := &tenure{renewed: time.Now()}
		err := conn.QueryRow(ctx, `UPDATE checkpoints c SET epoch = epoch + 1, holder = $2, pid = pg_backend_pid(), since = now(),
				expires = now() + $3 * interval '1 millisecond'
			WHERE model = $1 AND (expires IS NULL OR expires < now() OR pid IS NULL
				OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = c.pid))
			RETURNING epoch, position`, w.name, w.cfg.Node, w.cfg.Lease.Milliseconds()).Scan(&t.epoch, &t.position)
		var pgErr *pgconn.PgError
		switch {
		case err == nil:
			return t, nil
		case errors.Is(err, pgx.ErrNoRows):
			// Held, and not expired.
		case errors.As(err, &pgErr) && pgErr.Code == "55P03":
			// lock_timeout: a holder hung inside a transaction; PostgreSQL ends its
			// session after idle_in_transaction_session_timeout.
		default:
			return nil, fmt.Errorf("polling for the lease: %w", err)
		}
		select {
		case <-poll.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// fence moves the lease row, in tx, where it is still this tenure's: the checkpoint to
// position and the expiry one lease from now. It takes the row's lock, so a takeover
// waits for tx to end, and a tx that finds another epoch writes nothing.
func (w *Writer) fence(ctx context.Context, tx pgx.Tx, t *tenure, position int64) error {
	tag, err := tx.Exec(ctx, `UPDATE checkpoints SET position = $4, updated = now(), expires = now() + $5 * interval '1 millisecond'
		WHERE model = $1 AND epoch = $2 AND holder = $3 AND pid = pg_backend_pid() AND position <= $4`,
		w.name, t.epoch, w.cfg.Node, position, w.cfg.Lease.Milliseconds())
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("%w: %s is no longer at epoch %d held by %s", ErrLeaseLost, w.name, t.epoch, w.cfg.Node)
	}
	return nil
}

// renew extends the lease, in a transaction of its own.
func (w *Writer) renew(ctx context.Context, conn *pgx.Conn, t *tenure) error {
	started := time.Now()
	if err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error { return w.fence(ctx, tx, t, t.position) }); err != nil {
		return fmt.Errorf("renewing the lease: %w", err)
	}
	t.renewed = started
	return nil
}

// keepalive makes PostgreSQL notice a holder whose host vanished (no FIN, no RST) within
// about 20 s, and end its session, which frees the lock.
var keepalive = map[string]string{"tcp_keepalives_idle": "10", "tcp_keepalives_interval": "5", "tcp_keepalives_count": "2"}

func (w *Writer) connect(ctx context.Context) (*pgx.Conn, error) {
	pcfg, err := pgx.ParseConfig(w.cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("singlewriter: the URL does not parse: %w", err)
	}
	pcfg.RuntimeParams["search_path"] = w.cfg.Schema
	pcfg.RuntimeParams["application_name"] = "arbiter " + w.name + " writer " + w.cfg.Node
	for k, v := range keepalive {
		pcfg.RuntimeParams[k] = v
	}
	// A holder that hangs inside a transaction holds the lease row's lock: PostgreSQL
	// ends its session after a lease, which frees the row for a takeover; and a node
	// polling for the lease waits for such a lock at most one poll.
	pcfg.RuntimeParams["idle_in_transaction_session_timeout"] = strconv.FormatInt(w.cfg.Lease.Milliseconds(), 10)
	pcfg.RuntimeParams["lock_timeout"] = strconv.FormatInt(w.cfg.Renew.Milliseconds(), 10)
	conn, err := pgx.ConnectConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("connecting: %w", err)
	}
	return conn, nil
}

// setup creates the schema and the tables, under a transaction lock of their own so
// that nodes starting together do not race on CREATE.
func (w *Writer) setup(ctx context.Context, conn *pgx.Conn, model Model) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, w.key); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{w.cfg.Schema}.Sanitize()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, checkpoints); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, model.Tables()); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO checkpoints (model, position, holder) VALUES ($1, 0, '') ON CONFLICT DO NOTHING`, w.name)
		return err
	})
}

// catchUp folds the events up to the checkpoint into a fresh model: they are counted
// in the tables already. It renews the lease as it goes: a long catch-up is progress.
func (w *Writer) catchUp(ctx context.Context, conn *pgx.Conn, model Model, t *tenure) error {
	to := t.position
	for after := int64(0); after < to; {
		if time.Since(t.renewed) >= w.cfg.Renew {
			if err := w.renew(ctx, conn, t); err != nil {
				return err
			}
		}
		page, err := w.cfg.Store.ReadAll(ctx, after, min(eventstore.FollowPageSize, int(to-after)))
		if err != nil {
			return fmt.Errorf("reading the store up to the checkpoint %d: %w", to, err)
		}
		if len(page) == 0 {
			return fmt.Errorf("the store ends at position %d, before the checkpoint %d: is this the store the model was written from?", after, to)
		}
		for _, ev := range page {
			if err := model.Apply(ev); err != nil {
				return fmt.Errorf("applying position %d: %w", ev.Position, err)
			}
			after = ev.Position
		}
	}
	return model.Flush(ctx, nil, t.epoch)
}

// maxBatch bounds the events counted in one transaction.
const maxBatch = 512

// applyBatch waits for the next event or the next renewal, takes the events already
// waiting, applies them all, and returns the position of the last (0 for none).
func (w *Writer) applyBatch(ctx context.Context, sub *eventstore.Subscription, model Model, renew <-chan time.Time) (int64, error) {
	var last int64
	for n := 0; n < maxBatch; n++ {
		var (
			ev eventstore.Event
			ok bool
		)
		if n == 0 {
			select {
			case ev, ok = <-sub.Events():
			case <-renew:
				continue // the events already waiting, if any, then a commit that renews
			case <-ctx.Done():
				return 0, ctx.Err()
			}
		} else {
			select {
			case ev, ok = <-sub.Events():
			default:
				return last, nil
			}
		}
		if !ok {
			return 0, fmt.Errorf("the store's subscription ended: %w", sub.Err())
		}
		if err := model.Apply(ev); err != nil {
			return 0, fmt.Errorf("applying position %d: %w", ev.Position, err)
		}
		last = ev.Position
	}
	return last, nil
}

// commit writes the model's changes up to position last in one transaction, behind the
// fence: nothing is written unless this tenure still holds the lease. Each commit renews
// the lease; last is 0 when there is nothing new, and the commit only renews.
func (w *Writer) commit(ctx context.Context, conn *pgx.Conn, model Model, t *tenure, last int64) error {
	if last == 0 {
		return w.renew(ctx, conn, t)
	}
	if w.cfg.beforeCommit != nil {
		w.cfg.beforeCommit(last)
	}
	started := time.Now()
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if err := w.fence(ctx, tx, t, last); err != nil {
			return err
		}
		return model.Flush(ctx, tx, t.epoch)
	})
	if err != nil {
		return fmt.Errorf("committing up to position %d: %w", last, err)
	}
	t.position, t.renewed = last, started
	if w.cfg.Committed != nil {
		w.cfg.Committed(t.epoch, last)
	}
	return nil
}
