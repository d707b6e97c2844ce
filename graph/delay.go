package graph

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/projections"
)

// spectatorDelay is how long a match holds its events back from a viewer: the match's
// spectatorDelay option for a viewer seated nowhere in it, never for its players.
func spectatorDelay(v *projections.MatchView, playerID string) time.Duration {
	if playerID != "" && v.State.SeatOf(playerID) >= 0 {
		return 0
	}
	d, _ := match.SpectatorDelay(v.State.Options) // checked when the match was created
	return d
}

// holdFor waits until an event of the given time may reach a viewer held back by delay
// (a timer releases the events in order), and reports false if ctx ended first.
func holdFor(ctx context.Context, at time.Time, delay time.Duration) bool {
	if delay <= 0 {
		return true
	}
	wait := time.Until(at.Add(delay))
	if wait <= 0 {
		return true
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// heldBack reports whether a viewer held back by delay sees v's match other than the read
// side holds it: from its start, and after its end until the end is older than the delay
// (the end, its result and its last moves are what the delay holds back last). A match
// waiting for players is shown as it is: nothing is played in it.
func heldBack(v *projections.MatchView, delay time.Duration) bool {
	switch {
	case delay <= 0:
		return false
	case v.State.Status == match.Live:
		return true
	case v.State.Status == match.Finished:
		return time.Now().Before(v.UpdatedAt.Add(delay))
	}
	return false
}

// delayedView returns a match as a spectator held back by delay may see it (heldBack): as
// of its last event older than the delay, folded from the store on demand (as an archived
// match's board is), and when the next event is due to be released (zero if none waits).
// A match not held back is shown as it is. The lobby shows a match through it too
// (lobby.go), its status, result and times included.
//
// The view is folded once each time it moves and shared by every caller (Resolver.delayed):
// each field that shows the match (a hundred aliases of match(id), a lobby page of
// delayed matches, many times over) folded the match's whole stream again, which let one
// request of a free account read and replay the store at will.
func (r *Resolver) delayedView(ctx context.Context, v *projections.MatchView, delay time.Duration) (*projections.MatchView, time.Time, error) {
	if delay <= 0 {
		return v, time.Time{}, nil
	}
	if !heldBack(v, delay) {
		r.delayed.forget(v.ID)
		return v, time.Time{}, nil
	}
	// An entry serves while the read side's view it was folded from is still the match's
	// and no held event is due: a new event, or the next release, folds it again.
	fresh := func(e delayedEntry) bool {
		return e.of == v && (e.due.IsZero() || time.Now().Before(e.due))
	}
	e, err := r.delayed.get(ctx, v.ID, fresh, func() (delayedEntry, bool, error) {
		dv, due, err := r.foldDelayed(ctx, v, delay)
		return delayedEntry{of: v, view: dv, due: due}, true, err
	})
	if err != nil {
		return nil, time.Time{}, err
	}
	return e.view, e.due, nil
}

// foldDelayed computes delayedView.
//
// A match waiting for players is shown live (delayedView), so the events before its
// start are shown whatever their age; the delay holds back the command that starts it
// and everything after. That command's first events (the last seat taken) were never
// shown either: the view goes back to the state before it, the one the lobby showed
// while the match waited. Were the last seat shown, a full match still waiting would
// tell that it had started.
func (r *Resolver) foldDelayed(ctx context.Context, v *projections.MatchView, delay time.Duration) (*projections.MatchView, time.Time, error) {
	cutoff := time.Now().Add(-delay)
	f := match.Folder{Games: r.Engine.Games()}
	out := &projections.MatchView{ID: v.ID, CreatedAt: v.CreatedAt}
	stream := matchstream.Name(v.ID)
	var (
		due    time.Time // when the first event held back is released
		folded error
		// before is the view before the command of the event being folded, which a
		// command is known by: its ID, its actor and its time (one for all its events).
		before  projections.MatchView
		command [3]string
	)
	_, err := r.eachEvent(ctx, stream, 0, v.Version, func(ev eventstore.Event) bool {
		if c := [3]string{ev.CommandID, ev.Actor, ev.Time.String()}; c != command {
			before, command = *out, c
		}
		// The first event (MatchCreated) is always shown: it holds no move.
		started := out.State.Status != match.Open || ev.Type == (match.MatchStarted{}).EventType()
		if out.Version > 0 && started && ev.Time.After(cutoff) {
			if out.State.Status == match.Open && before.Version > 0 {
				*out = before
			}
			due = next(ev, out.Version, v.Version, delay)
			return false
		}
		rules, st, err := f.Apply(v.ID, out.Rules, out.State, out.Version, matchstream.Record(ev))
		if err != nil {
			folded = err
			return false
		}
		out.Rules, out.State = rules, st
		out.Version, out.Position, out.UpdatedAt = ev.Version, ev.Position, ev.Time
		return true
	})
	switch {
	case err != nil:
		return nil, time.Time{}, fmt.Errorf("reading match %s for its delayed view: %w", v.ID, err)
	case folded != nil:
		return nil, time.Time{}, folded
	}
	return out, due, nil
}

// next is when the event after a delayed view is released, or zero when the view has
// caught up with the read side's.
func next(ev eventstore.Event, shown, latest int64, delay time.Duration) time.Time {
	if shown >= latest {
		return time.Time{}
	}
	return ev.Time.Add(delay)
}

// delayedEntry is the last delayed view of a live match with a spectator delay, kept in
// Resolver.delayed by match (the delay is the match's, so the view is the same for every
// viewer it holds back), with the read side's view it was folded from.
type delayedEntry struct {
	of, view *projections.MatchView
	due      time.Time // when the first held event is released; zero when none is held
}

// maxDelayedViews bounds the entries: a match that ends unread leaves its entry behind,
// and a full cache is emptied rather than grown (the next reads fold again).
const maxDelayedViews = 4096

// hiddenRematch reports whether v, a match the read side holds (or nil), does not exist yet for
// viewerID: the rematch of a match whose end the viewer does not see yet (heldBack by the
// match's delay). A rematch is created at the end of the match it follows, under an ID
// derived from it, so a rematch shown at once would tell a spectator held back by the
// delay that the match had ended: every surface that takes a match ID answers it as a
// match that does not exist until then (shownMatch, missing), and the lobby leaves it out.
func (r *Resolver) hiddenRematch(ctx context.Context, v *projections.MatchView, viewerID string) (bool, error) {
	if v == nil || v.State.RematchOf == "" || viewerID != "" && v.State.SeatOf(viewerID) >= 0 {
		return false, nil
	}
	of, err := r.Lobby.Get(ctx, v.State.RematchOf)
	if err != nil || of == nil {
		return false, err
	}
	return heldBack(of, spectatorDelay(of, viewerID)), nil
}

// shownMatch is the read side's view of match id, or nil when it holds none or the match
// does not exist yet for viewerID (hiddenRematch).
func (r *Resolver) shownMatch(ctx context.Context, id, viewerID string) (*projections.MatchView, error) {
	v, err := r.Lobby.Get(ctx, id)
	if err != nil || v == nil {
		return nil, err
	}
	if hidden, err := r.hiddenRematch(ctx, v, viewerID); err != nil || hidden {
		return nil, err
	}
	return v, nil
}

// notYet is the refusal of a match that does not exist when match id does not exist yet
// for viewerID (hiddenRematch), else nil: a command on it is refused so before the engine
// judges the live match, whose refusals would tell it apart from a missing one.
func (r *Resolver) notYet(ctx context.Context, id, viewerID string) error {
	v, err := r.Lobby.Get(ctx, id)
	if err != nil || v == nil {
		return err
	}
	if hidden, err := r.hiddenRematch(ctx, v, viewerID); err != nil || hidden {
		return cmp.Or(err, r.noMatch(id))
	}
	return nil
}

// missing is notYet for a command the engine refused with err: a command of a player
// seated nowhere in a match is refused FORBIDDEN (or CONFLICT) by the match's rules, which
// are only then checked against hiddenRematch, so that commands accepted cost nothing.
func (r *Resolver) missing(ctx context.Context, id, viewerID string, err error) error {
	if c := game.CodeOf(err); c != game.Forbidden && c != game.Conflict {
		return err
	}
	return cmp.Or(r.notYet(ctx, id, viewerID), err)
}
