package graph

import (
	"runtime"
	"sync"
	"sync/atomic"
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
// full) is replaced after liveStall, and serves that member alone until it is done; a
// write stuck for the write timeout closes its socket.
//
// No timer is armed per write: the writers show the write under way in their slot, and
// one watchdog (watch) looks at the slots every liveStall/2 while anything is being
// written. Arming and stopping two timers around each write cost 3 to 7 % of the server's
// CPU with ten thousand spectators.
//
// The goroutines outlive the requests that started them: stop ends them with the server.
type liveWriters struct {
	size    int           // the writers that take members from the queue, stuck ones aside
	timeout time.Duration // a write stuck this long closes its socket

	mu       sync.Mutex
	wake     *sync.Cond    // a member was queued, or stop was called
	ended    *sync.Cond    // the last goroutine returned (stop waits for it)
	queue    []*liveMember // members with something to write, each at most once
	counted  int           // writers running, stuck ones aside
	running  int           // goroutines running: the writers, stuck ones too, and the watchdog
	writers  map[*liveWriter]struct{}
	watching bool // the watchdog runs
	stopped  bool // stop was called: a writer with nothing to write returns
}

// liveWriter is one writer goroutine's own: its room to frame messages, and the write
// under way for the watchdog.
type liveWriter struct {
	frame liveFrame
	since atomic.Int64           // when the write under way began (UnixNano); 0 between writes
	conn  atomic.Pointer[wsConn] // the socket written to
	stuck bool                   // under liveWriters.mu: replaced, out of the count
	busy  bool                   // under liveWriters.mu: serving a member
}

func (w *liveWriter) begin(c *wsConn) {
	w.conn.Store(c)
	w.since.Store(time.Now().UnixNano())
}

func (w *liveWriter) done() { w.since.Store(0) }

func newLiveWriters(timeout time.Duration) *liveWriters {
	w := &liveWriters{size: max(2, runtime.GOMAXPROCS(0)), timeout: timeout, writers: map[*liveWriter]struct{}{}}
	w.wake = sync.NewCond(&w.mu)
	w.ended = sync.NewCond(&w.mu)
	return w
}

// push queues members that have something to write (their writing flag set by the
// caller), all at once: a move wakes every member of a group.
func (w *liveWriters) push(ms []*liveMember) {
	if len(ms) == 0 {
		return
	}
	now := time.Now().UnixNano()
	for _, m := range ms {
		m.queued = now // under the group's lock, as the caller holds it
	}
	w.mu.Lock()
	w.queue = append(w.queue, ms...)
	for w.counted < w.size {
		w.startLocked()
	}
	if !w.watching {
		w.watching = true
		w.running++
		go w.watch()
	}
	w.wake.Broadcast()
	w.mu.Unlock()
}

func (w *liveWriters) startLocked() {
	w.counted++
	w.running++
	lw := &liveWriter{}
	w.writers[lw] = struct{}{}
	go w.run(lw)
}

// liveYield is how many members a writer serves before it lets the other goroutines run:
// its writes never wait on the scheduler (see writev), so without this a player's
// command arriving during a move's ten thousand writes would wait for the runtime to
// preempt a writer, every 10 ms. A writer yields only while the deliveries it takes were
// queued less than liveYieldWhile ago: when the commands alone keep the cores busy (a
// thousand matches at 5 moves a second on 2 cores), yielding would hand them the cores
// for good and the deliveries would wait seconds; late ones get their fair share.
const (
	liveYield      = 32
	liveYieldWhile = 100 * time.Millisecond
)

// run takes members from the queue and writes what they have.
func (w *liveWriters) run(lw *liveWriter) {
	var queued int64 // when the last member taken was queued (UnixNano)
	for served := 1; ; served++ {
		if served%liveYield == 0 && time.Since(time.Unix(0, queued)) < liveYieldWhile {
			runtime.Gosched()
		}
		w.mu.Lock()
		lw.busy = false
		if lw.stuck {
			// Replaced while it wrote: come back only if there is room.
			if w.counted >= w.size {
				w.returnLocked(lw)
				return
			}
			lw.stuck = false
			w.counted++
		}
		for len(w.queue) == 0 {
			if w.stopped {
				w.counted--
				w.returnLocked(lw)
				return
			}
			w.wake.Wait()
		}
		m := w.queue[0]
		queued = m.queued
		lw.busy = true
		w.queue[0] = nil
		if w.queue = w.queue[1:]; len(w.queue) == 0 {
			w.queue = nil // let the array go
		}
		w.mu.Unlock()
		m.serve(lw)
	}
}

// returnLocked is the end of writer lw, or of the watchdog when lw is nil: the caller
// returns once it has unlocked w.mu.
func (w *liveWriters) returnLocked(lw *liveWriter) {
	if lw != nil {
		delete(w.writers, lw)
	}
	if w.running--; w.running == 0 {
		w.ended.Broadcast()
	}
	w.mu.Unlock()
}

// stop ends the writers and the watchdog with the server, and returns once they have
// returned. What is queued is written first, and a write under way is cut (its socket
// closed) rather than waited for up to the write timeout: the server is going away, and
// its websockets with it. A member queued after stop is still written, as far as its
// socket takes at once, by writers that return as soon as nothing more is queued.
func (w *liveWriters) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	w.wake.Broadcast()
	for w.running > 0 {
		w.ended.Wait()
	}
}

// watch looks at the writes under way every liveStall/2, while any writer serves: a writer
// stuck longer than liveStall is replaced, a write stuck longer than the write timeout
// closes its socket (which ends the write), as does any write once the writers are
// stopped.
func (w *liveWriters) watch() {
	tick := time.NewTicker(liveStall / 2)
	defer tick.Stop()
	for range tick.C {
		now := time.Now().UnixNano()
		w.mu.Lock()
		busy := len(w.queue) > 0
		for lw := range w.writers {
			busy = busy || lw.busy
			since := lw.since.Load()
			if since == 0 {
				continue
			}
			took := time.Duration(now - since)
			if took > liveStall && !lw.stuck {
				lw.stuck = true
				w.counted--
				if len(w.queue) > 0 {
					w.startLocked()
				}
			}
			if took > w.timeout || w.stopped {
				if c := lw.conn.Load(); c != nil {
					c.abort()
				}
			}
		}
		if !busy {
			w.watching = false
			w.returnLocked(nil)
			return
		}
		w.mu.Unlock()
	}
}
