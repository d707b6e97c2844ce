package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/dispute"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/graph/model"
	"github.com/arbiter-games/arbiter/projections"
)

// Disputes over the API (schema/disputes.graphqls): a reviewer reads the queue and any
// dispute, and rules; a player opens disputes on the matches it played, adds statements
// and reads its disputes. Whatever a reviewer sees of a match is asked for through
// projections.Viewer.Reviewing, never shown here.

// The page sizes of the lists of disputes (the reviewers' queue, a player's): the size
// without first, and the most first may ask.
const disputesPage, disputesPageMax = 50, 500

// reviewer returns the caller when it holds the reviewer role, else FORBIDDEN (or
// UNAUTHENTICATED without a token).
func (r *Resolver) reviewer(ctx context.Context) (engine.Player, error) {
	p, err := r.player(ctx)
	if err != nil {
		return engine.Player{}, err
	}
	return p, r.Engine.RequireReviewer(ctx, p.ID)
}

// disputeModel turns a dispute into the API's, for a caller who reads it as a reviewer
// (review) or as a player of its match. A reviewer who played the match reads it as its
// player does, wherever the dispute is listed (as reviewMatch shows it).
func disputeModel(x dispute.Dispute, of dispute.State, viewerID string, review bool) *model.Dispute {
	if of.Facts != nil && slices.Contains(of.Facts.Players, viewerID) {
		review = false
	}
	out := &model.Dispute{
		ID: x.ID, MatchID: of.Match, OpenedBy: x.By, Seat: x.Seat, Reason: x.Reason, Status: model.DisputeStatus(x.Status),
		Cites: citeModels(x.Cites), Statements: []*model.DisputeStatement{}, Result: resultModel(of.Result),
		ViewerID: viewerID, Review: review,
	}
	for _, st := range x.Statements {
		out.Statements = append(out.Statements, &model.DisputeStatement{By: st.By, Seat: st.Seat, Text: st.Text, Cites: citeModels(st.Cites)})
	}
	if x.Ruling != nil {
		rl := &model.DisputeRuling{Ruling: model.Ruling(x.Ruling.Ruling), Reviewer: x.Ruling.Reviewer, Before: resultModel(x.Ruling.Before), After: resultModel(x.Ruling.After)}
		if x.Ruling.Note != "" {
			note := x.Ruling.Note
			rl.Note = &note
		}
		out.Ruling = rl
	}
	return out
}

func citeModels(refs []dispute.Ref) []*model.DisputeCite {
	out := make([]*model.DisputeCite, 0, len(refs))
	for _, ref := range refs {
		c := &model.DisputeCite{Version: int(ref.Version)}
		if ref.Type != "" {
			t := ref.Type
			c.Type = &t
		}
		out = append(out, c)
	}
	return out
}

func resultModel(res dispute.Result) *model.DisputeResult {
	return &model.DisputeResult{Winners: append([]int{}, res.Winners...), Draw: !res.Void && len(res.Winners) == 0, Void: res.Void, Reason: res.Reason}
}

// disputeFor is a dispute as the caller may read it. Whether the caller may read it is
// decided before anything of the dispute is looked up (mayReadDisputes), so that a caller
// who may not read it is refused the same whether it exists or not: FORBIDDEN never tells
// a free account which dispute IDs exist. A caller who may read the match's disputes gets
// null for one that does not exist. The dispute comes from the store, so a player reads
// its own dispute at once after opening it.
func (r *Resolver) disputeFor(ctx context.Context, id string) (*model.Dispute, error) {
	p, err := r.player(ctx)
	if err != nil {
		return nil, err
	}
	matchID, _ := dispute.MatchOf(id) // an ID that does not parse names no match: refused alike
	review, err := r.mayReadDisputes(ctx, p.ID, matchID)
	if err != nil {
		return nil, err
	}
	if matchID == "" {
		return nil, nil // a reviewer's: no dispute has this ID
	}
	s, _, err := r.Engine.Disputes(ctx, matchID)
	if err != nil {
		return nil, err
	}
	x, ok := s.Find(id)
	if !ok {
		return nil, nil
	}
	return disputeModel(x, s, p.ID, review), nil
}

// errNotYourDispute refuses a dispute to a caller who may not read it, whether or not it
// exists.
var errNotYourDispute = game.Reject(game.Forbidden, "a dispute is shown to the players of its match and to reviewers alone (whether or not there is one with this ID)")

// mayReadDisputes tells whether the player may read the disputes of the match, and as a
// reviewer (review) or as its player; FORBIDDEN when it may not. It reads public facts
// alone (the match's seats, which anyone may read) and the caller's own role, never the
// match's disputes, so its answer betrays nothing of them.
func (r *Resolver) mayReadDisputes(ctx context.Context, playerID, matchID string) (review bool, err error) {
	review, err = r.Engine.Reviewer(ctx, playerID)
	if err != nil || review {
		return review, err
	}
	return false, r.playsIn(ctx, matchID, playerID)
}

// playsIn is nil when the player holds a seat in the match, else FORBIDDEN
// (errNotYourDispute), read from the match's public seats alone.
func (r *Resolver) playsIn(ctx context.Context, matchID, playerID string) error {
	if matchID == "" {
		return errNotYourDispute
	}
	v, err := r.Lobby.Get(ctx, matchID)
	if err != nil {
		return err
	}
	if v == nil {
		if err := r.Lobby.Unavailable(matchID); err != nil {
			return err // the match is set aside, which match(id) tells anyone too
		}
	}
	if v == nil || v.State.SeatOf(playerID) < 0 {
		return errNotYourDispute
	}
	return nil
}

// disputePayload answers a command on a dispute with the dispute, once the read side has
// applied it (a ruling's ratings are then visible to the caller's next query).
func (r *Resolver) disputePayload(ctx context.Context, ack engine.DisputeAck, id, viewerID string, review bool) (*model.DisputePayload, error) {
	if err := r.ReadPos.WaitFor(ctx, ack.Position); err != nil {
		return nil, fmt.Errorf("waiting for the read side: %w", err)
	}
	x, ok := ack.State.Find(id)
	if !ok {
		return nil, fmt.Errorf("dispute %s is not in what its command recorded", id)
	}
	return &model.DisputePayload{Dispute: disputeModel(x, ack.State, viewerID, review)}, nil
}

// listDisputes lists a page of the read side's disputes for a caller; a page asked after
// a dispute not in the list is BAD_USER_INPUT.
func listDisputes(ds *projections.Disputes, pg projections.Page, viewerID string, review bool) ([]*model.Dispute, error) {
	out := []*model.Dispute{}
	if ds == nil {
		return out, nil
	}
	page, err := ds.List(pg)
	if errors.Is(err, projections.ErrCursor) {
		return nil, game.Reject(game.BadInput, "after %q names no dispute of this list: give the id of the last dispute of the page before", pg.After)
	}
	if err != nil {
		return nil, err
	}
	for _, l := range page {
		out = append(out, disputeModel(l.Dispute, l.Of, viewerID, review))
	}
	return out, nil
}

// citedVersions turns the API's cited versions into the engine's.
func citedVersions(cite []int) []int64 {
	out := make([]int64, len(cite))
	for i, v := range cite {
		out[i] = int64(v)
	}
	return out
}
