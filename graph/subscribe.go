package graph

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/graph/model"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/projections"
)

// catchUpPage is how many events a subscriber behind its match's feed reads from the
// store at a time: one size, so the store's prepared statement is never recompiled.
const catchUpPage = 256

// subscribe streams a match's events after a version. The live events come from the
// match's feed (see feed), shared by every subscriber on this node; a subscriber behind
// the feed's ring reads what it misses from the store, then joins the ring at the next
// version: no gap and no duplicate at the seam. Nothing here takes the match's lock: the
// state comes from the read side, which has applied every event the feed holds.
func (r *Resolver) subscribe(ctx context.Context, matchID string, after *int) (<-chan *model.MatchEvent, error) {
	p, err := r.viewer(ctx)
	if err != nil {
		return nil, err
	}
	last := int64(0)
	if after != nil {
		last = int64(*after)
	}
	stream := matchstream.Name(matchID)
	if err := r.checkAfter(ctx, matchID, viewerID(p), stream, last); err != nil {
		return nil, err
	}
	release, err := r.admitSubscription(ctx)
	if err != nil {
		return nil, err
	}
	if ch, ok := joinLive[*model.MatchEvent](ctx, r, liveEvents, matchID, last, release); ok {
		return ch, nil
	}
	f, stop := r.Hub.watch(stream, !forGroup(ctx)) // before reading: an event applied after this point wakes us
	out := make(chan *model.MatchEvent, 16)
	go func() {
		defer close(out)
		defer release()
		defer stop()
		defer r.Presence.attach(r.Engine, matchID, viewerID(p))()
		// For a viewer held back by a delay: the version its delayed view showed when last
		// read, and whether an event past it has come (the delayed view is not read again
		// after it: every event from then on waits for its delay).
		shown, past := int64(0), false
		for {
			wake := f.n.Wait()
			evs, inRing := f.after(last)
			evs, err := f.complete(ctx, evs, func(ctx context.Context) (int64, error) {
				return r.Engine.Store().StreamVersion(ctx, stream)
			})
			if err != nil {
				if ctx.Err() == nil {
					slog.Warn("subscription stopped: reading the store failed", "match", matchID, "err", err)
				}
				return
			}
			v, err := r.Lobby.Get(ctx, matchID) // after the ring: the read side has applied all of evs
			if err != nil {
				if ctx.Err() == nil {
					slog.Warn("subscription stopped: reading the match failed", "match", matchID, "err", err)
				}
				return
			}
			if v == nil {
				return // set aside since: nothing more to stream
			}
			if !inRing && v.Version > last {
				stored, err := r.Engine.Store().ReadStream(ctx, stream, last, catchUpPage)
				if err != nil {
					if ctx.Err() == nil {
						slog.Warn("subscription stopped: reading the store failed", "match", matchID, "err", err)
					}
					return
				}
				if len(stored) == 0 {
					return // the read side holds events the store does not: nothing sane to send
				}
				// Send nothing the read side has not applied yet, so a client that
				// queries the match after an event never sees the state before it.
				if err := r.ReadPos.WaitFor(ctx, stored[len(stored)-1].Position); err != nil {
					return
				}
				if v, err = r.Lobby.Get(ctx, matchID); err != nil || v == nil {
					return // set aside since, or the store failed as it did just above
				}
				evs = make([]*sharedEvent, len(stored))
				for i, ev := range stored {
					evs[i] = &sharedEvent{ev: ev}
				}
			}
			if len(evs) > 0 {
				r.Presence.here(r.Engine, v.State, matchID, viewerID(p))
				viewer := projections.ViewerOf(v.State, viewerID(p))
				delay := spectatorDelay(v, viewerID(p))
				if delay > 0 && !past {
					// What the delayed view shows goes at once: the events before the
					// command that starts the match, whatever their age, as match(id)
					// shows them. From that command on, each event waits for its delay.
					dv, _, err := r.delayedView(ctx, v, delay)
					if err != nil {
						if ctx.Err() == nil {
							slog.Warn("subscription stopped: folding the delayed view failed", "match", matchID, "err", err)
						}
						return
					}
					shown = dv.Version
				}
				for _, s := range evs {
					past = past || s.ev.Version > shown
					if past && !holdFor(ctx, s.ev.Time, delay) {
						return
					}
					// Each event as of its version: the stream is the same whenever it is read.
					shown := s.shown(matchID, v.Rules, viewer.AsOf(v.EndedAt, s.ev.Version))
					noteLive(ctx, s.ev.Version)
					if !deliver(ctx, r, out, shown, last) {
						return
					}
					last = s.ev.Version
				}
				continue // there may be more
			}
			if v.State.Status == match.Finished && v.State.Settled(v.Rules) && last >= v.Version {
				return // the match is over and fully delivered: complete
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

// checkAfter refuses a subscription from a version the match does not have. The read
// side answers first; only a version past it (a node whose read side lags the store) is
// checked against the store's, which takes no lock either. A match the store holds and
// this node's read side has not applied yet (created on another node a moment ago) is
// waited for, so the subscription starts from the match and does not find it missing.
// A viewer held back by a spectator delay may resume from the versions it sees alone:
// were the live ones taken, or named in the refusal, trying afters one by one would
// count the events the delay holds back.
func (r *Resolver) checkAfter(ctx context.Context, matchID, playerID, stream string, after int64) error {
	if after < 0 {
		return game.Reject(game.BadInput, "after=%d is outside the match: versions start at 0", after)
	}
	if v, err := r.Lobby.Get(ctx, matchID); err != nil {
		return err
	} else if hidden, err := r.hiddenRematch(ctx, v, playerID); err != nil || hidden {
		return cmp.Or(err, r.noMatch(matchID))
	} else if v != nil && heldBack(v, spectatorDelay(v, playerID)) {
		delay := spectatorDelay(v, playerID)
		dv, _, err := r.delayedView(ctx, v, delay)
		if err != nil {
			return err
		}
		if after > dv.Version {
			return game.Reject(game.BadInput, "after=%d is outside the match as a spectator sees it, %v behind: versions 0 to %d", after, delay, dv.Version)
		}
		return nil
	} else if v != nil && after <= v.Version {
		return nil
	}
	if err := r.Lobby.Unavailable(matchID); err != nil {
		return err
	}
	head, err := r.Engine.Store().StreamVersion(ctx, stream)
	if err != nil {
		return fmt.Errorf("reading the version of match %s: %w", matchID, err)
	}
	if head == 0 {
		return r.noMatch(matchID)
	}
	if after > head {
		return game.Reject(game.BadInput, "after=%d is outside the match, which has versions 0 to %d", after, head)
	}
	if v, err := r.Lobby.Get(ctx, matchID); err != nil || v != nil {
		return err
	}
	evs, err := r.Engine.Store().ReadStream(ctx, stream, head-1, 1)
	if err != nil {
		return fmt.Errorf("reading event %d of match %s: %w", head, matchID, err)
	}
	if len(evs) == 0 {
		return r.noMatch(matchID)
	}
	if err := r.ReadPos.WaitFor(ctx, evs[0].Position); err != nil {
		return fmt.Errorf("waiting for the read side to apply match %s: %w", matchID, err)
	}
	if v, err := r.Lobby.Get(ctx, matchID); err != nil {
		return err
	} else if v == nil {
		return r.noMatch(matchID) // set aside as it was applied
	}
	return nil
}

// updates streams a match's view to a caller: now, then each time the read side moves
// it. The hub is fed after the projections, so a wake-up always finds the match applied.
// The model of each version is built once per viewer class and shared (feed.updates).
func (r *Resolver) updates(ctx context.Context, matchID string) (<-chan *model.Match, error) {
	p, err := r.viewer(ctx)
	if err != nil {
		return nil, err
	}
	if v, err := r.shownMatch(ctx, matchID, viewerID(p)); err != nil {
		return nil, err
	} else if v == nil {
		return nil, r.noMatch(matchID)
	}
	release, err := r.admitSubscription(ctx)
	if err != nil {
		return nil, err
	}
	if ch, ok := joinLive[*model.Match](ctx, r, liveUpdates, matchID, 0, release); ok {
		return ch, nil
	}
	f, stop := r.Hub.watch(matchstream.Name(matchID), !forGroup(ctx))
	out := make(chan *model.Match, 1)
	go func() {
		defer close(out)
		defer release()
		defer stop()
		team := r.teamFeed(matchID, -1) // watched from the loop's first turn on
		defer func() { team.stop() }()
		defer r.Presence.attach(r.Engine, matchID, viewerID(p))()
		sent, sentCovert := int64(-1), int64(0)
		held := time.NewTimer(0) // fires when a spectator delay releases the next event
		defer held.Stop()
		for {
			// The viewer's team is read again each time: a player who subscribed before
			// taking its seat watches its team's hidden stream from the moment it is
			// seated (its seat is a public event, which wakes us).
			t, err := r.teamOf(ctx, matchID, viewerID(p))
			if err != nil {
				if ctx.Err() == nil {
					slog.Warn("subscription stopped: reading the match failed", "match", matchID, "err", err)
				}
				return
			}
			if t != team.team {
				team.stop()
				team, sentCovert = r.teamFeed(matchID, t), 0
			}
			wake := f.n.Wait() // before reading: a change after this point wakes us
			var covert <-chan struct{}
			if team.feed != nil {
				covert = team.feed.n.Wait()
			}
			v, err := r.Lobby.Get(ctx, matchID)
			if err != nil {
				if ctx.Err() == nil {
					slog.Warn("subscription stopped: reading the match failed", "match", matchID, "err", err)
				}
				return
			}
			if v == nil {
				return // set aside since
			}
			if delay := spectatorDelay(v, viewerID(p)); delay > 0 {
				dv, next, err := f.updates.delayed(ctx, r, v, delay)
				if err != nil {
					slog.Warn("subscription stopped: folding the delayed view failed", "match", matchID, "err", err)
					return
				}
				if v = dv; !next.IsZero() {
					held.Reset(time.Until(next))
				}
			}
			if !v.State.Settled(v.Rules) {
				v = nil // in the middle of a command's events: its last one wakes us again
			}
			if v != nil {
				r.Presence.here(r.Engine, v.State, matchID, viewerID(p))
			}
			// A covert event of the viewer's team changes what it sees without moving the
			// match's version: it is sent again at that version. Nobody else is woken.
			if v != nil && (v.Version > sent || team.feed != nil && v.At.HiddenVersion(team.team) > sentCovert) {
				noteLive(ctx, v.Version)
				class, err := r.updateClass(ctx, v, viewerID(p))
				if err != nil {
					if ctx.Err() == nil {
						slog.Warn("subscription stopped: reading the rematch failed", "match", matchID, "err", err)
					}
					return
				}
				if !deliver(ctx, r, out, f.updates.model(v, class), max(sent, 0)) {
					return
				}
				sent = v.Version
				if team.feed != nil {
					sentCovert = v.At.HiddenVersion(team.team)
				}
			}
			if v != nil && v.State.Status == match.Finished {
				return
			}
			select {
			case <-wake:
			case <-covert:
			case <-held.C:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// teamWatch is the feed of the hidden stream of a seated player's team; its feed is nil
// for anyone else or a match without hidden streams.
type teamWatch struct {
	feed *feed
	team int // -1 without a feed
	stop func()
}

// teamOf is the team whose hidden stream (matchstream.Hidden) playerID watches in the
// match: its own when it is seated in a match whose rules keep them, else -1.
func (r *Resolver) teamOf(ctx context.Context, matchID, playerID string) (int, error) {
	v, err := r.Lobby.Get(ctx, matchID)
	if err != nil || v == nil || playerID == "" || v.Rules == nil || !matchstream.Covering(v.Rules, v.State.Plan) {
		return -1, err
	}
	if teams := projections.ViewerOf(v.State, playerID).Teams; len(teams) > 0 {
		return teams[0], nil
	}
	return -1, nil
}

// teamFeed watches the hidden stream of team in the match (none for -1), so that its
// covert events (a team signal) reach its player at once; stop stops watching.
func (r *Resolver) teamFeed(matchID string, team int) teamWatch {
	if team < 0 {
		return teamWatch{team: -1, stop: func() {}}
	}
	f, stop := r.Hub.watch(matchstream.Hidden(matchID, team), false)
	return teamWatch{feed: f, team: team, stop: stop}
}

// updateClass is the viewer class of a player for matchUpdates: its player ID when it
// holds a seat in the match or in its rematch (mySeat, hand and the events it may see
// depend on them), else "": every field of a Match reads the same for a spectator and
// for a player seated in neither.
func (r *Resolver) updateClass(ctx context.Context, v *projections.MatchView, playerID string) (string, error) {
	if playerID == "" || v.State.SeatOf(playerID) >= 0 {
		return playerID, nil
	}
	rm, err := r.Lobby.Get(ctx, match.RematchID(v.ID))
	if err != nil {
		return "", err
	}
	if rm != nil && rm.State.SeatOf(playerID) >= 0 {
		return playerID, nil
	}
	return "", nil
}
