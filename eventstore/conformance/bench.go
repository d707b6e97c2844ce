package conformance

import (
	"context"
	"fmt"
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
	for _, writers := range []int{1, 64} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			s := open(b)
			defer s.Close()
			var (
				next atomic.Int64
				wg   sync.WaitGroup
				errs = make(chan error, writers)
			)
			b.ResetTimer()
			start := time.Now()
			for w := range writers {
				wg.Go(func() {
					stream := fmt.Sprintf("bench-%d", w)
					var version int64
					for next.Add(1) <= int64(b.N) {
						if _, err := s.Append(context.Background(), stream, version, event(fmt.Sprintf("%s-%d", stream, version+1))); err != nil {
							errs <- err
							return
						}
						version++
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
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "appends/s")
		})
	}
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
