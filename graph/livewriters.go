package graph

import (
	"runtime"
	"sync"
	"time"
)

// liveStall is how long a write may take before its writer counts as stuck on a slow
// client and another takes its place: writing to a socket with room takes microseconds.
const liveStall = 20 * time.Millisecond

// liveWriters writes the live groups' messages to their members' sockets with a few
// goroutines, about one per core, taking the members with something to write in turn.
// One goroutine per member would do the same work, but ten thousand of them made
// runnable at each move queue ahead of every other goroutine of the server, the players'
// commands among them. A writer stuck on a client that does not read (its socket's buffer
// full) is replaced after liveStall, and serves that member alone until it is done.
type liveWriters struct {
	size int // the writers that take members from the queue, stuck ones aside

	mu      sync.Mutex
	wake    *sync.Cond
	queue   []*liveMember // members with something to write, each at most once
	counted int           // writers running, stuck ones aside
}

func newLiveWriters() *liveWriters {
	w := &liveWriters{size: max(2, runtime.GOMAXPROCS(0))}
	w.wake = sync.NewCond(&w.mu)
	return w
}

// push queues members that have something to write (their writing flag set by the
// caller), all at once: a move wakes every member of a group.
func (w *liveWriters) push(ms []*liveMember) {
	if len(ms) == 0 {
		return
	}
	w.mu.Lock()
	w.queue = append(w.queue, ms...)
	for w.counted < w.size {
		w.counted++
		go w.run()
	}
	w.wake.Broadcast()
	w.mu.Unlock()
}

// run takes members from the queue and writes what they have.
func (w *liveWriters) run() {
	for {
		w.mu.Lock()
		for len(w.queue) == 0 {
			w.wake.Wait()
		}
		m := w.queue[0]
		w.queue[0] = nil
		if w.queue = w.queue[1:]; len(w.queue) == 0 {
			w.queue = nil // let the array go
		}
		w.mu.Unlock()
		if !m.serve(w) {
			// Stuck on this member's client, so replaced meanwhile: come back only if
			// there is room.
			w.mu.Lock()
			back := w.counted < w.size
			if back {
				w.counted++
			}
			w.mu.Unlock()
			if !back {
				return
			}
		}
	}
}

// stalled takes a stuck writer out of the count and starts another in its place.
func (w *liveWriters) stalled() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.counted--
	if len(w.queue) > 0 && w.counted < w.size {
		w.counted++
		go w.run()
	}
}
