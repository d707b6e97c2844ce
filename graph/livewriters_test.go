package graph

import (
	"io"
	"net"
	"testing"
	"testing/synctest"
	"time"
)

// A server stops while a live write is stuck on a client that does not read: stop cuts
// the write (its socket closed, its member gone) instead of waiting for the write timeout,
// and returns once the writers and the watchdog have returned. In a synctest bubble the
// clock moves only when every goroutine waits, so the time stop took is exact: a stop
// that waited for the watchdog's timeout would take all of it.
func TestLiveWritersStopCutsAStuckWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const timeout = time.Hour
		server, client := net.Pipe() // unbuffered: a write waits for a read
		defer client.Close()
		m := memberOn(server)

		w := newLiveWriters(timeout)
		w.push([]*liveMember{m})
		if _, err := client.Read(make([]byte, 1)); err != nil { // the write has begun; the rest waits
			t.Fatal(err)
		}
		start := time.Now()
		w.stop()
		if took := time.Since(start); took >= timeout {
			t.Errorf("stop waited %v for a stuck write: the write timeout", took)
		}
		if m.state != liveGone {
			t.Errorf("the member of the cut write is in state %d, want gone", m.state)
		}
		if w.running != 0 || len(w.writers) != 0 || w.watching {
			t.Errorf("after stop: %d goroutines counted, %d writers, watching %v", w.running, len(w.writers), w.watching)
		}
	})
}

// A member queued after stop is still written, by writers that return once nothing more
// is queued: stop ends no subscription by itself.
func TestLiveWritersWriteWhatIsQueuedAfterStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		server, client := net.Pipe()
		defer client.Close()
		m := memberOn(server)
		w := newLiveWriters(time.Hour)
		w.stop()
		w.push([]*liveMember{m})
		msg := make([]byte, 2+len(livePrefix)+len(m.group.ring[0].payload)+len(m.suffix)) // a header of 2 bytes up to 125
		if _, err := io.ReadFull(client, msg); err != nil {
			t.Fatalf("the member queued after stop was not written: %v", err)
		}
		time.Sleep(liveStall) // the watchdog's next look, which finds nothing under way
		synctest.Wait()
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.running != 0 || m.state != liveActive || m.sent != 1 {
			t.Errorf("after the write: %d goroutines run, the member in state %d, sent %d", w.running, m.state, m.sent)
		}
	})
}

// TestClosedHandlersLeaveNoGoroutine builds many handlers, as the tests that start
// servers do, sets each one's live writers to work on a real write (a socket, read to
// the end of the message), and closes each resolver. The synctest bubble is the wait
// with a reason to end: synctest.Test returns once every goroutine started in it has
// returned, and fails the test as deadlocked when one waits for good, as each handler's
// writers did before Resolver.Close stopped them.
func TestClosedHandlersLeaveNoGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for range 50 {
			r := &Resolver{Hub: NewHub()}
			Handler(r, Limits{})
			server, client := net.Pipe()
			m := memberOn(server)
			r.live.writers.push([]*liveMember{m})
			msg := make([]byte, 2+len(livePrefix)+len(m.group.ring[0].payload)+len(m.suffix))
			if _, err := io.ReadFull(client, msg); err != nil {
				t.Fatalf("the handler's live writers wrote nothing: %v", err)
			}
			r.Close()
			client.Close()
			server.Close()
		}
	})
}

// memberOn is a member of a live group with one message for it to write, on a socket
// over nc, queued for a writer. Its group has stopped taking members, so that the member
// leaves it without stopping a pump it does not have.
func memberOn(nc net.Conn) *liveMember {
	conn := &wsConn{nc: nc}
	g := &liveGroup{ring: []liveMessage{{version: 1, payload: []byte(`{"data":{}}`)}}, members: map[*liveMember]struct{}{}, closed: true}
	m := newLiveMember(&wsSub{conn: conn, id: "1"}, 0, func() {})
	m.group, m.writing = g, true
	g.members[m] = struct{}{}
	return m
}
