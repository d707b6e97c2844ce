package graph

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/graph/model"
)

// stateTypes holds, by game ID, how each game's view (what projections.Viewer.View returns
// for the caller) is shown as its schema's state type, a member of the union GameState.
// Each game's graph file registers its own, so no shared code names a game.
var stateTypes = map[string]func(v game.View, c *catalog) (model.GameState, error){}

// stateOf computes a match's state field (see matchResolver.State): the game's state as
// the caller may see it, null before the match is set up.
func (r *Resolver) stateOf(ctx context.Context, obj *model.Match) (model.GameState, error) {
	gv, rules, err := r.gameView(ctx, obj)
	if err != nil || gv == nil {
		return nil, err
	}
	id := rules.Info().ID
	show, ok := stateTypes[id]
	if !ok {
		return nil, fmt.Errorf("game %s has no state type in the API", id)
	}
	return show(gv, catalogOf(rules))
}

// viewAs is a game's view as the game's own view type, or an error naming both.
func viewAs[V game.View](gv game.View) (V, error) {
	v, ok := gv.(V)
	if !ok {
		return v, fmt.Errorf("a view of type %T where %T was expected", gv, v)
	}
	return v, nil
}
