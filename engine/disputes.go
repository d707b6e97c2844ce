package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/dispute"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/player"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// Disputes: every dispute of a match is on the match's dispute stream (dispute-<matchID>),
// decided by domain/dispute on the stream as stored, at its version. Opening one reads the
// finished match's facts from its own stream and hands them to the decider; ruling needs
// the reviewer role, a fact of the reviewer's player stream (ReviewerGranted).

// Reviewer reports whether a player holds the reviewer role. It reads the player's stream
// from the store at each call, so that a role granted or revoked from the command line, by
// another process on the same store, counts at once.
func (e *Engine) Reviewer(ctx context.Context, playerID string) (bool, error) {
	is, _, err := e.reviewerAt(ctx, playerID)
	return is, err
}

// reviewerAt is Reviewer and the version of the player's stream it read.
func (e *Engine) reviewerAt(ctx context.Context, playerID string) (bool, int64, error) {
	evs, err := e.cfg.Store.ReadStream(ctx, PlayerStream(playerID), 0, 0)
	if err != nil {
		return false, 0, notApplied(storeError("reading a player", err))
	}
	if len(evs) == 0 {
		return false, 0, game.Reject(game.NotFound, "no player %q", playerID)
	}
	decoded := make([]game.Event, 0, len(evs))
	for _, ev := range evs {
		d, err := player.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
		if err != nil {
			return false, 0, notApplied(fmt.Errorf("engine: player %s at version %d: %w", playerID, ev.Version, err))
		}
		decoded = append(decoded, d)
	}
	return player.Reviewer(decoded), evs[len(evs)-1].Version, nil
}

// SetReviewer grants (on) or revokes the reviewer role of a player; a player who already
// stands so is left as it is. by says who did it ("operator" from the command line).
func (e *Engine) SetReviewer(ctx context.Context, playerID string, on bool, by string) (changed bool, err error) {
	for attempt := 0; attempt < e.cfg.MaxRetries; attempt++ {
		is, version, err := e.reviewerAt(ctx, playerID)
		if err != nil || is == on {
			return false, err
		}
		var ev game.Event = player.ReviewerRevoked{By: by}
		if on {
			ev = player.ReviewerGranted{By: by}
		}
		_, err = e.appendOne(ctx, PlayerStream(playerID), version, fmt.Sprintf("reviewer:%s:%d", playerID, version+1), player.Events, ev, "operator")
		var conflict *eventstore.VersionConflict
		if errors.As(err, &conflict) {
			continue
		}
		return err == nil, err
	}
	return false, game.Reject(game.Conflict, "the player's stream kept changing; try again")
}

// appendOne appends one server-only event at the stream's expected version.
func (e *Engine) appendOne(ctx context.Context, stream string, expected int64, id string, codec *game.Codec, ev game.Event, actor string) (eventstore.AppendResult, error) {
	payload, err := game.Encode(ev)
	if err != nil {
		return eventstore.AppendResult{}, notApplied(err)
	}
	res, err := e.cfg.Store.Append(ctx, stream, expected, eventstore.Proposed{
		ID: id, Type: ev.EventType(), SchemaVersion: codec.Schema(ev.EventType()), Payload: payload,
		CommandID: id, Actor: actor, Visibility: visibility.Server, Time: e.now(),
	})
	var conflict *eventstore.VersionConflict
	if err != nil && !errors.As(err, &conflict) {
		return res, appendError("appending to "+stream, err)
	}
	return res, err
}

// Disputes folds a match's dispute stream as stored.
func (e *Engine) Disputes(ctx context.Context, matchID string) (dispute.State, int64, error) {
	evs, err := e.cfg.Store.ReadStream(ctx, dispute.Stream(matchID), 0, 0)
	if err != nil {
		return dispute.State{}, 0, notApplied(storeError("reading disputes", err))
	}
	var s dispute.State
	var version int64
	for _, ev := range evs {
		d, err := dispute.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
		if err != nil {
			return dispute.State{}, 0, notApplied(fmt.Errorf("engine: disputes of %s at version %d: %w", matchID, ev.Version, err))
		}
		s, version = dispute.Evolve(s, d), ev.Version
	}
	return s, version, nil
}

// DisputeAck is what a command on a dispute stream recorded: the stream's state after it,
// the event, and its global position (for a reader that waits for the read side).
type DisputeAck struct {
	State    dispute.State
	Event    game.Event
	Position int64
}

// disputeDo decides a command on a match's dispute stream and appends what it records,
// deciding again when another command won the stream's version.
func (e *Engine) disputeDo(ctx context.Context, matchID, actor string, cmd dispute.Command) (DisputeAck, error) {
	stream := dispute.Stream(matchID)
	for attempt := 0; attempt < e.cfg.MaxRetries; attempt++ {
		s, version, err := e.Disputes(ctx, matchID)
		if err != nil {
			return DisputeAck{}, err
		}
		evs, err := dispute.Decide(s, cmd)
		if err != nil {
			return DisputeAck{State: s}, err
		}
		res, err := e.appendOne(ctx, stream, version, fmt.Sprintf("dispute:%s:%d", matchID, version+1), dispute.Events, evs[0], actor)
		var conflict *eventstore.VersionConflict
		switch {
		case errors.As(err, &conflict):
			continue
		case err != nil:
			return DisputeAck{State: s}, err
		}
		return DisputeAck{State: dispute.Evolve(s, evs[0]), Event: evs[0], Position: res.LastPosition}, nil
	}
	return DisputeAck{}, game.Reject(game.Conflict, "the disputes of match %s kept changing under this command; send it again", matchID)
}

// evidence is the match's events a dispute cites by itself: who left and came back, who
// offered, accepted or declined a draw, resigned or forfeited, every timeout, and the end.
var evidence = map[string]bool{
	"SeatLeft": true, "SeatReturned": true, "Forfeited": true, "DrawOffered": true, "DrawAccepted": true,
	"DrawDeclined": true, "Resigned": true, "MatchEnded": true,
}

// OpenDispute opens a dispute on a finished match for one of its players, citing by
// itself the match's events of evidence (disconnections, offers, timeouts) and the
// versions the player cites.
func (e *Engine) OpenDispute(ctx context.Context, matchID, playerID, reason string, cites []int64) (DisputeAck, error) {
	snap, err := e.Match(ctx, matchID)
	if err != nil {
		return DisputeAck{}, err
	}
	// Refused before the match's events are read, as the dispute's own rules would refuse
	// it after: anyone else learns nothing of them (a cite past the end named how many
	// there are, which a spectator delay holds back), and costs no read of the whole match.
	switch {
	case snap.State.SeatOf(playerID) < 0:
		return DisputeAck{}, game.Reject(game.Forbidden, "only a player of match %s may dispute it", matchID)
	case snap.State.Status != match.Finished:
		return DisputeAck{}, game.Reject(game.Conflict, "match %s is not finished: a result can be disputed once there is one", matchID)
	}
	evs, err := e.cfg.Store.ReadStream(ctx, matchstream.Name(matchID), 0, 0)
	if err != nil {
		return DisputeAck{}, notApplied(storeError("reading a match", err))
	}
	var refs []dispute.Ref
	for _, ev := range evs {
		if ev.Visibility.IsPublic() && (evidence[ev.Type] || strings.Contains(ev.Type, "TimedOut") || strings.Contains(ev.Type, "Timeout")) && len(refs) < dispute.MaxCites/2 {
			refs = append(refs, dispute.Ref{Version: ev.Version, Type: ev.Type})
		}
	}
	cited, err := citesOf(evs, cites)
	if err != nil {
		return DisputeAck{}, err
	}
	st := snap.State
	f := dispute.Facts{Game: st.Game, Teams: st.Plan.Teams, Rated: st.Rated, Version: snap.Version}
	f.Stake, _ = match.Stake(st.Options)
	for _, seat := range st.Seats {
		f.Players = append(f.Players, seat.PlayerID)
	}
	if st.Result != nil {
		f.Result = dispute.Result{Winners: st.Result.Winners, Reason: st.Result.Reason, Void: match.Void(st.Result.Reason)}
		if f.Result.Winners == nil {
			f.Result.Winners = []int{}
		}
	}
	return e.disputeDo(ctx, matchID, "player:"+playerID, dispute.OpenDispute{
		Match: matchID, Player: playerID, Reason: reason, Cites: append(refs, cited...), Facts: f, Finished: st.Status == match.Finished,
	})
}

// citesOf turns the versions a player cites into references; the type of an event the
// player may not have seen is not recorded, so that citing it tells its opponent nothing.
func citesOf(evs []eventstore.Event, versions []int64) ([]dispute.Ref, error) {
	if len(versions) > dispute.MaxCites/2 {
		return nil, game.Reject(game.BadInput, "%d events cited: at most %d", len(versions), dispute.MaxCites/2)
	}
	var out []dispute.Ref
	for _, v := range versions {
		if v < 1 || v > int64(len(evs)) {
			return nil, game.Reject(game.BadInput, "event %d: the match has events 1 to %d", v, len(evs))
		}
		r := dispute.Ref{Version: v}
		if evs[v-1].Visibility.IsPublic() {
			r.Type = evs[v-1].Type
		}
		out = append(out, r)
	}
	return out, nil
}

// AddStatement adds a player's statement to an open dispute.
func (e *Engine) AddStatement(ctx context.Context, disputeID, playerID, text string, cites []int64) (DisputeAck, error) {
	matchID, ok := dispute.MatchOf(disputeID)
	if !ok {
		return DisputeAck{}, game.Reject(game.NotFound, "no dispute %q", disputeID)
	}
	evs, err := e.cfg.Store.ReadStream(ctx, matchstream.Name(matchID), 0, 0)
	if err != nil {
		return DisputeAck{}, notApplied(storeError("reading a match", err))
	}
	cited, err := citesOf(evs, cites)
	if err != nil {
		return DisputeAck{}, err
	}
	return e.disputeDo(ctx, matchID, "player:"+playerID, dispute.AddStatement{Dispute: disputeID, Player: playerID, Text: text, Cites: cited})
}

// RuleDispute records a reviewer's ruling; FORBIDDEN for a player without the role.
func (e *Engine) RuleDispute(ctx context.Context, disputeID, reviewerID string, ruling dispute.Ruling, seat int, note string) (DisputeAck, error) {
	if err := e.RequireReviewer(ctx, reviewerID); err != nil {
		return DisputeAck{}, err
	}
	matchID, ok := dispute.MatchOf(disputeID)
	if !ok {
		return DisputeAck{}, game.Reject(game.NotFound, "no dispute %q", disputeID)
	}
	return e.disputeDo(ctx, matchID, "player:"+reviewerID, dispute.Rule{Dispute: disputeID, Reviewer: reviewerID, Ruling: ruling, Seat: seat, Note: note})
}

// RequireReviewer is FORBIDDEN unless the player holds the reviewer role.
func (e *Engine) RequireReviewer(ctx context.Context, playerID string) error {
	ok, err := e.Reviewer(ctx, playerID)
	if err != nil {
		return err
	}
	if !ok {
		return game.Reject(game.Forbidden, "only a reviewer may do this: an operator grants the role with `arbiter grant-reviewer`")
	}
	return nil
}

// CorrectWallet moves the coins a ruling on a disputed match gives (amount > 0) or takes
// back (amount < 0) from a player's wallet, once per ruling: the event's ID is derived from
// the dispute, and a wallet corrected for it before decides nothing.
func (e *Engine) CorrectWallet(ctx context.Context, playerID, matchID, disputeID string, amount int64, reason string) error {
	_, err := e.walletDo(ctx, playerID, "", func(wallet.State) (wallet.Command, error) {
		return wallet.Correct{Player: playerID, Match: matchID, Dispute: disputeID, Amount: amount, Reason: reason}, nil
	})
	return err
}
