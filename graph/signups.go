package graph

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// signups bounds the accounts created from one address: at most limit registrations in
// any window (an hour). Throwaway accounts were the raw material of rating farming; a
// player registers once, a household or a school behind one address a few times. The
// times of the last registrations of each address are kept, at most limit of them, and
// an address none of whose registrations is in the window any more is forgotten.
type signups struct {
	limit  int
	window time.Duration
	now    func() time.Time

	mu     sync.Mutex
	byAddr map[string][]time.Time
	calls  int
}

// newSignups returns the bound; nil (no bound) when limit is 0.
func newSignups(limit int, window time.Duration) *signups {
	if limit <= 0 {
		return nil
	}
	return &signups{limit: limit, window: window, now: time.Now, byAddr: map[string][]time.Time{}}
}

// admit counts a registration from addr, or refuses it with RATE_LIMITED and the seconds
// to wait (extensions.retryAfter).
func (s *signups) admit(addr string) error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if s.calls++; s.calls%1024 == 0 {
		for a, times := range s.byAddr {
			if now.Sub(times[len(times)-1]) >= s.window {
				delete(s.byAddr, a)
			}
		}
	}
	times := s.byAddr[addr]
	for len(times) > 0 && now.Sub(times[0]) >= s.window {
		times = times[1:]
	}
	if len(times) >= s.limit {
		wait := retrySeconds(times[0].Add(s.window).Sub(now))
		return rateLimited(fmt.Sprintf("too many players registered from your address: at most %d per %s; retry in %d s", s.limit, s.window, wait), wait)
	}
	s.byAddr[addr] = append(times, now)
	return nil
}

// addressOf is the caller's address, "" when unknown.
func addressOf(ctx context.Context) string {
	if c := callerOf(ctx); c != nil {
		return c.addr
	}
	return ""
}
