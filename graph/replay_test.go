package graph

import (
	"testing"
	"time"
)

// A replay holds each event for the recorded gap divided by the speed, and never a
// negative time.
func TestReplayPace(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		gap   time.Duration
		speed float64
		want  time.Duration
	}{
		{10 * time.Second, 1, 10 * time.Second},
		{10 * time.Second, 4, 2500 * time.Millisecond},
		{10 * time.Second, 0.5, 20 * time.Second},
		{0, 10, 0},                // two events of one command
		{-3 * time.Second, 10, 0}, // a clock that stepped back
	} {
		if got := pace(t0, t0.Add(c.gap), c.speed); got != c.want {
			t.Errorf("a gap of %s at speed %g: held %s, want %s", c.gap, c.speed, got, c.want)
		}
	}
}
