package graph

import (
	"io"
	"net"
	"testing"
	"testing/synctest"
)

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
