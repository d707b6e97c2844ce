package engine

import (
	"container/heap"
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// Timers submits a Timeout command when a match's deadline passes (a chess clock, a turn
// timer). The read side tells it the deadline of each match as events arrive; the command
// ID names the deadline (see timeoutID), so the timers of several nodes firing at once time
// a turn out only once, and a deadline that moved in the meantime is refused by the rules.
type Timers struct {
	e    *Engine
	log  *slog.Logger
	wake chan struct{}

	mu        sync.Mutex
	deadlines map[string]tracked // match -> its current deadline: the truth
	queue     alarms             // by time; entries whose deadline moved are skipped
}

// tracked is a match's current deadline, and whether an alarm for it is queued. A due
// alarm leaves the queue when it fires; if the timeout it submits leaves the deadline
// where it was (a game with several timed things due at one instant, e.g. two boards'
// reaction windows, times out one per command), the read side tracks the same deadline
// again, and it must be armed again rather than taken for the one already queued.
type tracked struct {
	deadline time.Time
	armed    bool
}

// retryAfter is how long a timeout that failed (the store was down) waits to be tried again.
const retryAfter = time.Second

// alarm asks for a timeout of match's deadline at a time (the deadline, or a retry).
type alarm struct {
	match    string
	deadline time.Time
	at       time.Time
}

// alarms is a min-heap of alarms by time.
type alarms []alarm

func (a alarms) Len() int           { return len(a) }
func (a alarms) Less(i, j int) bool { return a[i].at.Before(a[j].at) }
func (a alarms) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a *alarms) Push(x any)        { *a = append(*a, x.(alarm)) }
func (a *alarms) Pop() any {
	old := *a
	x := old[len(old)-1]
	*a = old[:len(old)-1]
	return x
}

// NewTimers returns the scheduler of e's matches.
func (e *Engine) NewTimers() *Timers {
	return &Timers{e: e, log: e.cfg.Logger.With("component", "timers"), deadlines: map[string]tracked{}, wake: make(chan struct{}, 1)}
}

// Track sets a match's next deadline; the zero time removes it. It is called for every
// event the read side applies, so it costs O(log n) only when the deadline moved or its
// alarm has fired, and wakes the scheduler only when the new alarm rings before the ones
// it waits for.
func (t *Timers) Track(matchID string, deadline time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	old, ok := t.deadlines[matchID]
	if ok && old.armed && old.deadline.Equal(deadline) {
		if !deadline.After(t.e.cfg.Now()) {
			t.poke() // due already: the scheduler may be asleep on a later alarm's time
		}
		return
	}
	if !ok && deadline.IsZero() {
		return
	}
	if deadline.IsZero() {
		delete(t.deadlines, matchID) // its alarm is skipped when it comes up
		return
	}
	t.deadlines[matchID] = tracked{deadline: deadline, armed: true}
	t.schedule(alarm{match: matchID, deadline: deadline, at: deadline})
}

// schedule queues an alarm; the caller holds t.mu.
func (t *Timers) schedule(a alarm) {
	earliest := t.queue.Len() == 0 || a.at.Before(t.queue[0].at)
	heap.Push(&t.queue, a)
	if t.queue.Len() > 2*len(t.deadlines)+64 { // mostly moved deadlines: drop them
		live := t.queue[:0]
		for _, q := range t.queue {
			if t.current(q) {
				live = append(live, q)
			}
		}
		t.queue = live
		heap.Init(&t.queue)
	}
	if earliest {
		t.poke()
	}
}

// poke wakes the scheduler to look at its queue again.
func (t *Timers) poke() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// current reports whether an alarm is for its match's deadline still; the caller holds t.mu.
func (t *Timers) current(a alarm) bool {
	d, ok := t.deadlines[a.match]
	return ok && d.deadline.Equal(a.deadline)
}

// next pops the alarms that are due, and returns them and when the next one rings.
func (t *Timers) next(now time.Time) (due []alarm, ring time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for t.queue.Len() > 0 {
		a := t.queue[0]
		if !t.current(a) {
			heap.Pop(&t.queue)
			continue
		}
		if a.at.After(now) {
			return due, a.at
		}
		heap.Pop(&t.queue)
		t.deadlines[a.match] = tracked{deadline: a.deadline} // fired: no alarm queued for it now
		due = append(due, a)
	}
	return due, time.Time{}
}

// Run fires deadlines until ctx ends.
func (t *Timers) Run(ctx context.Context) error {
	for {
		due, ring := t.next(t.e.cfg.Now())
		for _, a := range due {
			t.fire(ctx, a)
		}
		if len(due) > 0 {
			continue
		}
		var timer *time.Timer
		var alarm <-chan time.Time
		if !ring.IsZero() {
			timer = time.NewTimer(ring.Sub(t.e.cfg.Now()))
			alarm = timer.C
		}
		select {
		case <-ctx.Done():
		case <-t.wake:
		case <-alarm:
		}
		if timer != nil {
			timer.Stop()
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// fire submits the timeout of a deadline. Only a failure of the store keeps the alarm:
// it rings again after retryAfter, so a timeout is never lost to an outage. Otherwise
// the timers go on from the match's deadline as the engine now has it (follow), so that
// a match never waits on the read side to track a deadline the timeout left due.
func (t *Timers) fire(ctx context.Context, a alarm) {
	snap, err := t.e.Match(ctx, a.match)
	if err == nil {
		_, err = t.e.Handle(ctx, a.match, match.Timeout{Deadline: a.deadline},
			Meta{CommandID: timeoutID(snap, a.deadline), Actor: "system"})
	}
	switch {
	case err == nil:
		t.log.Info("turn timed out", "match", a.match, "deadline", a.deadline)
		t.follow(ctx, a)
	case game.CodeOf(err) != "":
		// Refused: the player moved in time, or another node timed the turn out first.
		t.log.Debug("timeout refused", "match", a.match, "deadline", a.deadline, "err", err)
		t.follow(ctx, a)
	case ctx.Err() != nil:
	default:
		t.log.Warn("timing a turn out failed; trying again", "match", a.match, "in", retryAfter, "err", err)
		t.rearm(a, alarm{match: a.match, deadline: a.deadline, at: t.e.cfg.Now().Add(retryAfter)})
	}
}

// follow arms the engine's own deadline for a's match once a's timeout is decided,
// unless the read side has tracked the match since a fired (then it knows better). The
// read side tracks each event's deadline, but the engine's state is the authority: a
// timeout that leaves a deadline due, or a read side that has not applied the events
// that moved it, must not leave a match waiting for ever.
func (t *Timers) follow(ctx context.Context, a alarm) {
	snap, err := t.e.Match(ctx, a.match)
	if err != nil {
		return // the read side's next event tracks it; a store down fails the next fire too
	}
	d := snap.State.Deadline(snap.Rules)
	t.rearm(a, alarm{match: a.match, deadline: d, at: d})
}

// rearm queues next for a's match if nothing was tracked for it since a fired; a next
// with no deadline (the match is over, or untimed now) forgets the match instead.
func (t *Timers) rearm(a, next alarm) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cur, ok := t.deadlines[a.match]
	if !ok || !cur.deadline.Equal(a.deadline) || cur.armed {
		return
	}
	if next.deadline.IsZero() {
		delete(t.deadlines, a.match)
		return
	}
	t.deadlines[a.match] = tracked{deadline: next.deadline, armed: true}
	t.schedule(next)
}
