package conformance

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
)

// BenchmarkAppend measures appends of one event, by one writer and by 64 concurrent
// writers each on its own stream, and reports appends/s. open returns a fresh store; the
// benchmark closes it.
func BenchmarkAppend(b *testing.B, open func(b *testing.B) eventstore.Store) {
	for _, n := range []int{1, 64} {
		b.Run(fmt.Sprintf("writers=%d", n), func(b *testing.B) {
			s := open(b)
			defer s.Close()
			var next atomic.Int64
			elapsed := writers(b, n, func(w int, _ time.Time) error {
				stream := fmt.Sprintf("bench-%d", w)
				var version int64
				for next.Add(1) <= int64(b.N) {
					if _, err := s.Append(context.Background(), stream, version, event(fmt.Sprintf("%s-%d", stream, version+1))); err != nil {
						return err
					}
					version++
				}
				return nil
			})
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "appends/s")
		})
	}
}

// writers resets the timer, runs write(w, start) for every w in [0, n) on a goroutine
// of its own, and returns the time they took together. An error fails the benchmark.
func writers(b *testing.B, n int, write func(w int, start time.Time) error) time.Duration {
	var (
		wg   sync.WaitGroup
		errs = make(chan error, n)
	)
	b.ResetTimer()
	start := time.Now()
	for w := range n {
		wg.Go(func() {
			if err := write(w, start); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	return elapsed
}

// BenchmarkReadAll measures reading a store of 100,000 events in pages of
// eventstore.FollowPageSize, as a subscription catching up does, and reports events/s.
// One operation is one page; at the end of the store it starts again from the beginning.
func BenchmarkReadAll(b *testing.B, open func(b *testing.B) eventstore.Store) {
	const total, per = 100_000, 500
	s := open(b)
	defer s.Close()
	for i := range total / per {
		evs := events(fmt.Sprintf("read-%d", i), per)
		stream := fmt.Sprintf("match-%d", i%50)
		if _, err := s.Append(context.Background(), stream, eventstore.Any, evs...); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	start := time.Now()
	var (
		read  int
		after int64
	)
	for b.Loop() {
		page, err := s.ReadAll(context.Background(), after, eventstore.FollowPageSize)
		if err != nil {
			b.Fatal(err)
		}
		read += len(page)
		after += int64(len(page))
		if after >= total {
			after = 0
		}
	}
	b.ReportMetric(float64(read)/time.Since(start).Seconds(), "events/s")
}

// BenchmarkAppendLoad measures appends under the engine's target load: streams matches,
// each appending one to three events (two on average) at its own steady pace, rate
// appends/s in all. Every append's latency counts from when it was due, not from when
// the previous one of its stream returned, so that a slow store cannot hide its queue
// (coordinated omission). It reports the appends/s reached and the latency p50 and p99.
// b.N is the number of appends, spread evenly over the streams.
func BenchmarkAppendLoad(b *testing.B, open func(b *testing.B) eventstore.Store, streams int, rate float64) {
	s := open(b)
	defer s.Close()
	per := max(b.N/streams, 1)
	interval := time.Duration(float64(streams) / rate * float64(time.Second))
	var (
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, per*streams)
	)
	elapsed := writers(b, streams, func(w int, start time.Time) error {
		stream := fmt.Sprintf("load-%d", w)
		// Spread the streams' phases evenly over one interval.
		due := start.Add(interval * time.Duration(w) / time.Duration(streams))
		own := make([]time.Duration, 0, per)
		var version int64
		for i := range per {
			time.Sleep(time.Until(due))
			evs := make([]eventstore.Proposed, 1+i%3)
			for j := range evs {
				evs[j] = event(fmt.Sprintf("%s-%d", stream, version+int64(j)+1))
			}
			if _, err := s.Append(context.Background(), stream, version, evs...); err != nil {
				return err
			}
			own = append(own, time.Since(due))
			version += int64(len(evs))
			due = due.Add(interval)
		}
		mu.Lock()
		latencies = append(latencies, own...)
		mu.Unlock()
		return nil
	})
	slices.Sort(latencies)
	at := func(q float64) float64 {
		return float64(latencies[int(q*float64(len(latencies)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "appends/s")
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
	b.ReportMetric(0, "ns/op")
}
