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
	"math"
	"sync"
	"sync/atomic"

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

// Rebuild feeds every event of the store to the projections, from the lowest of their
// checkpoints (zero for empty ones; a projection restored from a snapshot is past it and
// ignores the events it has), and calls progress (if not nil) after each page with the
// position reached and the head.
//
// Reading and applying overlap, and so do the projections: a reader goroutine reads the
// pages, and each projection folds them, in order, on a goroutine of its own, up to
// rebuildAhead pages behind the reader. The projections are independent (none reads
// another while it applies), so each ends where feeding it every event in order would
// leave it, and the pass keeps both cores busy where one projection at a time left a core
// waiting.
//
// When a projection fails, the others still apply the pages that begin at or before the
// lowest position that failed so far, and nothing after: Rebuild then returns the failure
// of the lowest position, whichever goroutine met its failure first, as feeding the events
// in order would have met it first.
func Rebuild(ctx context.Context, store eventstore.Store, progress func(pos, head int64), ps ...Projection) error {
	head, err := store.HeadPosition(ctx)
	if err != nil {
		return fmt.Errorf("projections: reading the head: %w", err)
	}
	var (
		wg       sync.WaitGroup
		feeds    = make([]chan []eventstore.Event, len(ps))
		fails    = make([]*rebuildError, len(ps)+1) // by projection; the last is the reader's
		failedAt atomic.Int64                       // the lowest position that failed so far
		done     = make(chan int64, len(ps))        // a projection is past the page ending here
		pages    = make(chan int64, rebuildAhead)   // the last position of each page read, in order
	)
	failedAt.Store(math.MaxInt64)
	from := int64(math.MaxInt64)
	for _, pr := range ps {
		from = min(from, pr.Checkpoint())
	}
	failed := func(i int, at int64, err error) {
		fails[i] = &rebuildError{at, err}
		for cur := failedAt.Load(); at < cur && !failedAt.CompareAndSwap(cur, at); cur = failedAt.Load() {
		}
	}
	for i, pr := range ps {
		feeds[i] = make(chan []eventstore.Event, rebuildAhead)
		wg.Go(func() {
			for evs := range feeds[i] {
				// Once anything failed, a page past it is not applied: its events would
				// not have been fed in order, and the page only has to be let through.
				if fails[i] == nil && evs[0].Position <= failedAt.Load() && ctx.Err() == nil {
					if at, err := applyPage(pr, evs); err != nil {
						failed(i, at, fmt.Errorf("projections: %s at position %d: %w", pr.Name(), at, err))
					}
				}
				done <- evs[len(evs)-1].Position
			}
		})
	}
	wg.Go(func() {
		defer func() {
			for _, f := range feeds {
				close(f)
			}
			close(pages)
		}()
		for pos := from; pos < head && pos < failedAt.Load() && ctx.Err() == nil; {
			evs, err := store.ReadAll(ctx, pos, rebuildPage)
			if err != nil {
				failed(len(ps), pos+1, fmt.Errorf("projections: reading after %d: %w", pos, err))
				return
			}
			if len(evs) == 0 {
				return
			}
			pos = evs[len(evs)-1].Position
			pages <- pos
			for _, f := range feeds {
				f <- evs
			}
		}
	})
	// A page is applied once every projection is past it; each takes the pages in order,
	// so they complete in order too.
	count := map[int64]int{}
	for p := range pages {
		for count[p] < len(ps) {
			count[<-done]++
		}
		delete(count, p)
		if progress != nil && failedAt.Load() == math.MaxInt64 && ctx.Err() == nil {
			progress(p, head)
		}
	}
	wg.Wait()
	var first *rebuildError
	for _, f := range fails {
		if f != nil && (first == nil || f.at < first.at) {
			first = f
		}
	}
	if first != nil {
		return first.err
	}
	return ctx.Err()
}

// rebuildError is a failure of Rebuild, at the position of the event that failed.
type rebuildError struct {
	at  int64
	err error
}

// applyPage folds a page of events into p: at once where p can (pageApplier), else
// one event at a time. On an error it returns the position of the event that failed.
func applyPage(p Projection, evs []eventstore.Event) (int64, error) {
	if pa, ok := p.(pageApplier); ok {
		return pa.applyPage(evs)
	}
	for _, ev := range evs {
		if err := p.Apply(ev); err != nil {
			return ev.Position, err
		}
	}
	return 0, nil
}

const (
	// rebuildPage is how many events Rebuild reads at a time.
	rebuildPage = 4096
	// rebuildAhead is how many pages the reader may be ahead of the slowest projection:
	// enough to keep both cores busy through the pages that fold slowly (many matches
	// starting or ending at once), few enough to keep the memory of a boot small.
	rebuildAhead = 3
)
