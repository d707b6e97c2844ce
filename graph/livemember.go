package graph

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// liveMember is one subscription served by a group: its place in the group's ring and
// its socket. It holds no goroutine: while it has something to write, it waits its turn
// among the live writers (liveWriters), and a member whose client reads slowly holds up
// nobody but itself.
type liveMember struct {
	sub    *wsSub
	conn   *wsConn
	suffix []byte    // what follows the payload in each of its messages: its ID and type
	free   sync.Once // release, once
	undo   func()    // gives back its place on the socket and among the node's subscriptions
	group  *liveGroup

	// Under group.mu:
	next     int64 // the number of the next message to write
	writing  bool  // queued for a writer, or being written
	state    liveState
	finished bool        // finish has been called (or is about to be)
	slow     *time.Timer // runs while the member has more waiting than liveLag

	sent   int64 // the version of the last message written (only serve writes it)
	queued int64 // when it was last queued for a writer (UnixNano; see liveWriters.push)
}

// liveState is whether a member is in its group, and why it left.
type liveState uint8

const (
	liveActive    liveState = iota
	liveCompleted           // sent everything of an operation that ended
	liveGone                // its subscription was cancelled, or its socket failed
	liveSlow                // it did not read what it was sent: SLOW_CONSUMER
)

func newLiveMember(sub *wsSub, after int64, undo func()) *liveMember {
	typ := "next"
	if sub.conn.protocol == legacyWS {
		typ = "data"
	}
	quoted, _ := json.Marshal(sub.id)
	suffix := append([]byte(`,"id":`), quoted...)
	suffix = append(suffix, `,"type":"`+typ+`"}`...)
	return &liveMember{sub: sub, conn: sub.conn, suffix: suffix, undo: undo, sent: after}
}

func (m *liveMember) release() { m.free.Do(m.undo) }

// kickLocked queues m for a writer (see flushLocked) if it has something to write (or
// its group has ended, so that it completes), and starts counting the time it is behind when it has more than
// liveLag messages waiting: if it still has after SlowConsumerAfter, it is dropped.
func (g *liveGroup) kickLocked(m *liveMember) {
	if m.state != liveActive {
		return
	}
	if !m.writing && (m.next < g.head() || g.done) {
		m.writing = true
		g.kicked = append(g.kicked, m) // for the caller's flush
	}
	if m.slow == nil && g.head()-m.next > liveLag(g.key.kind) {
		m.slow = time.AfterFunc(g.r.limits.SlowConsumerAfter, func() {
			g.mu.Lock()
			m.slow = nil
			behind := m.state == liveActive && g.head()-m.next > liveLag(g.key.kind)
			g.mu.Unlock()
			if behind {
				g.leave(m, liveSlow)
			}
		})
	}
}

// flushLocked hands the members kicked since the last flush to the writers.
func (g *liveGroup) flushLocked() {
	g.r.live.writers.push(g.kicked)
	clear(g.kicked)
	g.kicked = g.kicked[:0]
}

// finishableLocked reports whether the caller is the one to call m.finish: m has left its
// group, and no writer runs that would.
func (g *liveGroup) finishableLocked(m *liveMember) bool {
	if m.state == liveActive || m.writing || m.finished {
		return false
	}
	m.finished = true
	return true
}

// serve writes m's waiting messages, in order (matchUpdates: only the latest), until it
// has none, then returns; if m has left its group meanwhile, it finishes it. The writer's
// slot shows the watchdog (liveWriters.watch) each write under way.
func (m *liveMember) serve(w *liveWriter) {
	g := m.group
	for {
		g.mu.Lock()
		if m.state == liveActive && m.next < g.base && g.key.kind == liveEvents {
			// The ring has moved past it: it was behind far longer than allowed.
			g.mu.Unlock()
			g.leave(m, liveSlow)
			continue
		}
		if m.state == liveActive && m.next < g.head() {
			if g.key.kind == liveUpdates {
				m.next = g.head() - 1
			}
			msg := g.ring[m.next-g.base]
			m.next++
			if m.slow != nil && g.head()-m.next <= liveLag(g.key.kind) {
				m.slow.Stop()
				m.slow = nil
			}
			g.mu.Unlock()
			w.begin(m.conn)
			err := m.conn.writeLive(&w.frame, msg.payload, m.suffix)
			w.done()
			if err != nil {
				g.leave(m, liveGone)
				continue
			}
			m.sent = msg.version
			continue
		}
		completed := m.state == liveActive && g.done
		if completed {
			m.state = liveCompleted
			delete(g.members, m)
		}
		m.writing = false
		finish := g.finishableLocked(m)
		g.mu.Unlock()
		if completed {
			m.release()
		}
		if finish {
			m.finish()
		}
		return
	}
}

// finish ends m's subscription: with SLOW_CONSUMER and the version to resume after when
// it was too slow, else with complete (nothing, if its client completed it or its socket
// ended).
func (m *liveMember) finish() {
	if m.state == liveSlow {
		m.sub.end(slowConsumer(m.sent))
		return
	}
	m.sub.end()
}

// slowConsumer is the error that ends a subscription whose client did not read.
func slowConsumer(resumeAfter int64) *gqlerror.Error {
	return &gqlerror.Error{
		Message: "this subscription was ended because its client did not read what it was sent: subscribe again after version resumeAfter",
		Extensions: map[string]any{
			"code":        "SLOW_CONSUMER",
			"resumeAfter": resumeAfter,
		},
	}
}
