package engine

import (
	"context"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// Rematch offers or accepts the rematch of a finished match: the same game, options and
// rating, with the seats turned by one (colours swapped in a two-player game), or as the
// game reseats them (game.Reseating: teams that stay together). The first player to ask
// opens the rematch and sits at their new seat; each other player's call seats them the
// same way, and the rematch starts once every seat is taken, as any match does. Its seats
// are kept for the players of the finished match: nobody else may join it. Asking again
// returns the rematch unchanged (Duplicate).
func (e *Engine) Rematch(ctx context.Context, matchID, playerID, name string, meta Meta) (Ack, error) {
	return e.RematchWith(ctx, matchID, playerID, name, nil, meta)
}

// RematchWith is Rematch with the entropy the player brings to its seat (match.Join's;
// nil: the server draws it).
func (e *Engine) RematchWith(ctx context.Context, matchID, playerID, name string, entropy []byte, meta Meta) (Ack, error) {
	old, err := e.Match(ctx, matchID)
	if err != nil {
		return Ack{}, err
	}
	seat := old.State.SeatOf(playerID)
	switch {
	case seat < 0:
		return Ack{}, game.Reject(game.Forbidden, "only the players of match %s may ask for its rematch", matchID)
	case old.State.Status != match.Finished:
		return Ack{}, game.Reject(game.Conflict, "match %s is not over: a rematch follows a finished match", matchID)
	case !old.State.Started():
		// Its seats would be kept for players who never sat, and it could never start.
		return Ack{}, game.Reject(game.Conflict, "match %s was cancelled before it started: there is nothing to play again; create a match instead", matchID)
	}
	to, err := game.RematchSeats(old.Rules, old.State.Plan)
	if err != nil {
		return Ack{}, err
	}
	id := match.RematchID(matchID)
	seed, err := e.randomBytes(32)
	if err != nil {
		return Ack{}, err
	}
	reserved := make([]string, len(to)) // each player at their new seat
	for i, s := range old.State.Seats {
		reserved[to[i]] = s.PlayerID
	}
	create := match.Create{Game: old.State.Game, Options: old.State.Options, Rated: old.State.Rated, By: playerID, Seed: seed, At: e.now(), RematchOf: matchID, Reserved: reserved, Abandon: e.cfg.Abandon}
	if _, err := e.handle(ctx, id, old.Rules, create, Meta{Actor: meta.Actor}); err != nil && game.CodeOf(err) != game.Conflict {
		return Ack{}, err
	} // a conflict: another player opened it first
	next, err := e.Match(ctx, id)
	if err != nil {
		return Ack{}, err
	}
	if next.State.RematchOf != matchID {
		return Ack{}, game.Reject(game.Conflict, "match %s exists and is not the rematch of %s", id, matchID)
	}
	if next.State.SeatOf(playerID) >= 0 {
		return Ack{MatchID: id, FirstVersion: next.Version, LastVersion: next.Version, LastPosition: next.Position, Duplicate: true}, nil
	}
	ack, err := e.Handle(ctx, id, match.Join{PlayerID: playerID, Name: name, Seat: &to[seat], Entropy: entropy}, meta)
	ack.MatchID = id
	return ack, err
}
