// Package bot is Arbiter's house bot, the opponent a player seats at their own table
// ("Contre le bot" in UnfairChess's rules): a player identity of its own, a pure policy
// that picks one action from what the bot's seat may see, and a runner that plays the
// policy's choice through the engine whenever the bot is to act. Bot games never count
// for ratings: the bot sits only in friendly matches (Add refuses a rated one), at one
// seat of a match or several.
package bot

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/player"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/matchstream"
)

// ID is the bot's player ID. A registered player's ID is 16 random base32 characters
// (engine.RegisterPlayer), so no player is ever registered as the bot, and no token ever
// authenticates as it: only this package acts in its name.
const ID = "bot"

// Name is the bot's name at the table, which no player may register under.
const Name = player.HouseBotName

// Add seats the bot at seat of an open match (the first free one when seat is nil), at
// the request of by, a player who sits in the match or created it. The bot may take
// several seats of one match (a player trying Royale against three bots): each plays its
// own turns. A rated match is refused (BAD_USER_INPUT: bot games never count for
// ratings), and so is a match of a game without a board for the bot to read; the match's
// own rules refuse the rest (a started or full match, a taken seat), and a refusal
// records nothing. The same command ID returns the first outcome.
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
	if _, ok := snap.Rules.(game.Viewed); !ok {
		return engine.Ack{}, game.Reject(game.BadInput, "the bot does not play %s", snap.Rules.Info().Name)
	}
	return e.Handle(ctx, matchID, match.Join{PlayerID: ID, Name: Name, Seat: seat, Bot: true}, meta)
}

// SeatTaken is the seat that the join acknowledged by ack took: its SeatTaken event.
func SeatTaken(ctx context.Context, e *engine.Engine, ack engine.Ack) (int, error) {
	evs, err := e.Store().ReadStream(ctx, matchstream.Name(ack.MatchID), ack.FirstVersion-1, 1)
	if err != nil {
		return -1, err
	}
	if len(evs) == 1 && evs[0].Type == "SeatTaken" {
		if d, err := match.Decode(nil, evs[0].Type, evs[0].SchemaVersion, evs[0].Payload); err == nil {
			return d.(match.SeatTaken).Seat, nil
		}
	}
	return -1, fmt.Errorf("bot: the join of match %s at version %d is no SeatTaken", ack.MatchID, ack.FirstVersion)
}
