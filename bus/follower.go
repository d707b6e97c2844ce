package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/arbiter-games/arbiter/eventstore"
)

// Handler receives committed events. An error makes the Follower retry the same event
// with backoff: events are never skipped, so a handler that fails forever stalls its
// follower (and logs why).
type Handler func(ctx context.Context, e eventstore.Event) error

// Reader is the part of an eventstore.Store that a Follower heals gaps from.
type Reader interface {
	ReadAll(ctx context.Context, after int64, limit int) ([]eventstore.Event, error)
	HeadPosition(ctx context.Context) (int64, error)
}

// Defaults of FollowerConfig.
const (
	DefaultIdleCheck = 200 * time.Millisecond
	DefaultGapWait   = 20 * time.Millisecond
)

// maxPending bounds the messages a follower holds while waiting for a gap to fill; beyond
// it the follower reads the store at once rather than buffer an unbounded burst.
const maxPending = 4096

// ErrStopped is returned by WaitFor once the follower's Run has returned.
var ErrStopped = errors.New("bus: follower stopped")

// FollowerConfig configures a Follower. Store, Subscriber and Handler are required.
type FollowerConfig struct {
	Store      Reader
	Subscriber message.Subscriber
	Handler    Handler
	// Topic defaults to DefaultTopic.
	Topic string
	// After is the checkpoint: the position of the last event the handler has already
	// seen. The follower delivers every event after it.
	After int64
	// IdleCheck is how long the follower waits without delivering anything before it asks
	// the store for its head, so that a lost last message (one that nothing follows) is
	// healed too. Default DefaultIdleCheck.
	IdleCheck time.Duration
	// GapWait is how long a gap may stay open before the follower reads the missing range
	// from the store. Short: GoChannel delivers messages on goroutines of their own, so a
	// message may simply be overtaken by the next one. Default DefaultGapWait.
	GapWait time.Duration
	// PageSize is how many events one store read returns at most
	// (default eventstore.FollowPageSize).
	PageSize int
	// MinBackoff and MaxBackoff bound the delay between handler and store retries
	// (defaults DefaultMinBackoff, DefaultMaxBackoff).
	MinBackoff, MaxBackoff time.Duration
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// Follower delivers the events of the store's global stream to one handler strictly in
// position order, exactly once each, after a checkpoint. The bus only brings events
// sooner: the follower first reads what it missed from the store, then follows the bus,
// drops duplicates, and reads from the store whatever the bus lost or delays (a gap in
// positions, or a head that the follower has not reached after IdleCheck).
//
// A Follower runs once: create a new one (from the last delivered position) to restart.
type Follower struct {
	cfg     FollowerConfig
	log     *slog.Logger
	started atomic.Bool

	// Only Run's goroutine writes pos; mu guards it for readers and pairs it with changed,
	// which is closed (and replaced) each time pos moves, and for good when Run returns.
	mu      sync.Mutex
	pos     int64
	changed chan struct{}
	stopped bool
}

// NewFollower checks cfg and returns a Follower that delivers the events after cfg.After
// once Run is called.
func NewFollower(cfg FollowerConfig) (*Follower, error) {
	if cfg.Store == nil || cfg.Subscriber == nil || cfg.Handler == nil {
		return nil, errors.New("bus: a follower needs a Store, a Subscriber and a Handler")
	}
	if cfg.After < 0 {
		return nil, fmt.Errorf("bus: follower checkpoint %d is negative", cfg.After)
	}
	if cfg.Topic == "" {
		cfg.Topic = DefaultTopic
	}
	if cfg.IdleCheck <= 0 {
		cfg.IdleCheck = DefaultIdleCheck
	}
	if cfg.GapWait <= 0 {
		cfg.GapWait = DefaultGapWait
	}
	if cfg.PageSize <= 0 {
		cfg.PageSize = eventstore.FollowPageSize
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Follower{
		cfg:     cfg,
		log:     cfg.Logger.With("component", "bus.follower", "topic", cfg.Topic),
		pos:     cfg.After,
		changed: make(chan struct{}),
	}, nil
}

// Position returns the position of the last event delivered to the handler (the
// checkpoint until the first delivery).
func (f *Follower) Position() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pos
}

// WaitFor returns once the event at position pos has been delivered to the handler, for
// read-your-writes: append, then WaitFor(ctx, result.LastPosition). It returns ctx's
// error if ctx ends first, and ErrStopped if the follower stops first.
func (f *Follower) WaitFor(ctx context.Context, pos int64) error {
	for {
		f.mu.Lock()
		at, changed, stopped := f.pos, f.changed, f.stopped
		f.mu.Unlock()
		switch {
		case at >= pos:
			return nil
		case stopped:
			return fmt.Errorf("bus: waiting for position %d, delivered %d: %w", pos, at, ErrStopped)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("bus: waiting for position %d, delivered %d: %w", pos, at, ctx.Err())
		}
	}
}

func (f *Follower) advance(pos int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pos = pos
	close(f.changed)
	f.changed = make(chan struct{})
}

func (f *Follower) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = true
	close(f.changed)
	f.changed = make(chan struct{})
}

// Run subscribes to the bus, catches up from the store, then follows the bus until ctx
// ends; it returns nil then. It returns an error only when called twice or when the
// store is closed. Bus failures are logged and healed from the store while the follower
// resubscribes.
func (f *Follower) Run(ctx context.Context) error {
	if !f.started.CompareAndSwap(false, true) {
		return errors.New("bus: follower already ran")
	}
	defer f.stop()
	err := f.run(ctx)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

func (f *Follower) run(ctx context.Context) error {
	// Subscribe before catching up, so that what is published during the catch-up is
	// buffered on the bus rather than lost (it would be healed anyway, only later).
	subCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	msgs := f.subscribe(subCtx)
	if err := f.heal(ctx, math.MaxInt64); err != nil {
		return err
	}

	var (
		pending      = make(map[int64]eventstore.Event) // received ahead of a gap
		highest      int64                              // of pending
		gapSince     time.Time                          // when pending became non-empty
		lastProgress = time.Now()                       // last delivery or head check
		timer        = time.NewTimer(f.cfg.IdleCheck)
	)
	defer timer.Stop()
	for {
		// Deliver what the bus brought in order, and forget what is now behind.
		before := f.Position()
		for {
			e, ok := pending[f.Position()+1]
			if !ok {
				break
			}
			delete(pending, e.Position)
			if err := f.deliver(ctx, e); err != nil {
				return err
			}
		}
		if f.Position() != before {
			lastProgress = time.Now()
			for p := range pending {
				if p <= f.Position() {
					delete(pending, p)
				}
			}
		}

		var deadline time.Time
		if len(pending) > 0 {
			if gapSince.IsZero() {
				gapSince = time.Now()
			}
			deadline = gapSince.Add(f.cfg.GapWait)
		} else {
			gapSince, highest = time.Time{}, 0
			deadline = lastProgress.Add(f.cfg.IdleCheck)
		}
		timer.Reset(time.Until(deadline))

		select {
		case <-ctx.Done():
			return nil

		case m, ok := <-msgs:
			if !ok {
				f.log.Warn("bus subscription closed, following the store until it is back", "position", f.Position())
				msgs = nil
				continue
			}
			// Ack at once: the store, not the bus, is what makes delivery reliable, and
			// GoChannel (like most brokers) holds further messages until this one is acked.
			m.Ack()
			e, err := Decode(m)
			if err != nil {
				f.log.Warn("dropping undecodable message", "uuid", m.UUID, "err", err)
				continue
			}
			if e.Position <= f.Position() {
				continue // a duplicate, or an event already read from the store
			}
			pending[e.Position] = e
			highest = max(highest, e.Position)
			if len(pending) >= maxPending {
				if err := f.heal(ctx, highest); err != nil {
					return err
				}
				gapSince = time.Now()
			}

		case <-timer.C:
			if msgs == nil {
				msgs = f.subscribe(subCtx)
			}
			target := highest
			if len(pending) == 0 {
				// Idle: the last message may have been lost, with nothing after it to
				// reveal the gap. Only the store knows.
				head, err := f.head(ctx)
				if err != nil {
					return err
				}
				target = head
			}
			if target > f.Position() {
				if err := f.heal(ctx, target); err != nil {
					return err
				}
			}
			// Whatever is still open waits a full interval again, rather than spin on a
			// store that has not caught up with the bus.
			lastProgress, gapSince = time.Now(), time.Now()
		}
	}
}

// subscribe returns the bus's message channel, or nil (a channel that never delivers)
// when subscribing failed: the follower then lives on the store until the next attempt.
func (f *Follower) subscribe(ctx context.Context) <-chan *message.Message {
	msgs, err := f.cfg.Subscriber.Subscribe(ctx, f.cfg.Topic)
	if err != nil {
		f.log.Warn("subscribing to the bus failed, will retry", "err", err)
		return nil
	}
	return msgs
}

// heal reads the store after the last delivered position and delivers what it finds,
// page by page, until it has delivered up to target or the store has nothing more. Store
// errors are retried with backoff; only ctx ending or the store closing stops it.
func (f *Follower) heal(ctx context.Context, target int64) error {
	retry := newBackoff(f.cfg.MinBackoff, f.cfg.MaxBackoff)
	from := f.Position()
	defer func() {
		if to := f.Position(); to > from {
			f.log.Debug("read from the store", "after", from, "through", to)
		}
	}()
	for f.Position() < target {
		page, err := f.cfg.Store.ReadAll(ctx, f.Position(), f.cfg.PageSize)
		if err != nil {
			if err := f.storeFailed(ctx, retry, "reading the store", err); err != nil {
				return err
			}
			continue
		}
		retry.reset()
		for _, e := range page {
			if e.Position <= f.Position() {
				continue
			}
			if err := f.deliver(ctx, e); err != nil {
				return err
			}
		}
		if len(page) < f.cfg.PageSize {
			return nil // caught up with the store; a target beyond it is the bus's error
		}
	}
	return nil
}

// head returns the store's head position, retrying failures like heal.
func (f *Follower) head(ctx context.Context) (int64, error) {
	retry := newBackoff(f.cfg.MinBackoff, f.cfg.MaxBackoff)
	for {
		head, err := f.cfg.Store.HeadPosition(ctx)
		if err == nil {
			return head, nil
		}
		if err := f.storeFailed(ctx, retry, "reading the store's head", err); err != nil {
			return 0, err
		}
	}
}

// storeFailed logs a store error and waits before the next attempt. It returns an error
// when the follower must stop instead: ctx ended, or the store is closed for good.
func (f *Follower) storeFailed(ctx context.Context, retry *backoff, what string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, eventstore.ErrClosed) {
		return fmt.Errorf("bus: follower stopped at position %d: %w", f.Position(), err)
	}
	f.log.Warn(what+" failed, retrying", "position", f.Position(), "err", err)
	return retry.wait(ctx)
}

// deliver hands e to the handler until it accepts it, and only then moves the position.
func (f *Follower) deliver(ctx context.Context, e eventstore.Event) error {
	retry := newBackoff(f.cfg.MinBackoff, f.cfg.MaxBackoff)
	for attempt := 1; ; attempt++ {
		err := f.cfg.Handler(ctx, e)
		if err == nil {
			f.advance(e.Position)
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		f.log.Warn("handler failed, retrying the same event",
			"position", e.Position, "stream", e.Stream, "type", e.Type, "attempt", attempt, "err", err)
		if err := retry.wait(ctx); err != nil {
			return err
		}
	}
}
