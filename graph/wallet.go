package graph

import (
	"context"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/graph/model"
)

// wallet is a player's wallet, for that player alone: a wallet says what a player can
// stake and bid, which an opponent must not learn.
func (r *Resolver) wallet(ctx context.Context, playerID string) (*model.Wallet, error) {
	p, err := r.player(ctx)
	if err != nil {
		return nil, err
	}
	if p.ID != playerID {
		return nil, game.Reject(game.Forbidden, "a wallet is shown to its player alone: read yours as me { wallet }")
	}
	w, err := r.Engine.Wallet(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	out := &model.Wallet{Balance: int(w.State.Balance), Held: []*model.WalletHold{}, Entries: make([]*model.WalletEntry, len(w.Entries))}
	for _, h := range w.State.Holds {
		out.Held = append(out.Held, &model.WalletHold{MatchID: h.Match, Amount: int(h.Amount)})
	}
	for i, e := range w.Entries {
		out.Entries[i] = &model.WalletEntry{Amount: int(e.Amount), Reason: e.Reason, At: e.At}
		if e.Match != "" {
			out.Entries[i].MatchID = &e.Match
		}
	}
	return out, nil
}
