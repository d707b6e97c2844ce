// Package schedstats reads what the Go runtime measures of its own scheduling and garbage
// collection (runtime/metrics) over a stretch of time: how long goroutines waited to run
// once runnable, and how much CPU the collector took, in assists on the goroutines that
// allocate and in its own workers. A benchmark prints it beside its latencies, so that a
// tail can be told to come from the run queue or the collector without a trace.
package schedstats

import (
	"fmt"
	"math"
	"runtime/metrics"
	"time"
)

// The metrics read; a Go release that lacks one reads it as zero (metrics.KindBad).
const (
	schedLatencies = "/sched/latencies:seconds"
	gcCycles       = "/gc/cycles/total:gc-cycles"
	cpuTotal       = "/cpu/classes/total:cpu-seconds"
	cpuIdle        = "/cpu/classes/idle:cpu-seconds"
	cpuAssist      = "/cpu/classes/gc/mark/assist:cpu-seconds"
	cpuDedicated   = "/cpu/classes/gc/mark/dedicated:cpu-seconds"
	cpuMarkIdle    = "/cpu/classes/gc/mark/idle:cpu-seconds"
	cpuPause       = "/cpu/classes/gc/pause:cpu-seconds"
)

var names = []string{schedLatencies, gcCycles, cpuTotal, cpuIdle, cpuAssist, cpuDedicated, cpuMarkIdle, cpuPause}

// Snapshot is the runtime's counters at one moment.
type Snapshot struct {
	samples []metrics.Sample
}

// Take reads the counters now.
func Take() Snapshot {
	s := make([]metrics.Sample, len(names))
	for i, n := range names {
		s[i].Name = n
	}
	metrics.Read(s)
	return Snapshot{samples: s}
}

func (s Snapshot) float(name string) float64 {
	for _, x := range s.samples {
		if x.Name == name && x.Value.Kind() == metrics.KindFloat64 {
			return x.Value.Float64()
		}
	}
	return 0
}

func (s Snapshot) uint(name string) uint64 {
	for _, x := range s.samples {
		if x.Name == name && x.Value.Kind() == metrics.KindUint64 {
			return x.Value.Uint64()
		}
	}
	return 0
}

func (s Snapshot) histogram(name string) *metrics.Float64Histogram {
	for _, x := range s.samples {
		if x.Name == name && x.Value.Kind() == metrics.KindFloat64Histogram {
			return x.Value.Float64Histogram()
		}
	}
	return nil
}

// Report is what happened between two snapshots.
type Report struct {
	// Waits is how many times a goroutine went from runnable to running (the runtime
	// samples one in several), and Wait50,
	// Wait99 and WaitMax how long it had waited: the upper bounds of the runtime's
	// histogram buckets (a few per power of two), so coarse but never flattering.
	Waits                   uint64
	Wait50, Wait99, WaitMax time.Duration
	// Cycles is the number of garbage collections that ended.
	Cycles uint64
	// CPU is the time of GOMAXPROCS processors over the stretch (the runtime's own
	// estimate: wall time times GOMAXPROCS); Idle the part no goroutine used.
	CPU, Idle time.Duration
	// Assist is the collector's work done by allocating goroutines, on their own time;
	// Background its workers' (dedicated, fractional and idle-time marking) and Pause the
	// stop-the-world phases, counted for every processor stopped.
	Assist, Background, Pause time.Duration
}

// Since is the report of what happened from before to s.
func (s Snapshot) Since(before Snapshot) Report {
	sec := func(name string) time.Duration {
		return time.Duration((s.float(name) - before.float(name)) * float64(time.Second))
	}
	r := Report{
		Cycles:     s.uint(gcCycles) - before.uint(gcCycles),
		CPU:        sec(cpuTotal),
		Idle:       sec(cpuIdle),
		Assist:     sec(cpuAssist),
		Background: sec(cpuDedicated) + sec(cpuMarkIdle),
		Pause:      sec(cpuPause),
	}
	a, b := s.histogram(schedLatencies), before.histogram(schedLatencies)
	if a == nil || b == nil || len(a.Counts) != len(b.Counts) {
		return r
	}
	counts := make([]uint64, len(a.Counts))
	for i := range counts {
		counts[i] = a.Counts[i] - b.Counts[i]
		r.Waits += counts[i]
	}
	r.Wait50 = quantile(counts, a.Buckets, r.Waits, 0.50)
	r.Wait99 = quantile(counts, a.Buckets, r.Waits, 0.99)
	r.WaitMax = quantile(counts, a.Buckets, r.Waits, 1)
	return r
}

// quantile is the upper bound of the bucket holding the q-th of n samples (the lower
// bound for the last bucket, whose upper bound is +Inf).
func quantile(counts []uint64, buckets []float64, n uint64, q float64) time.Duration {
	if n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(n)))
	var seen uint64
	for i, c := range counts {
		seen += c
		if seen >= rank && c > 0 {
			bound := buckets[i+1]
			if math.IsInf(bound, 1) {
				bound = buckets[i]
			}
			return time.Duration(bound * float64(time.Second))
		}
	}
	return 0
}

// String is the report in two lines, labelled in a column of nine as arbiter bench's are.
func (r Report) String() string {
	pct := func(d time.Duration) float64 { return 100 * d.Seconds() / max(r.CPU.Seconds(), 1e-9) }
	return fmt.Sprintf("runq:    %d waits to run sampled (runnable to running), p50 under %s, p99 under %s, longest under %s\n"+
		"gc cpu:  %d cycles; of the processors' time, assists %.1f%%, workers %.1f%%, pauses %.1f%%; idle %.1f%%",
		r.Waits, round(r.Wait50), round(r.Wait99), round(r.WaitMax),
		r.Cycles, pct(r.Assist), pct(r.Background), pct(r.Pause), pct(r.Idle))
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case d >= time.Microsecond:
		return d.Round(time.Microsecond / 10)
	}
	return d
}
