package graph

import (
	"context"
	"time"

	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/graph/model"
	"github.com/arbiter-games/arbiter/projections"
)

// lobby returns a page of the lobby as viewerID sees it: each match as the match query
// shows it to the viewer (delayedView), and, with a status filter, the matches the viewer
// sees in that status. A spectator held back by a match's delay sees it waiting for
// players until its delayed view shows the start, and live until it shows the end: the
// lobby tells no more of a delayed match than the match's own fields, nor sooner. The
// players of the match, and whoever sees it undelayed, list it by its live status.
//
// A page holds f.Limit matches whenever the lobby has that many after the cursor: the
// matches a status filter leaves out are read past, not counted, so a short page cannot
// tell that a match was left out. The order, newest first, does not depend on the
// status, so a cursor names the same place for every viewer.
func (r *Resolver) lobby(ctx context.Context, viewerID string, f projections.Filter) ([]*model.Match, error) {
	want, n := f.Status, f.Limit
	if want != "" {
		now := time.Now()
		f.May = func(v *projections.MatchView) bool { return mayShow(v, spectatorDelay(v, viewerID), want, now) }
	}
	out := make([]*model.Match, 0, n)
	seen := map[string]bool{}
	for len(out) < n {
		f.Limit = n - len(out)
		views, err := r.Lobby.List(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, v := range views {
			if seen[v.ID] {
				return out, nil // the cursor was set aside since: the listing began again
			}
			seen[v.ID] = true
			if hidden, err := r.hiddenRematch(ctx, v, viewerID); err != nil {
				return nil, err
			} else if hidden {
				continue // read past, as a match the status filter leaves out
			}
			shown, _, err := r.delayedView(ctx, v, spectatorDelay(v, viewerID))
			if err != nil {
				return nil, err
			}
			if want == "" || shown.State.Status == want {
				out = append(out, matchModel(shown, viewerID))
			}
		}
		if len(views) < f.Limit {
			break // the lobby has no more
		}
		f.After = views[len(views)-1].ID
	}
	return out, nil
}

// lobbySlack is how far mayShow errs towards listing around a delayed match's start: the
// match's start time (match.State.StartedAt) is the engine's, the delayed view's the store's.
const lobbySlack = time.Minute

// mayShow guesses, from v alone and erring towards yes, whether a viewer held back by
// delay sees v's match in the status want at now; lobby checks each match it lists against
// the delayed view itself. The delayed view shows the start once the start's event is
// older than the delay, and the end once the match's last event is (heldBack).
func mayShow(v *projections.MatchView, delay time.Duration, want match.Status, now time.Time) bool {
	st := v.State.Status
	if delay <= 0 || st != match.Live && st != match.Finished {
		return st == want
	}
	cutoff := now.Add(-delay)
	switch want {
	case match.Open:
		return v.State.StartedAt.After(cutoff.Add(-lobbySlack))
	case match.Live:
		return v.State.StartedAt.Before(cutoff.Add(lobbySlack)) && (st == match.Live || v.UpdatedAt.After(cutoff))
	case match.Finished:
		return st == match.Finished && v.State.StartedAt.Before(cutoff.Add(lobbySlack))
	}
	return false
}
