package graph

import (
	"context"
	"reflect"
	"strings"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/graph/model"
)

// oneAction is the game action an ActionInput gives. Each field of ActionInput is bound
// (@goModel) to an action type: the core's (game.Move, game.Choose) or a game's own, added
// by its schema file, so that a game's action reaches its rules with no resolver of its
// own. The input is @oneOf, but gqlparser does not hold a variable to that, so the count is
// checked here.
func oneAction(in model.ActionInput) (any, error) {
	var do any
	var given []string
	v := reflect.ValueOf(in)
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.Pointer || f.IsNil() {
			continue
		}
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		given = append(given, name)
		do = f.Elem().Interface()
	}
	if len(given) != 1 {
		return nil, game.Reject(game.BadInput, "give exactly one field of action, not %d (%s)", len(given), strings.Join(given, ", "))
	}
	return do, nil
}

// do has the caller's seat take a game's own action: the body of a game's named
// shorthand mutation (Solwaris's placeFighter, bid...), which act(action:) also takes.
func (r *Resolver) do(ctx context.Context, matchID string, commandID *string, do any) (*model.ActionPayload, error) {
	do = r.recalled(ctx, do)
	return r.act(ctx, matchID, commandID, func(id string) match.Command { return match.Act{PlayerID: id, Do: do} })
}

// recalled is do with its player's last choice when do leaves its choice out
// (game.Recalling), as the Choices read model remembers it; do itself otherwise. A caller
// without a player is refused by act, with the error of any other action.
func (r *Resolver) recalled(ctx context.Context, do any) any {
	rc, ok := do.(game.Recalling)
	if !ok || r.Choices == nil {
		return do
	}
	gameID, key, omitted := rc.Recalls()
	if !omitted {
		return do
	}
	p, err := r.player(ctx)
	if err != nil {
		return do
	}
	values, _ := r.Choices.Last(p.ID, gameID, key)
	return rc.Recall(values)
}
