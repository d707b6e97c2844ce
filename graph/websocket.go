package graph

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

// admitSubscription counts a subscription against its websocket's operations
// (admitOperation); release gives its place back when it ends.
func (r *Resolver) admitSubscription(ctx context.Context) (release func(), err error) {
	c := callerOf(ctx)
	if c == nil || !c.ws {
		return func() {}, nil
	}
	return admitOperation(c, r.limits.SubscriptionsPerConn, "TOO_MANY_SUBSCRIPTIONS")
}

// admitOperation takes one of the most places of a websocket's operations: its live
// subscriptions, and its queries and mutations not answered yet (wsConn.subscribe). A
// socket's client may send operations without waiting for their answers, and each runs
// on a goroutine of its own: uncounted, 5,000 queries sent at once ran together and took
// a gigabyte. Beyond, the operation is refused with code and never runs.
func admitOperation(c *caller, most int, code string) (release func(), err error) {
	if c.subs.Add(1) > int32(most) {
		c.subs.Add(-1)
		return nil, game.Reject(game.Code(code), "this websocket already runs %d operations (subscriptions, and queries or mutations not answered yet), the most allowed: wait for an answer, complete a subscription, or open another connection", most)
	}
	return func() { c.subs.Add(-1) }, nil
}

// deliver hands one item to a subscription's outgoing buffer. A buffer that stays full for
// SlowConsumerAfter (its client stopped reading) ends the subscription: it is told, with
// SLOW_CONSUMER, the version it has been sent up to (resumeAfter), and may subscribe again
// from there. A live group's operation (forGroup) is never slow: its pump takes each item
// as it comes. deliver reports whether to go on.
func deliver[T any](ctx context.Context, r *Resolver, out chan<- T, item T, resumeAfter int64) bool {
	select {
	case out <- item:
		return true
	case <-ctx.Done():
		return false
	default:
	}
	var slow <-chan time.Time
	if !forGroup(ctx) {
		t := time.NewTimer(r.limits.SlowConsumerAfter) // Handler set the default
		defer t.Stop()
		slow = t.C
	}
	select {
	case out <- item:
		return true
	case <-ctx.Done():
		return false
	case <-slow:
		addSubscriptionError(ctx, slowConsumer(resumeAfter))
		return false
	}
}

// origins is the allow-list of browser origins besides the server's own.
type origins struct {
	any  bool
	list map[string]bool
}

func newOrigins(allow []string) origins {
	o := origins{list: map[string]bool{}}
	for _, a := range allow {
		a = strings.TrimRight(strings.TrimSpace(a), "/")
		switch a {
		case "":
		case "*":
			o.any = true
		default:
			o.list[strings.ToLower(a)] = true
		}
	}
	return o
}

// allowed reports whether a request's origin may use the API: no Origin (not a browser),
// the server's own host, or one of the list.
func (o origins) allowed(r *http.Request) (origin string, ok bool) {
	origin = r.Header.Get("Origin")
	if origin == "" {
		return "", true
	}
	if u, err := url.Parse(origin); err == nil && strings.EqualFold(u.Host, r.Host) {
		return origin, true
	}
	return origin, o.any || o.list[strings.ToLower(origin)]
}

// admit sets the CORS headers of an allowed origin and answers preflights; a preflight or
// a websocket from another origin is refused with 403 FORBIDDEN_ORIGIN. It reports
// whether the request goes on.
func (o origins) admit(w http.ResponseWriter, r *http.Request) bool {
	origin, ok := o.allowed(r)
	preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
	if !ok {
		if preflight || r.Header.Get("Upgrade") != "" {
			writeError(w, http.StatusForbidden, "FORBIDDEN_ORIGIN", "the origin "+origin+" may not call this API: its operator can allow it with serve --allow-origin")
			return false
		}
		return true // served without CORS headers: the browser keeps the answer from the page
	}
	if origin != "" {
		h := w.Header()
		h.Add("Vary", "Origin")
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Expose-Headers", "Retry-After")
		if preflight {
			h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
			h.Set("Access-Control-Max-Age", "600")
		}
	}
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return false
	}
	return true
}
