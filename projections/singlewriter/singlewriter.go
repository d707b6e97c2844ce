// Package singlewriter runs a read model that must be written by one node of a cluster
// at a time: its output is in PostgreSQL, shared by every node and by whatever reads the
// database, and each event must count in it exactly once. Every node runs a Writer; the
// one that holds the model's advisory lock writes, the others wait on the lock. The lock
// is a session lock on the connection that also writes the output, so a writer that lost
// it (its connection ended) can commit nothing more; and the model's checkpoint, the
// position of the last event it counted, is updated in the same transaction as the
// output, so the next holder goes on exactly where the last commit left off.
//
// When the holder dies, PostgreSQL ends its session (at once when the process dies and
// its socket closes; within the TCP keepalive set below when its host vanishes), the
// lock is free, and a waiting node takes it: it rebuilds the model in memory from the
// store up to the checkpoint, then writes what follows. docs/operations.md says which
// read models run this way and why.
package singlewriter

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/eventstore"
)

// Model is a read model written to PostgreSQL by one node at a time.
type Model interface {
	// Name identifies the model: its lock, its checkpoint row, the logs.
	Name() string
	// Tables is the DDL of the model's tables, safe to run again (IF NOT EXISTS). It
	// runs with search_path set to the writer's schema.
	Tables() string
	// Apply folds one event into the model in memory, in position order.
	Apply(ev eventstore.Event) error
	// Flush writes in tx what changed in memory since the last Flush. With a nil tx it
	// only forgets the changes: they are in the tables already (a holder catching up to
	// the checkpoint).
	Flush(ctx context.Context, tx pgx.Tx) error
}

// Config configures a Writer.
type Config struct {
	// URL is the PostgreSQL database of the output (a connection URL); Schema holds the
	// tables, created if needed (default "arbiter_read").
	URL, Schema string
	// Store is the event store the model is fed from.
	Store eventstore.Store
	// New returns a fresh model; a node calls it each time it takes the lock.
	New func() Model
	// Node names this node in the checkpoint row while it holds the lock (default: the
	// host name and the process ID would do; the caller chooses).
	Node string
	// Retry is the pause after a failure before trying to take the lock again (default 1s).
	Retry time.Duration
	// Logger, if not nil, logs when this node takes the lock and why it lost it.
	Logger *slog.Logger
	// Committed, if not nil, is called after each commit with the checkpoint written.
	Committed func(position int64)
}

// Writer competes for one model's lock and writes the model while it holds it.
type Writer struct {
	cfg  Config
	name string
	key  int64 // the model's advisory lock
}

// New returns a Writer for cfg; Run starts it.
func New(cfg Config) (*Writer, error) {
	if cfg.URL == "" || cfg.Store == nil || cfg.New == nil || cfg.Node == "" {
		return nil, errors.New("singlewriter: the URL, the store, the model and the node's name are required")
	}
	if cfg.Schema == "" {
		cfg.Schema = "arbiter_read"
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

// Run takes the lock when it is free and writes the model until ctx ends; after a
// failure (the connection lost, the store unreachable) it lets the lock go, pauses and
// competes again. It returns nil when ctx ends.
func (w *Writer) Run(ctx context.Context) error {
	for {
		err := w.hold(ctx)
		if ctx.Err() != nil {
			return nil
		}
		w.cfg.Logger.Warn("single writer: gave up the lock; competing again", "model", w.name, "err", err, "retry in", w.cfg.Retry)
		select {
		case <-time.After(w.cfg.Retry):
		case <-ctx.Done():
			return nil
		}
	}
}

// checkpoints is the table of every model's checkpoint and holder.
const checkpoints = `CREATE TABLE IF NOT EXISTS checkpoints (
	model    text        PRIMARY KEY,
	position bigint      NOT NULL,
	holder   text        NOT NULL,
	since    timestamptz,
	updated  timestamptz
);`

// hold runs one tenure: connect, set up, wait for the lock, catch up, write. It returns
// why it ended; the connection, and with it the lock, is closed on return.
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
	// Blocks until the holder's session ends.
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, w.key); err != nil {
		return fmt.Errorf("waiting for the lock: %w", err)
	}
	var from int64
	if err := conn.QueryRow(ctx, `UPDATE checkpoints SET holder = $2, since = now() WHERE model = $1 RETURNING position`,
		w.name, w.cfg.Node).Scan(&from); err != nil {
		return fmt.Errorf("reading the checkpoint: %w", err)
	}
	w.cfg.Logger.Info("single writer: holding the lock", "model", w.name, "node", w.cfg.Node, "checkpoint", from)
	if err := w.catchUp(ctx, model, from); err != nil {
		return err
	}
	sub, err := w.cfg.Store.Subscribe(ctx, from)
	if err != nil {
		return fmt.Errorf("subscribing to the store: %w", err)
	}
	for {
		last, err := w.applyBatch(ctx, sub, model)
		if err != nil {
			return err
		}
		if err := w.commit(ctx, conn, model, last); err != nil {
			return err
		}
	}
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
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, w.key+1); err != nil {
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
// in the tables already.
func (w *Writer) catchUp(ctx context.Context, model Model, to int64) error {
	for after := int64(0); after < to; {
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
	return model.Flush(ctx, nil)
}

// maxBatch bounds the events counted in one transaction.
const maxBatch = 512

// applyBatch waits for the next event, takes those already waiting behind it, applies
// them all, and returns the position of the last.
func (w *Writer) applyBatch(ctx context.Context, sub *eventstore.Subscription, model Model) (int64, error) {
	var last int64
	for n := 0; n < maxBatch; n++ {
		var (
			ev eventstore.Event
			ok bool
		)
		if n == 0 {
			select {
			case ev, ok = <-sub.Events():
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

// commit writes the model's changes and the checkpoint in one transaction, on the
// connection that holds the lock.
func (w *Writer) commit(ctx context.Context, conn *pgx.Conn, model Model, last int64) error {
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if err := model.Flush(ctx, tx); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE checkpoints SET position = $2, updated = now() WHERE model = $1 AND holder = $3 AND position < $2`,
			w.name, last, w.cfg.Node)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("the checkpoint of %s is not this node's to move to %d", w.name, last)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("committing up to position %d: %w", last, err)
	}
	if w.cfg.Committed != nil {
		w.cfg.Committed(last)
	}
	return nil
}
