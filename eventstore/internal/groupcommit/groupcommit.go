// Package groupcommit queues appends for one writer goroutine that commits as many of them
// as are waiting in a single transaction. Adapters whose commits cost a disk flush (SQLite,
// PostgreSQL) use it so that many concurrent writers share one flush, while each caller
// still gets its own result, and only after the shared commit returned.
package groupcommit

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
)

// Request is one append waiting in the queue. The commit function sets Result or Err.
type Request struct {
	Ctx      context.Context
	Stream   string
	Expected int64
	Events   []eventstore.Proposed

	Result eventstore.AppendResult
	Err    error

	trace *eventstore.AppendTrace // the caller's, if it asked (eventstore.WithAppendTrace)
	done  chan struct{}           // capacity 1: the writer sends once, when the outcome is set
}

// requests recycles Requests: at tens of thousands of appends a second, a Request and
// its channel per append were most of the queue's allocation, and the collector's work
// lands on whoever allocates, the writer included. A Request goes back to the pool only
// from its caller, after the writer handed it back; one whose caller gave up while the
// writer held it is left to the collector, since the writer may still write to it.
var requests = sync.Pool{New: func() any { return &Request{done: make(chan struct{}, 1)} }}

// release clears r, so that the pool holds no caller's context or events, and pools it.
func (r *Request) release() {
	*r = Request{done: r.done}
	requests.Put(r)
}

// CommitFunc commits a batch of requests in one transaction, giving each request its own
// outcome (one request's version conflict fails only that request). If the transaction as
// a whole fails, every request must get that failure, including those whose own verdict
// was an error: a verdict reached inside a rolled-back transaction may rest on requests of
// the same batch that are not stored after all. It is called from one goroutine at a time.
type CommitFunc func(batch []*Request)

// Queue feeds a single writer goroutine.
type Queue struct {
	commit   CommitFunc
	maxBatch int
	requests chan *Request
	stopped  chan struct{}

	mu     sync.RWMutex
	closed bool

	observer atomic.Pointer[func(eventstore.Commit)]
	idle     atomic.Pointer[func()]
}

// New starts the writer goroutine. maxBatch bounds the requests of one transaction.
func New(commit CommitFunc, maxBatch int) *Queue {
	q := &Queue{
		commit:   commit,
		maxBatch: max(maxBatch, 1),
		requests: make(chan *Request, 4*max(maxBatch, 1)),
		stopped:  make(chan struct{}),
	}
	go q.run()
	return q
}

// Submit queues an append and waits for its outcome. If ctx ends first, Submit returns
// ctx's error and the append may or may not have been committed: retrying it with the
// same event IDs tells which, since appends are idempotent.
func (q *Queue) Submit(ctx context.Context, stream string, expected int64, events []eventstore.Proposed) (eventstore.AppendResult, error) {
	r := requests.Get().(*Request)
	r.Ctx, r.Stream, r.Expected, r.Events = ctx, stream, expected, events
	// Without a trace this costs one look-up in ctx: no clock is read for it.
	if r.trace = eventstore.AppendTraceOf(ctx); r.trace != nil {
		*r.trace = eventstore.AppendTrace{Queued: time.Now()}
	}
	if err := q.enqueue(ctx, r); err != nil {
		r.release() // the writer never saw it
		return eventstore.AppendResult{}, err
	}
	select {
	case <-r.done:
		if r.trace != nil {
			r.trace.Resumed = time.Now()
		}
		res, err := r.Result, r.Err
		r.release()
		return res, err
	case <-ctx.Done():
		return eventstore.AppendResult{}, ctx.Err()
	}
}

func (q *Queue) enqueue(ctx context.Context, r *Request) error {
	// The read lock keeps Close from closing the channel under a sender; the writer keeps
	// draining, so a sender blocked on a full queue does not hold Close forever.
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		return eventstore.ErrClosed
	}
	select {
	case q.requests <- r:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops accepting appends, lets the writer commit those already queued, and
// returns once it stopped. Later Submits return eventstore.ErrClosed.
func (q *Queue) Close() {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.requests)
	}
	q.mu.Unlock()
	<-q.stopped
}

// Observe calls f after each committed batch (see eventstore.CommitObserver); nil stops.
func (q *Queue) Observe(f func(eventstore.Commit)) {
	if f == nil {
		q.observer.Store(nil)
		return
	}
	q.observer.Store(&f)
}

// OnIdle calls f from the writer goroutine after a batch when no request is waiting:
// the time for upkeep that would otherwise delay a batch (nil stops the calls). A
// request that comes meanwhile waits for f to return, as it would for a transaction.
func (q *Queue) OnIdle(f func()) {
	if f == nil {
		q.idle.Store(nil)
		return
	}
	q.idle.Store(&f)
}

func (q *Queue) run() {
	defer close(q.stopped)
	batch := make([]*Request, 0, q.maxBatch)
	live := make([]*Request, 0, q.maxBatch)
	for first := range q.requests {
		batch = append(batch[:0], first)
	drain:
		for len(batch) < q.maxBatch {
			select {
			case r, ok := <-q.requests:
				if !ok {
					break drain
				}
				batch = append(batch, r)
			default:
				break drain
			}
		}
		// A caller that gave up before its turn is not committed behind its back.
		live = live[:0]
		for _, r := range batch {
			if err := r.Ctx.Err(); err != nil {
				r.Err = err
				continue
			}
			live = append(live, r)
		}
		if len(live) > 0 {
			began := time.Now()
			q.commit(live)
			committed := time.Now()
			if f := q.observer.Load(); f != nil {
				c := eventstore.Commit{Appends: len(live), Took: committed.Sub(began)}
				for _, r := range live {
					c.Events += len(r.Events)
				}
				(*f)(c)
			}
			// Stamped before done is closed: the caller reads the stamps after that.
			for _, r := range live {
				if r.trace != nil {
					r.trace.Began, r.trace.Committed = began, committed
				}
			}
		}
		// After its send the writer does not touch a request again: its caller may
		// already be reusing it.
		for _, r := range batch {
			r.done <- struct{}{}
		}
		clear(batch) // hold no request, nor a given-up caller's events, until the next batch
		clear(live)
		if f := q.idle.Load(); f != nil && len(q.requests) == 0 {
			(*f)()
		}
	}
}
