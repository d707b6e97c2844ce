// Package bot is Arbiter's house bot, the opponent a player seats at their own table
// ("Contre le bot" in UnfairChess's rules): a player identity of its own, a pure policy
// that picks one action from what the bot's seat may see, and a runner that plays the
// policy's choice through the engine whenever the bot is to act.
//
// Bot games never count for ratings: the bot sits only in friendly matches (Add refuses
// a rated one), one seat per match.
package bot

import (
	"context"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// ID is the bot's player ID. A registered player's ID is 16 random base32 characters
// (engine.RegisterPlayer), so no player is ever registered as the bot, and no token ever
// authenticates as it: only this package acts in its name.
const ID = "bot"

// Name is the bot's name at the table.
const Name = "Arbiter bot"

// Add seats the bot at seat of an open match (the first free one when seat is nil), at
// the request of by, a player who sits in the match or created it. A rated match is
// refused (BAD_USER_INPUT: bot games never count for ratings), and so is a match of a game
// without a board for the bot to read; the match's own rules refuse the rest (a started
// or full match, a taken seat, the bot seated already), and a refusal records nothing.
// The same command ID returns the first outcome.
func Add(ctx context.Context, e *engine.Engine, matchID, by string, seat *int, meta engine.Meta) (engine.Ack, error) {
	snap, err := e.Match(ctx, matchID)
	if err != nil {
		return engine.Ack{}, err
	}
	st := snap.State
	if st.SeatOf(by) < 0 && (st.CreatedBy == "" || st.CreatedBy != by) {
		return engine.Ack{}, game.Reject(game.Forbidden, "only a player seated in match %s, or its creator, may seat the bot there", matchID)
	}
	if st.Rated {
		return engine.Ack{}, game.Reject(game.BadInput, "match %s is rated, and bot games never count for ratings: play the bot in a friendly match (rated: false)", matchID)
	}
	if _, ok := snap.Rules.(game.Boarded); !ok {
		return engine.Ack{}, game.Reject(game.BadInput, "the bot does not play %s", snap.Rules.Info().Name)
	}
	ack, err := e.Handle(ctx, matchID, match.Join{PlayerID: ID, Name: Name, Seat: seat, Bot: true}, meta)
	if game.CodeOf(err) == game.Conflict { // the rules say "you already sit": say who
		if now, rerr := e.Match(ctx, matchID); rerr == nil && now.State.Status == match.Open && now.State.SeatOf(ID) >= 0 {
			rej := game.Reject(game.Conflict, "the bot already sits at seat %d of this match: one bot per match", now.State.SeatOf(ID))
			rej.Err = err
			return engine.Ack{}, rej
		}
	}
	return ack, err
}
