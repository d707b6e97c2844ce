package eventstore

import (
	"context"
	"time"
)

// AppendTrace is where one append's time went in a store whose single writer commits the
// waiting appends in batches (SQLite, PostgreSQL, EventStoreDB): a benchmark that looks
// for the source of a latency tail passes one in the context of a command (WithAppendTrace),
// and the store stamps it. It rides in the context, as net/http/httptrace's hooks do, so
// that neither the port's methods nor the engine, which only passes the context on, know
// of it; a store without a writer queue (memstore) leaves it zero.
//
// Each stamp is taken once the one before it is: Queued ≤ Began ≤ Committed ≤ Resumed.
// A command that appends twice (a version conflict, decided again) keeps the stamps of
// its last append.
type AppendTrace struct {
	Queued    time.Time // Append handed the append to the writer's queue
	Began     time.Time // the writer began the transaction that holds it (upkeep between transactions included)
	Committed time.Time // that transaction's commit returned (or it failed)
	Resumed   time.Time // the caller's goroutine ran again, with the outcome
}

type appendTraceKey struct{}

// WithAppendTrace returns a context under which the appends stamp t. The writer stamps
// Began and Committed from its own goroutine before it hands the outcome back, so t may
// be read once Append returned, and reused for the next append.
func WithAppendTrace(ctx context.Context, t *AppendTrace) context.Context {
	return context.WithValue(ctx, appendTraceKey{}, t)
}

// AppendTraceOf returns the trace ctx carries, or nil.
func AppendTraceOf(ctx context.Context) *AppendTrace {
	t, _ := ctx.Value(appendTraceKey{}).(*AppendTrace)
	return t
}
