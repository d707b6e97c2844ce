package graph

import (
	"context"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/graph/model"
)

// seated answers a mutation that seated someone (the house bot, for addBot): once the
// read side has the command's events, the match as the viewer sees it and the seat of
// who sat down. err is the command's.
func (r *Resolver) seated(ctx context.Context, ack engine.Ack, err error, sitter, viewerID string) (*model.JoinPayload, error) {
	if err != nil {
		return nil, err
	}
	v, err := r.matchView(ctx, ack.MatchID, ack.LastPosition)
	if err != nil {
		return nil, err
	}
	return &model.JoinPayload{Seat: v.State.SeatOf(sitter), Match: matchModel(v, viewerID)}, nil
}
