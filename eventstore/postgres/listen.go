package postgres

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
)

// Appends by other processes on the same schema wake this process's subscriptions
// through PostgreSQL's LISTEN/NOTIFY: every commit of events sends a NOTIFY on the
// schema's channel inside its transaction (delivered at COMMIT), and one connection per
// Store listens. The poll stays as a fallback while the listening connection is down.

// channel is the schema's notification channel: an identifier derived from the append
// lock's key, so that it is valid whatever the schema's name.
func (s *Store) channel() string { return fmt.Sprintf("arbiter_events_%x", uint64(s.lockKey)) }

// listen keeps a connection listening until ctx ends, and wakes the subscriptions on
// each notification. A lost connection is opened again after a pause.
func (s *Store) listen(ctx context.Context) {
	defer close(s.listening)
	for pause := 100 * time.Millisecond; ctx.Err() == nil; pause = min(2*pause, 5*time.Second) {
		err := s.listenOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		slog.Warn("postgres: listening for other processes' appends failed; polling until it is back", "err", err, "retry in", pause)
		s.notifier.Notify() // appends may have been missed: look now
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return
		}
	}
}

func (s *Store) listenOnce(ctx context.Context) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `LISTEN `+pgx.Identifier{s.channel()}.Sanitize()); err != nil {
		return err
	}
	defer func() {
		// The connection goes back to the pool: stop listening there (best effort; the
		// pool drops a connection whose context ended mid-query anyway).
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, _ = conn.Exec(c, `UNLISTEN *`)
	}()
	s.notifier.Notify() // appends made before LISTEN took effect
	for {
		if _, err := conn.Conn().WaitForNotification(ctx); err != nil {
			return err
		}
		s.notifier.Notify()
	}
}
