package graph

import (
	"context"

	"github.com/arbiter-games/arbiter/graph/model"
)

// stateOf computes a match's state field (see matchResolver.State): the game's view for the
// caller, from projections.Viewer.View, null before the match is set up. The view is the
// state: each game's schema file binds its state type to its view type (@goModel), and
// model.GameState is an empty interface so that a view from domain/ can be a member.
func (r *Resolver) stateOf(ctx context.Context, obj *model.Match) (model.GameState, error) {
	gv, _, err := r.gameView(ctx, obj)
	if err != nil || gv == nil {
		return nil, err
	}
	return gv, nil
}
