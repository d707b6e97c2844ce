package graph

import (
	"context"
	"log/slog"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/graph/model"
	"github.com/arbiter-games/arbiter/projections"
)

// subscribe streams a match's events after a version: it replays them from the store,
// then, woken by the hub, reads each new batch from the store too. One path for both
// means no gap and no duplicate at the seam.
func (r *Resolver) subscribe(ctx context.Context, matchID string, after *int) (<-chan *model.MatchEvent, error) {
	p, err := r.viewer(ctx)
	if err != nil {
		return nil, err
	}
	snap, err := r.Engine.Match(ctx, matchID)
	if err != nil {
		return nil, err
	}
	last := int64(0)
	if after != nil {
		last = int64(*after)
	}
	if last < 0 || last > snap.Version {
		return nil, game.Reject(game.BadInput, "after=%d is outside the match, which has versions 0 to %d", last, snap.Version)
	}
	release, err := r.admitSubscription(ctx)
	if err != nil {
		return nil, err
	}
	stream := engine.MatchStream(matchID)
	n, stop := r.Hub.watch(stream) // before reading: a commit after this point wakes us
	out := make(chan *model.MatchEvent, 16)
	go func() {
		defer close(out)
		defer release()
		defer stop()
		defer r.Presence.attach(r.Engine, matchID, viewerID(p))()
		for {
			wake := n.Wait()
			evs, err := r.Engine.Store().ReadStream(ctx, stream, last, 256)
			if err != nil {
				if ctx.Err() == nil {
					slog.Warn("subscription stopped: reading the store failed", "match", matchID, "err", err)
				}
				return
			}
			if len(evs) > 0 {
				// Send nothing the read side has not applied yet, so a client that
				// queries the match after an event never sees the state before it.
				if err := r.ReadPos.WaitFor(ctx, evs[len(evs)-1].Position); err != nil {
					return
				}
				// The viewer comes from the match as it is now: at least as far as these
				// events, so a seat taken or a match ended is already known.
				snap, err := r.Engine.Match(ctx, matchID)
				if err != nil {
					return
				}
				r.Presence.here(r.Engine, snap.State, matchID, viewerID(p))
				viewer := projections.ViewerOf(snap.State, viewerID(p))
				for _, ev := range evs {
					if !deliver(ctx, r, out, eventModel(matchID, snap.Rules, viewer, ev), last) {
						return
					}
					last = ev.Version
				}
				if snap.State.Status == match.Finished && last == snap.Version {
					return // the match is over and fully delivered: complete
				}
				continue // there may be more
			}
			select {
			case <-wake:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// updates streams a match's view to a caller: now, then each time the read side moves
// it. The hub is fed after the projections, so a wake-up always finds the match applied.
func (r *Resolver) updates(ctx context.Context, matchID string) (<-chan *model.Match, error) {
	p, err := r.viewer(ctx)
	if err != nil {
		return nil, err
	}
	if r.Lobby.Get(matchID) == nil {
		return nil, r.noMatch(matchID)
	}
	release, err := r.admitSubscription(ctx)
	if err != nil {
		return nil, err
	}
	n, stop := r.Hub.watch(engine.MatchStream(matchID))
	out := make(chan *model.Match, 1)
	go func() {
		defer close(out)
		defer release()
		defer stop()
		defer r.Presence.attach(r.Engine, matchID, viewerID(p))()
		sent := int64(-1)
		for {
			wake := n.Wait() // before reading: a change after this point wakes us
			v := r.Lobby.Get(matchID)
			if !v.State.Settled(v.Rules) {
				v = nil // in the middle of a command's events: its last one wakes us again
			}
			if v != nil {
				r.Presence.here(r.Engine, v.State, matchID, viewerID(p))
			}
			if v != nil && v.Version > sent {
				if !deliver(ctx, r, out, matchModel(v, viewerID(p)), max(sent, 0)) {
					return
				}
				sent = v.Version
			}
			if v != nil && v.State.Status == match.Finished {
				return
			}
			select {
			case <-wake:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}
