package engine

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// Timers submits a Timeout command when a match's deadline passes (a chess clock, a turn
// timer). The read side tells it the deadline of each match as events arrive; the command
// ID names the deadline, so the timers of several nodes firing at once time a turn out
// only once, and a deadline that moved in the meantime is refused by the rules.
type Timers struct {
	e         *Engine
	log       *slog.Logger
	mu        sync.Mutex
	deadlines map[string]time.Time
	wake      chan struct{}
}

// NewTimers returns the scheduler of e's matches.
func (e *Engine) NewTimers() *Timers {
	return &Timers{e: e, log: e.cfg.Logger.With("component", "timers"), deadlines: map[string]time.Time{}, wake: make(chan struct{}, 1)}
}

// Track sets a match's next deadline; the zero time removes it.
func (t *Timers) Track(matchID string, deadline time.Time) {
	t.mu.Lock()
	if deadline.IsZero() {
		delete(t.deadlines, matchID)
	} else {
		t.deadlines[matchID] = deadline
	}
	t.mu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// Pending returns the number of deadlines being watched.
func (t *Timers) Pending() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.deadlines)
}

// next returns the earliest deadline.
func (t *Timers) next() (string, time.Time, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var id string
	var at time.Time
	for m, d := range t.deadlines {
		if id == "" || d.Before(at) {
			id, at = m, d
		}
	}
	return id, at, id != ""
}

// Run fires deadlines until ctx ends.
func (t *Timers) Run(ctx context.Context) error {
	for {
		id, at, ok := t.next()
		var timer *time.Timer
		var ring <-chan time.Time
		if ok {
			wait := at.Sub(t.e.cfg.Now())
			if wait <= 0 {
				t.fire(ctx, id, at)
				continue
			}
			timer = time.NewTimer(wait)
			ring = timer.C
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.wake:
		case <-ring:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

func (t *Timers) fire(ctx context.Context, id string, deadline time.Time) {
	t.mu.Lock()
	if d, ok := t.deadlines[id]; ok && d.Equal(deadline) {
		delete(t.deadlines, id) // the read side tracks the next deadline, if any
	}
	t.mu.Unlock()
	_, err := t.e.Handle(ctx, id, match.Timeout{Deadline: deadline},
		Meta{CommandID: fmt.Sprintf("timeout-%d", deadline.UnixNano()), Actor: "system"})
	switch {
	case err == nil:
		t.log.Info("turn timed out", "match", id, "deadline", deadline)
	case game.CodeOf(err) == game.Conflict:
		// The player moved in time, or another node timed the turn out first.
	default:
		t.log.Warn("timing a turn out failed; the next event of the match retries", "match", id, "err", err)
	}
}
