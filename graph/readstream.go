package graph

import (
	"context"

	"github.com/arbiter-games/arbiter/eventstore"
)

// eachEvent reads the events of a stream after version after, up to version upTo, a page
// of catchUpPage at a time, and hands each to fn in version order until fn returns false.
// It returns the version of the last event fn was handed (after if none), which is below
// upTo when fn stopped, or when the store holds fewer events than upTo (the read side ran
// ahead of it, or the stream is gone): the caller tells which matters. The exports,
// receipts, replays and delayed views page through a match this way.
func (r *Resolver) eachEvent(ctx context.Context, stream string, after, upTo int64, fn func(eventstore.Event) bool) (int64, error) {
	last := after
	for last < upTo {
		evs, err := r.Engine.Store().ReadStream(ctx, stream, last, catchUpPage)
		if err != nil || len(evs) == 0 {
			return last, err
		}
		for _, ev := range evs {
			if ev.Version > upTo || !fn(ev) {
				return last, nil
			}
			last = ev.Version
		}
	}
	return last, nil
}
