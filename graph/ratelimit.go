package graph

import (
	"fmt"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// limiter is a token bucket per caller: the player a valid Bearer token names, or the
// remote address without one (or with a wrong one), an IPv6 one by its /64 (clientAddress). Each request to /graphql takes a
// token, and so does each operation sent over a websocket. A request without tokens left
// is answered 429 with a GraphQL error RATE_LIMITED and a Retry-After; a websocket
// operation, with that error.
type limiter struct {
	rate  float64 // tokens per second
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	calls   int
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(rate float64, burst int) *limiter {
	if burst < 1 {
		burst = max(1, int(math.Ceil(rate)))
	}
	return &limiter{rate: rate, burst: float64(burst), now: time.Now, buckets: map[string]*bucket{}}
}

// take reports whether key may make a request now, and if not, when it may.
func (l *limiter) take(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if l.calls++; l.calls%4096 == 0 {
		l.sweep(now)
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[key] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

// sweep forgets the buckets that have filled up again: they are as good as new.
func (l *limiter) sweep(now time.Time) {
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
			delete(l.buckets, k)
		}
	}
}

// refuse answers a request that came too soon: 429, a Retry-After, and a GraphQL error
// RATE_LIMITED.
func (l *limiter) refuse(w http.ResponseWriter, wait time.Duration) {
	secs := retrySeconds(wait)
	w.Header().Set("Retry-After", fmt.Sprint(secs))
	writeError(w, http.StatusTooManyRequests, "RATE_LIMITED", l.message(secs))
}

// refusal is the error of a websocket operation that came too soon.
func (l *limiter) refusal(wait time.Duration) *gqlerror.Error {
	secs := retrySeconds(wait)
	return rateLimited(l.message(secs), secs)
}

// rateLimited is the error RATE_LIMITED, with the whole seconds to wait as
// extensions.retryAfter: the same for every bound on a caller (requests, registrations).
func rateLimited(message string, retryAfter int) *gqlerror.Error {
	return &gqlerror.Error{Message: message, Extensions: map[string]any{"code": "RATE_LIMITED", "retryAfter": retryAfter}}
}

func (l *limiter) message(secs int) string {
	return fmt.Sprintf("too many requests: at most %g per second (bursts of %g), each websocket operation counting as one; retry in %d s", l.rate, l.burst, secs)
}

func retrySeconds(wait time.Duration) int { return max(1, int(math.Ceil(wait.Seconds()))) }
