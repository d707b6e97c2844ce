// Package projections holds Arbiter's read models (every match's live state and the lobby,
// the players' ratings, the cards played, the choices remembered), and is the one place
// that redacts events and state for a viewer (redact.go). Each model is fed committed
// events in global order, remembers the position it has applied (its checkpoint), ignores
// an event at or below it (so a redelivery is harmless), and can be rebuilt from position
// zero with exactly the result it had live.
package projections

import (
	"context"
	"fmt"
	"sync"

	"github.com/arbiter-games/arbiter/eventstore"
)

// Projection is a read model fed by events in global order.
type Projection interface {
	// Name identifies the projection in logs and in `arbiter rebuild`.
	Name() string
	// Apply folds one event. It is called in position order; an event at or below
	// Checkpoint must be ignored.
	Apply(ev eventstore.Event) error
	// Checkpoint is the position of the last event applied.
	Checkpoint() int64
	// Digest summarises the model so that a rebuild can be compared with the live one.
	Digest() string
}

// checkpoint is the position a projection has applied. Embedded with the projection's own
// lock, it makes Apply idempotent: an event at or below it is ignored.
type checkpoint struct {
	mu  sync.RWMutex
	pos int64
}

// Checkpoint implements Projection.
func (c *checkpoint) Checkpoint() int64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.pos
}

// admit takes the write lock and reports whether ev is new, moving the checkpoint past it.
// The caller unlocks c.mu.
func (c *checkpoint) admit(ev eventstore.Event) bool {
	c.mu.Lock()
	if ev.Position <= c.pos {
		return false
	}
	c.pos = ev.Position
	return true
}

// Rebuild feeds every event of the store to the projections, from position zero, and
// calls progress (if not nil) after each page with the position reached and the head.
//
// The next page is read from the store while the current one is applied: reading (an
// SQLite query, decoding rows) and applying (decoding payloads, folding) each take about
// half of a rebuild, and overlapping them is what lets a boot use a second core.
func Rebuild(ctx context.Context, store eventstore.Store, progress func(pos, head int64), ps ...Projection) error {
	head, err := store.HeadPosition(ctx)
	if err != nil {
		return fmt.Errorf("projections: reading the head: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type page struct {
		evs   []eventstore.Event
		after int64
		err   error
	}
	pages := make(chan page, 1)
	go func() {
		defer close(pages)
		var pos int64
		for pos < head {
			evs, err := store.ReadAll(ctx, pos, rebuildPage)
			select {
			case pages <- page{evs, pos, err}:
			case <-ctx.Done():
				return
			}
			if err != nil || len(evs) == 0 {
				return
			}
			pos = evs[len(evs)-1].Position
		}
	}()
	for p := range pages {
		if p.err != nil {
			return fmt.Errorf("projections: reading after %d: %w", p.after, p.err)
		}
		// Each projection takes the whole page in turn: they are independent, so this
		// gives what feeding each event to every projection would.
		for _, pr := range ps {
			if pa, ok := pr.(pageApplier); ok {
				if at, err := pa.applyPage(p.evs); err != nil {
					return fmt.Errorf("projections: %s at position %d: %w", pr.Name(), at, err)
				}
				continue
			}
			for _, ev := range p.evs {
				if err := pr.Apply(ev); err != nil {
					return fmt.Errorf("projections: %s at position %d: %w", pr.Name(), ev.Position, err)
				}
			}
		}
		if progress != nil && len(p.evs) > 0 {
			progress(p.evs[len(p.evs)-1].Position, head)
		}
	}
	return ctx.Err()
}

// rebuildPage is how many events Rebuild reads at a time.
const rebuildPage = 4096
