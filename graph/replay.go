package graph

import (
	"context"
	"log/slog"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/graph/model"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/projections"
)

// The speeds a replay accepts: slower than a hundredth is a stalled subscription, faster
// than ten thousand times is what the export (/matches/{id}.ndjson) is for.
const (
	minReplaySpeed = 0.01
	maxReplaySpeed = 10000
)

// replayEvents streams a finished match's events after a version, each held back by the
// time between it and the one before, as recorded, divided by speed (see pace).
func (r *Resolver) replayEvents(ctx context.Context, matchID string, speed *float64, after *int) (<-chan *model.MatchEvent, error) {
	p, err := r.viewer(ctx)
	if err != nil {
		return nil, err
	}
	x := 1.0
	if speed != nil {
		x = *speed
	}
	if !(x >= minReplaySpeed && x <= maxReplaySpeed) { // NaN fails too
		return nil, game.Reject(game.BadInput, "speed %g: a replay runs from %g to %g times the recorded pace", x, float64(minReplaySpeed), float64(maxReplaySpeed))
	}
	last := int64(0)
	if after != nil {
		last = int64(*after)
	}
	stream := matchstream.Name(matchID)
	if err := r.checkAfter(ctx, matchID, viewerID(p), stream, last); err != nil {
		return nil, err
	}
	v, err := r.Lobby.Get(ctx, matchID)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, r.noMatch(matchID)
	}
	// A match is finished for a replay once the viewer sees its end: a spectator held back
	// by a delay sees it that much later (delayedView), and is told the status it sees.
	shown, _, err := r.delayedView(ctx, v, spectatorDelay(v, viewerID(p)))
	if err != nil {
		return nil, err
	}
	if shown.State.Status != match.Finished {
		return nil, game.Reject(game.BadInput, "match %s is %s: a replay is of a finished match; matchEvents follows one live", matchID, shown.State.Status)
	}
	release, err := r.admitSubscription(ctx)
	if err != nil {
		return nil, err
	}
	viewer := projections.ViewerOf(v.State, viewerID(p))
	out := make(chan *model.MatchEvent, 16)
	go func() {
		defer close(out)
		defer release()
		var prev time.Time // the time of the event sent before; zero: send at once
		_, err := r.eachEvent(ctx, stream, last, v.Version, func(ev eventstore.Event) bool {
			if !prev.IsZero() && !wait(ctx, pace(prev, ev.Time, x)) {
				return false
			}
			// Each event as matchEvents showed it live: the stream reads the same.
			shown := eventModel(matchID, v.Rules, viewer.AsOf(v.EndedAt, ev.Version), ev)
			if !deliver(ctx, r, out, shown, last) {
				return false
			}
			prev, last = ev.Time, ev.Version
			return true
		})
		if err != nil && ctx.Err() == nil {
			slog.Warn("replay stopped: reading the store failed", "match", matchID, "err", err)
		}
	}()
	return out, nil
}

// pace is how long a replay at speed holds an event recorded at next after the one
// recorded at prev: the recorded gap divided by speed, never negative (two events of
// one command share a time; a store's clock may have stepped back).
func pace(prev, next time.Time, speed float64) time.Duration {
	gap := next.Sub(prev)
	if gap <= 0 {
		return 0
	}
	return time.Duration(float64(gap) / speed)
}

// wait waits d, and reports false if ctx ended first.
func wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
