package graph

// The caps on websockets open at once: per player, and per address for those without an
// account. A socket counts against its address from the upgrade until its connection_init
// is read (awaiting), then against its player, or its address again when it sent no token
// (anonymous); the awaiting and the anonymous have a cap each, so a flood of anonymous
// sockets from an address does not keep that address's players from initialising theirs.
// A socket whose connection_init is refused (a wrong token, or over its player's cap)
// stays counted as awaiting until it ends. The count is given back when the socket ends,
// however it ends (wsConn.finish), or as soon as the client's close frame is read, so that
// a client which closed one socket can open another at once.

import (
	"fmt"
	"sync"
)

// CodeTooManyConnections refuses a websocket over a cap (graphql-ws's connection_error; the
// reason of the close frame starts with it in both protocols).
const CodeTooManyConnections = "TOO_MANY_CONNECTIONS"

// closeTryAgainLater is RFC 6455's 1013 (IANA's registry): a condition that passes. The
// graphql-ws client library retries it with a backoff, as it does not a 44xx refusal.
const closeTryAgainLater = 1013

// wsClass is what an open websocket is counted as.
type wsClass uint8

const (
	wsAwaiting  wsClass = iota // its connection_init not read yet: by address
	wsAnonymous                // initialised without a token: by address
	wsPlayer                   // initialised with a player's token: by player
	wsClasses
)

// wsKey is whom a websocket counts against.
type wsKey struct {
	class wsClass
	who   string // the player's ID, or clientAddress's
}

// wsCounts holds the websockets open, by whom they count against. A key is forgotten
// when its last socket ends, so the map holds only what is open. The zero value is ready.
type wsCounts struct {
	mu    sync.Mutex
	open  map[wsKey]int
	total [wsClasses]int
}

// take counts one more socket against k unless k already has most; it reports whether
// it did.
func (s *wsCounts) take(k wsKey, most int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open[k] >= most {
		return false
	}
	if s.open == nil {
		s.open = map[wsKey]int{}
	}
	s.open[k]++
	s.total[k.class]++
	return true
}

// give takes back one socket counted against k.
func (s *wsCounts) give(k wsKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.open[k]
	if !ok {
		return
	}
	if n <= 1 {
		delete(s.open, k)
	} else {
		s.open[k] = n - 1
	}
	s.total[k.class]--
}

// totals returns the sockets counted in each class, and how many keys are held.
func (s *wsCounts) totals() (byClass [wsClasses]int, keys int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total, len(s.open)
}

// Websockets returns the websockets open on this node: awaiting their connection_init,
// initialised without a token, and a player's. /metrics shows them.
func (r *Resolver) Websockets() (awaiting, anonymous, players int) {
	t, _ := r.sockets.totals()
	return t[wsAwaiting], t[wsAnonymous], t[wsPlayer]
}

// tooManyReason is the reason a socket over the cap of its class is refused with: it
// names the cap and what to do, in at most the 123 bytes a close frame's reason holds.
func tooManyReason(class wsClass, most int) string {
	switch class {
	case wsPlayer:
		return fmt.Sprintf("%s: this player has %d websockets open, the most allowed: close one, or subscribe on one open", CodeTooManyConnections, most)
	case wsAnonymous:
		return fmt.Sprintf("%s: this address has %d websockets without a token open, the most allowed: close one or sign in", CodeTooManyConnections, most)
	default:
		return fmt.Sprintf("%s: %d websockets from this address await connection_init, the most allowed: send it on opening", CodeTooManyConnections, most)
	}
}
