package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
)

// ReadStream implements eventstore.Store.
func (s *Store) ReadStream(ctx context.Context, stream string, after int64, limit int) ([]eventstore.Event, error) {
	return s.query(ctx, `SELECT `+sqlstore.Columns+` FROM events WHERE stream = $1 AND version > $2 ORDER BY version LIMIT $3`,
		stream, after, sqlLimit(limit))
}

// ReadAll implements eventstore.Store.
func (s *Store) ReadAll(ctx context.Context, after int64, limit int) ([]eventstore.Event, error) {
	return s.query(ctx, `SELECT `+sqlstore.Columns+` FROM events WHERE position > $1 ORDER BY position LIMIT $2`,
		after, sqlLimit(limit))
}

// StreamVersion implements eventstore.Store.
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	return s.queryInt(ctx, `SELECT COALESCE(MAX(version), 0) FROM events WHERE stream = $1`, stream)
}

// HeadPosition implements eventstore.Store.
func (s *Store) HeadPosition(ctx context.Context) (int64, error) {
	return s.queryInt(ctx, `SELECT position FROM head`)
}

// SignedHead implements eventstore.Store.
func (s *Store) SignedHead(ctx context.Context) (eventstore.Head, error) {
	if s.closed.Load() {
		return eventstore.Head{}, eventstore.ErrClosed
	}
	h, err := sqlstore.ScanHead(s.pool.QueryRow(ctx, `SELECT position, hash, signed_ns, signature FROM head`))
	if err != nil {
		return eventstore.Head{}, fmt.Errorf("postgres: read the signed head: %w", err)
	}
	return h, nil
}

// Subscribe implements eventstore.Store. Appends through this Store wake subscriptions at
// once; appends by other processes arrive through NOTIFY (see listen.go), or by polling
// while the listening connection is down.
func (s *Store) Subscribe(ctx context.Context, after int64) (*eventstore.Subscription, error) {
	if s.closed.Load() {
		return nil, eventstore.ErrClosed
	}
	if after < 0 {
		return nil, fmt.Errorf("%w: subscription after position %d", eventstore.ErrInvalid, after)
	}
	return eventstore.Follow(ctx, s, after, s.notifier, s.poll), nil
}

// Close implements eventstore.Store: it lets queued appends commit, ends subscriptions
// and closes the connections.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.queue.Close()
	s.stopListening()
	<-s.listening
	s.notifier.Close()
	s.pool.Close()
	return nil
}

// sqlLimit maps the port's "no limit" to PostgreSQL's (LIMIT NULL).
func sqlLimit(limit int) *int {
	if limit <= 0 {
		return nil
	}
	return &limit
}

func (s *Store) query(ctx context.Context, query string, args ...any) ([]eventstore.Event, error) {
	if s.closed.Load() {
		return nil, eventstore.ErrClosed
	}
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, s.readErr(err)
	}
	out, err := collect(rows)
	if err != nil {
		return nil, s.readErr(err)
	}
	return out, nil
}

func (s *Store) queryInt(ctx context.Context, query string, args ...any) (int64, error) {
	if s.closed.Load() {
		return 0, eventstore.ErrClosed
	}
	var n int64
	if err := s.pool.QueryRow(ctx, query, args...).Scan(&n); err != nil {
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
	return fmt.Errorf("postgres: read: %w", err)
}
