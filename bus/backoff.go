package bus

import (
	"context"
	"time"
)

// Default retry delays for publishing, handling and reading the store.
const (
	DefaultMinBackoff = 10 * time.Millisecond
	DefaultMaxBackoff = 2 * time.Second
)

// backoff doubles a delay from min up to max; the zero value is not usable.
type backoff struct {
	min, max, next time.Duration
}

func newBackoff(lo, hi time.Duration) *backoff {
	if lo <= 0 {
		lo = DefaultMinBackoff
	}
	if hi < lo {
		hi = max(DefaultMaxBackoff, lo)
	}
	return &backoff{min: lo, max: hi, next: lo}
}

// wait sleeps for the next delay or until ctx ends, whichever comes first.
func (b *backoff) wait(ctx context.Context) error {
	d := b.next
	b.next = min(2*b.next, b.max)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (b *backoff) reset() { b.next = b.min }
