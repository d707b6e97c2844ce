package esdb

import (
	"context"
	"fmt"
	"sync"
	"time"

	kdb "github.com/EventStore/EventStore-Client-Go/v4/esdb"

	"github.com/arbiter-games/arbiter/eventstore"
)

// streamPage is how many events ReadStream reads at a time when it has no limit.
const streamPage = 4096

// ReadStream implements eventstore.Store: the events of the stream's own ESDB stream,
// whose revision is the version minus one.
func (s *Store) ReadStream(ctx context.Context, stream string, after int64, limit int) ([]eventstore.Event, error) {
	if s.closed.Load() {
		return nil, eventstore.ErrClosed
	}
	if after < 0 {
		after = 0
	}
	var out []eventstore.Event
	for {
		count := uint64(streamPage)
		if limit > 0 {
			count = uint64(min(limit-len(out), streamPage))
		}
		recs, err := s.read(ctx, s.n.data(stream), kdb.ReadStreamOptions{From: revisionFrom(after)}, count)
		if err != nil {
			return nil, s.closedErr(err)
		}
		for _, rec := range recs {
			e, _, err := decode(s.n, rec)
			if err != nil {
				return nil, err
			}
			out = append(out, e)
			after = e.Version
		}
		if uint64(len(recs)) < count || (limit > 0 && len(out) >= limit) {
			return out, nil
		}
	}
}

// StreamVersion implements eventstore.Store: the version of the stream's last event.
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	if s.closed.Load() {
		return 0, eventstore.ErrClosed
	}
	recs, err := s.read(ctx, s.n.data(stream), kdb.ReadStreamOptions{Direction: kdb.Backwards, From: kdb.End{}}, 1)
	if err != nil || len(recs) == 0 {
		return 0, s.closedErrOrNil(err)
	}
	e, _, err := decode(s.n, recs[0])
	if err != nil {
		return 0, err
	}
	return e.Version, nil
}

func (s *Store) closedErrOrNil(err error) error {
	if err == nil {
		return nil
	}
	return s.closedErr(err)
}

// settle catches the state up with the log, finishing its last append, and returns the
// state's head and signed head: what every process sees once it read the log.
func (s *Store) settle(ctx context.Context) (int64, eventstore.Head, error) {
	if s.closed.Load() {
		return 0, eventstore.Head{}, eventstore.ErrClosed
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.catchUp(ctx); err != nil {
		return 0, eventstore.Head{}, s.closedErr(err)
	}
	return s.st.head, s.st.signed, nil
}

// HeadPosition implements eventstore.Store.
func (s *Store) HeadPosition(ctx context.Context) (int64, error) {
	head, _, err := s.settle(ctx)
	return head, err
}

// SignedHead implements eventstore.Store: the head mark of the last log append.
func (s *Store) SignedHead(ctx context.Context) (eventstore.Head, error) {
	_, signed, err := s.settle(ctx)
	return signed, err
}

// ReadAll implements eventstore.Store: $all through the server-side filter on the
// store's prefix, from where the log says position after+1 begins, up to the head. The
// client (v4.2.0) filters on the server in subscriptions only, so a page is read as a
// catch-up subscription that stops at its last position.
func (s *Store) ReadAll(ctx context.Context, after int64, limit int) ([]eventstore.Event, error) {
	head, _, err := s.settle(ctx)
	if err != nil {
		return nil, err
	}
	after = max(after, 0)
	last := head
	if limit > 0 {
		last = min(head, after+int64(limit))
	}
	if last <= after {
		return nil, nil
	}
	out := make([]eventstore.Event, 0, last-after)
	err = s.scanAll(ctx, after, func(e eventstore.Event) bool {
		out = append(out, e)
		return e.Position < last
	})
	if err != nil {
		return nil, s.closedErr(err)
	}
	return out, nil
}

// start is where a reading of $all for the events after position after begins: at the
// log event of position after+1, since that event's append reached the log after every
// event before it was in its stream and before any of its own was; past the head, at
// the last log event; in an empty store, at the start of $all.
//
// Past the head takes two reads, and appends may land between them: if the last log
// event then holds position after+1 or later, starting after it would skip the events
// before it, and a subscriber would wait for position after+1 forever (seen once in
// the conformance suite on a loaded machine). The first read is then made again.
func (s *Store) start(ctx context.Context) func(after int64) (kdb.AllPosition, error) {
	return func(after int64) (kdb.AllPosition, error) {
		for {
			recs, err := s.read(ctx, s.n.log(), kdb.ReadStreamOptions{From: revisionFrom(after)}, 1)
			if err != nil || len(recs) > 0 {
				return firstPosition(recs), err
			}
			if recs, err = s.read(ctx, s.n.log(), kdb.ReadStreamOptions{Direction: kdb.Backwards, From: kdb.End{}}, 1); err != nil {
				return nil, err
			}
			if len(recs) == 0 {
				return kdb.Start{}, nil
			}
			if recs[0].EventNumber < uint64(after) { // the log holds position p at revision p-1
				return recs[0].Position, nil
			}
		}
	}
}

// firstPosition is the position in $all of the first of recs, nil for none.
func firstPosition(recs []*kdb.RecordedEvent) kdb.AllPosition {
	if len(recs) == 0 {
		return nil
	}
	return recs[0].Position
}

// scanAll subscribes to $all, filtered on the store's prefix, and hands every event
// after position after to deliver, in position order, until deliver returns false
// (scanAll returns nil), ctx ends or the subscription drops.
func (s *Store) scanAll(ctx context.Context, after int64, deliver func(eventstore.Event) bool) error {
	from, err := s.start(ctx)(after)
	if err != nil {
		return err
	}
	sub, err := s.client.subscribeAll(ctx, from, s.n.filter())
	if err != nil {
		return err
	}
	defer sub.close()
	order := newReorder(after)
	for {
		rec, err := sub.next()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		e, _, err := decode(s.n, rec)
		if err != nil {
			return err
		}
		for _, ready := range order.add(e) {
			if !deliver(ready) {
				return nil
			}
		}
	}
}

// subscribeRetries is how many times in a row a subscription is opened again after a
// transient failure (a leader change, a node restarting) before it reports it.
const subscribeRetries = 5

// Subscribe implements eventstore.Store: a catch-up subscription to $all, filtered on
// the store's prefix on the server, from where the log says position after+1 begins.
// ESDB itself goes from the stored events to the live ones, so there is no seam to mind;
// a transient failure opens it again after the last position delivered.
func (s *Store) Subscribe(ctx context.Context, after int64) (*eventstore.Subscription, error) {
	if s.closed.Load() {
		return nil, eventstore.ErrClosed
	}
	if after < 0 {
		return nil, fmt.Errorf("%w: subscription after position %d", eventstore.ErrInvalid, after)
	}
	ctx, cancel := context.WithCancel(ctx)
	stopWithStore := context.AfterFunc(s.done, cancel)
	events := make(chan eventstore.Event, 64)
	var (
		mu     sync.Mutex
		result error
	)
	go func() {
		defer close(events)
		defer cancel()
		defer stopWithStore()
		err := s.follow(ctx, after, events)
		switch {
		case s.closed.Load():
			err = eventstore.ErrClosed
		case ctx.Err() != nil:
			err = nil // ended by its owner
		}
		mu.Lock()
		result = err
		mu.Unlock()
	}()
	return eventstore.NewSubscription(events, func() error {
		mu.Lock()
		defer mu.Unlock()
		return result
	}), nil
}

func (s *Store) follow(ctx context.Context, after int64, out chan<- eventstore.Event) error {
	failures, pause := 0, 100*time.Millisecond
	for {
		progressed := false
		err := s.scanAll(ctx, after, func(e eventstore.Event) bool {
			select {
			case out <- e:
				after, progressed = e.Position, true
				return true
			case <-ctx.Done():
				return false
			}
		})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if progressed {
			failures, pause = 0, 100*time.Millisecond
		}
		if failures++; !transient(err) || failures > subscribeRetries {
			return fmt.Errorf("esdb: subscription to $all after position %d: %w", after, err)
		}
		select {
		case <-time.After(pause):
			pause = min(2*pause, 5*time.Second)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
