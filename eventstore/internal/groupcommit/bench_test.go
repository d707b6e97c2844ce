package groupcommit_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/groupcommit"
)

// BenchmarkSubmit is the queue's own cost per append: submitters concurrent callers (the
// load benchmark has about 60 appends per commit) each append one event at a time through
// a queue whose commit function does nothing, so what is measured is the hand-off to the
// writer and back. One op is one append.
func BenchmarkSubmit(b *testing.B) {
	for _, submitters := range []int{1, 64} {
		b.Run(fmt.Sprintf("submitters=%d", submitters), func(b *testing.B) {
			q := groupcommit.New(func(batch []*groupcommit.Request) {
				for _, r := range batch {
					r.Result = eventstore.AppendResult{FirstVersion: 1, LastVersion: 1}
				}
			}, 256)
			defer q.Close()
			events := make([]eventstore.Proposed, 1)
			ctx := context.Background()
			per := max(b.N/submitters, 1)
			b.ReportAllocs()
			b.ResetTimer()
			var wg sync.WaitGroup
			for s := range submitters {
				stream := fmt.Sprint("s", s)
				wg.Go(func() {
					for range per {
						if _, err := q.Submit(ctx, stream, eventstore.Any, events); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
		})
	}
}
