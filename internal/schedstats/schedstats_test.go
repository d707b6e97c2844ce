package schedstats

import (
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// A stretch with forced collections and goroutines handed work through channels shows
// both in the report: cycles counted, waits to run counted with ordered quantiles.
func TestAStretchWithCollectionsAndGoroutines(t *testing.T) {
	before := Take()
	var wg sync.WaitGroup
	ping := make(chan int)
	for range 8 {
		wg.Go(func() {
			for v := range ping {
				_ = make([]byte, 1<<10+v) // something for the collector
			}
		})
	}
	for i := range 2000 {
		ping <- i
	}
	close(ping)
	wg.Wait()
	runtime.GC()
	runtime.GC()
	r := Take().Since(before)
	if r.Cycles < 2 {
		t.Errorf("cycles: got %d, want at least the 2 forced", r.Cycles)
	}
	if r.Waits == 0 {
		t.Fatalf("no waits to run counted after 2000 hand-offs between goroutines")
	}
	if !(r.Wait50 <= r.Wait99 && r.Wait99 <= r.WaitMax) {
		t.Errorf("quantiles out of order: p50 %s, p99 %s, max %s", r.Wait50, r.Wait99, r.WaitMax)
	}
	if r.CPU <= 0 || r.Idle < 0 || r.Idle > r.CPU {
		t.Errorf("cpu %s, idle %s: want 0 <= idle <= cpu, cpu > 0", r.CPU, r.Idle)
	}
	s := r.String()
	for _, want := range []string{"runq:", "waits to run", "gc cpu:", "cycles", "assists"} {
		if !strings.Contains(s, want) {
			t.Errorf("report %q lacks %q", s, want)
		}
	}
}

// The quantile is the upper bound of the bucket holding the rank, the lower bound of the
// last (infinite) bucket, and zero without samples.
func TestQuantile(t *testing.T) {
	buckets := []float64{0, 0.001, 0.002, 0.004, inf()}
	counts := []uint64{50, 40, 9, 1}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{
		{0.5, time.Millisecond}, {0.51, 2 * time.Millisecond}, {0.9, 2 * time.Millisecond},
		{0.99, 4 * time.Millisecond}, {1, 4 * time.Millisecond},
	} {
		if got := quantile(counts, buckets, 100, c.q); got != c.want {
			t.Errorf("quantile %v: got %s, want %s", c.q, got, c.want)
		}
	}
	if got := quantile(make([]uint64, 4), buckets, 0, 0.99); got != 0 {
		t.Errorf("no samples: got %s, want 0", got)
	}
}

func inf() float64 { return math.Inf(1) }
