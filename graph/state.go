package graph

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/graph/model"
)

// stateTypes holds, by game ID, how a game's view (what projections.Viewer.View returns for
// the caller) is shown as its schema's state type, a member of the union GameState, when
// the view is not that type itself. A game whose schema binds its state type to its view
// type (@goModel, as classic chess does) registers nothing: its view is its state. A game
// whose view needs shaping for the API (seats -1 shown as null, card IDs shown as catalog
// cards) registers its own in its graph file, so no shared code names a game.
var stateTypes = map[string]func(v game.View, c *catalog) (model.GameState, error){}

// stateOf computes a match's state field (see matchResolver.State): the game's state as
// the caller may see it, null before the match is set up.
func (r *Resolver) stateOf(ctx context.Context, obj *model.Match) (model.GameState, error) {
	gv, rules, err := r.gameView(ctx, obj)
	if err != nil || gv == nil {
		return nil, err
	}
	if show, ok := stateTypes[rules.Info().ID]; ok {
		return show(gv, catalogOf(rules))
	}
	return gv, nil
}

// viewAs is a game's view as the game's own view type, or an error naming both.
func viewAs[V game.View](gv game.View) (V, error) {
	v, ok := gv.(V)
	if !ok {
		return v, fmt.Errorf("a view of type %T where %T was expected", gv, v)
	}
	return v, nil
}
