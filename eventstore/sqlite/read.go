package sqlite

import (
	"context"
	"errors"
	"fmt"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
)

// ReadStream implements eventstore.Store.
func (s *Store) ReadStream(ctx context.Context, stream string, after int64, limit int) ([]eventstore.Event, error) {
	return s.query(ctx, `SELECT `+sqlstore.Columns+` FROM events WHERE stream = ? AND version > ? ORDER BY version LIMIT ?`,
		stream, after, sqlLimit(limit))
}

// ReadAll implements eventstore.Store.
func (s *Store) ReadAll(ctx context.Context, after int64, limit int) ([]eventstore.Event, error) {
	return s.query(ctx, `SELECT `+sqlstore.Columns+` FROM events WHERE position > ? ORDER BY position LIMIT ?`,
		after, sqlLimit(limit))
}

// StreamVersion implements eventstore.Store.
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	return s.queryInt(ctx, `SELECT COALESCE(MAX(version), 0) FROM events WHERE stream = ?`, stream)
}

// HeadPosition implements eventstore.Store.
func (s *Store) HeadPosition(ctx context.Context) (int64, error) {
	return s.queryInt(ctx, `SELECT COALESCE(MAX(position), 0) FROM events`)
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
	rerr := errors.Join(s.read.Close(), s.w.close())
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

func (s *Store) query(ctx context.Context, query string, args ...any) ([]eventstore.Event, error) {
	if s.closed.Load() {
		return nil, eventstore.ErrClosed
	}
	rows, err := s.read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, s.readErr(err)
	}
	defer rows.Close()
	var out []eventstore.Event
	for rows.Next() {
		e, err := sqlstore.Scan(rows)
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

func (s *Store) queryInt(ctx context.Context, query string, args ...any) (int64, error) {
	if s.closed.Load() {
		return 0, eventstore.ErrClosed
	}
	var n int64
	if err := s.read.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
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
	return fmt.Errorf("sqlite: read: %w", err)
}
