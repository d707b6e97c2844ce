package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/arbiter-games/arbiter/eventstore"
)

// Source is the part of an eventstore.Store that a Relay follows.
type Source interface {
	Subscribe(ctx context.Context, after int64) (*eventstore.Subscription, error)
}

// RelayConfig configures a Relay. Source and Publisher are required.
type RelayConfig struct {
	Source    Source
	Publisher message.Publisher
	// Topic defaults to DefaultTopic.
	Topic string
	// After is the position after which the relay publishes. The wiring starts it from the
	// store's head at boot: followers read whatever came before from the store themselves,
	// so the relay never needs to remember what it published.
	After int64
	// MinBackoff and MaxBackoff bound the delay between publish retries and resubscriptions
	// (defaults DefaultMinBackoff, DefaultMaxBackoff).
	MinBackoff, MaxBackoff time.Duration
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// Relay publishes every committed event of the store's global stream, in order, on one
// topic. A publish that fails is retried with backoff until it succeeds or the relay
// stops: the relay never skips an event. It may publish an event twice (a retried publish
// that had in fact gone through, a relay restarted from an earlier position); followers
// drop the duplicates.
type Relay struct {
	cfg     RelayConfig
	log     *slog.Logger
	pos     atomic.Int64
	failing atomic.Pointer[error] // the error of the publish being retried, if any
}

// NewRelay checks cfg and returns a Relay that publishes the events after cfg.After once
// Run is called.
func NewRelay(cfg RelayConfig) (*Relay, error) {
	if cfg.Source == nil || cfg.Publisher == nil {
		return nil, errors.New("bus: a relay needs a Source and a Publisher")
	}
	if cfg.After < 0 {
		return nil, fmt.Errorf("bus: relay start position %d is negative", cfg.After)
	}
	if cfg.Topic == "" {
		cfg.Topic = DefaultTopic
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	r := &Relay{cfg: cfg, log: cfg.Logger.With("component", "bus.relay", "topic", cfg.Topic)}
	r.pos.Store(cfg.After)
	return r, nil
}

// Err returns why the event the relay is trying to publish has not gone through yet, or
// nil while publishing works: a server is not ready while its relay cannot publish.
func (r *Relay) Err() error {
	if err := r.failing.Load(); err != nil {
		return *err
	}
	return nil
}

// Position returns the position of the last event published.
func (r *Relay) Position() int64 { return r.pos.Load() }

// Run publishes events until ctx ends (it then returns nil) or the store is closed (it
// returns an error wrapping eventstore.ErrClosed). Any other failure of the store's
// subscription is logged and the relay resubscribes after the last published position.
// Run must not be called twice at the same time.
func (r *Relay) Run(ctx context.Context) error {
	retry := newBackoff(r.cfg.MinBackoff, r.cfg.MaxBackoff)
	for {
		err := r.follow(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, eventstore.ErrClosed) {
			return fmt.Errorf("bus: relay stopped at position %d: %w", r.Position(), err)
		}
		r.log.Warn("store subscription ended, resubscribing", "position", r.Position(), "err", err)
		if retry.wait(ctx) != nil {
			return nil
		}
	}
}

// follow publishes from one store subscription until it ends, and says why.
func (r *Relay) follow(ctx context.Context) error {
	// The subscription gets its own context so that returning early (ctx ended during a
	// publish) also stops the store's follower goroutine.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sub, err := r.cfg.Source.Subscribe(ctx, r.Position())
	if err != nil {
		return fmt.Errorf("subscribing after position %d: %w", r.Position(), err)
	}
	for e := range sub.Events() {
		if e.Position <= r.Position() {
			continue
		}
		if err := r.publish(ctx, e); err != nil {
			return err
		}
		r.pos.Store(e.Position)
	}
	if err := sub.Err(); err != nil {
		return err
	}
	return errors.New("subscription closed")
}

// publish retries until the event is published or ctx ends.
func (r *Relay) publish(ctx context.Context, e eventstore.Event) error {
	retry := newBackoff(r.cfg.MinBackoff, r.cfg.MaxBackoff)
	for attempt := 1; ; attempt++ {
		// A fresh message per attempt: a publisher may alter the message it was given.
		m, err := Encode(e)
		if err == nil {
			m.SetContext(ctx)
			err = r.cfg.Publisher.Publish(r.cfg.Topic, m)
		}
		if err == nil {
			r.failing.Store(nil)
			return nil
		}
		failed := fmt.Errorf("publishing event %d on %s (attempt %d): %w", e.Position, r.cfg.Topic, attempt, err)
		r.failing.Store(&failed)
		r.log.Warn("publishing event failed, retrying",
			"position", e.Position, "stream", e.Stream, "type", e.Type, "attempt", attempt, "err", err.Error()) // Error(): slog would print a wrapped error's stack (%+v)
		if err := retry.wait(ctx); err != nil {
			return err
		}
	}
}
