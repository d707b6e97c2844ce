package eventstore

import (
	"context"
	"sync"
	"time"
)

// Notifier broadcasts "the head moved" from the side of an adapter that commits appends
// to the subscriptions that follow the store. It never blocks the committer: a waiter
// that is slow to look simply finds the channel already closed.
//
// Use it as: w := n.Wait(); read the store; if nothing new, wait on w. An append that
// commits after Wait returned closes w, so no wake-up is lost between the read and the
// wait.
type Notifier struct {
	mu     sync.Mutex
	ch     chan struct{}
	taken  bool // ch was handed out by Wait since it was made
	closed bool
}

// NewNotifier returns a Notifier with no waiter.
func NewNotifier() *Notifier { return &Notifier{ch: make(chan struct{})} }

// Wait returns a channel that is closed by the next Notify or by Close.
func (n *Notifier) Wait() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.taken = true
	return n.ch
}

// Notify wakes every current waiter. Adapters call it after a commit returned.
func (n *Notifier) Notify() {
	n.mu.Lock()
	defer n.mu.Unlock()
	// Adapters notify from their single writer after every commit: with no one holding
	// the channel there is no one to wake, and it need not be replaced.
	if n.closed || !n.taken {
		return
	}
	n.taken = false
	close(n.ch)
	n.ch = make(chan struct{})
}

// Close wakes every waiter for good: from now on Wait returns a closed channel. Adapters
// call it when the store closes, so that followers read once more, get ErrClosed and stop.
func (n *Notifier) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.closed {
		n.closed = true
		close(n.ch)
	}
}

// AllReader is the part of a Store that Follow reads from.
type AllReader interface {
	ReadAll(ctx context.Context, after int64, limit int) ([]Event, error)
}

// FollowPageSize is how many events Follow reads from the store at a time.
const FollowPageSize = 512

// followBuffer lets a follower run a little ahead of its reader without holding a page
// of events hostage.
const followBuffer = 64

// Follow implements Store.Subscribe on top of ReadAll and a Notifier. It reads pages of
// events after after until the store has nothing more, then waits for a wake-up from n (or
// for poll, when poll > 0, for adapters where another process may append without this
// process's Notifier knowing), and reads again.
//
// Everything comes from ReadAll, so there is no seam between catch-up and live: there is
// no gap and no duplicate as long as the adapter assigns global positions in commit order
// (a reader that sees position p committed sees every position below p). A slow reader
// only delays its own follower goroutine, which reads from the store at its reader's pace;
// appends never wait for it.
//
// The subscription ends when ctx ends (Err is nil) or when ReadAll fails (Err is that
// error, ErrClosed after the store closed).
func Follow(ctx context.Context, r AllReader, after int64, n *Notifier, poll time.Duration) *Subscription {
	events := make(chan Event, followBuffer)
	var (
		mu     sync.Mutex
		result error
	)
	go func() {
		defer close(events)
		err := follow(ctx, r, after, n, poll, events)
		if ctx.Err() != nil {
			err = nil // ended by its owner, whatever the last read said
		}
		mu.Lock()
		result = err
		mu.Unlock()
	}()
	return NewSubscription(events, func() error {
		mu.Lock()
		defer mu.Unlock()
		return result
	})
}

func follow(ctx context.Context, r AllReader, after int64, n *Notifier, poll time.Duration, out chan<- Event) error {
	var tick <-chan time.Time
	if poll > 0 {
		t := time.NewTicker(poll)
		defer t.Stop()
		tick = t.C
	}
	for {
		wake := n.Wait() // before the read, so a commit during the read is not missed
		page, err := r.ReadAll(ctx, after, FollowPageSize)
		if err != nil {
			return err
		}
		for _, e := range page {
			if e.Position <= after {
				continue // never deliver twice, whatever the adapter returns
			}
			select {
			case out <- e:
				after = e.Position
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if len(page) == FollowPageSize {
			continue // more may be stored already
		}
		select {
		case <-wake:
		case <-tick:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
