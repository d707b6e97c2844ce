package match

import (
	"strconv"

	"github.com/arbiter-games/arbiter/domain/game"
)

// TrainingOption marks a match as training against the AI (Solwaris, "Ligues et
// progression": "L'entraînement contre l'intelligence artificielle ne rapporte que de
// l'expérience"): one player against the house bot, which takes every other seat. Such a
// match is never rated and never staked, and moves no coins at all, not even what its
// game charges: a game that charges its seats (game.Charging: Solwaris's initiative
// auction) gives each seat a practice purse of the most it may charge, so that the
// auction decides the initiative as in any duel and its price is paid to nobody by
// nobody. Like StakeOption it is the match's, not the game's (GameOptions).
const TrainingOption = "training"

// Training reports whether options make a training match (a malformed value is refused
// at creation, see checkTraining).
func Training(opts game.Options) bool {
	v, err := strconv.ParseBool(opts[TrainingOption])
	return err == nil && v
}

// checkTraining refuses a training match that would be rated or staked: training against
// the AI gives experience and nothing else.
func checkTraining(c Create) error {
	v, given := c.Options[TrainingOption]
	if !given {
		return nil
	}
	on, err := strconv.ParseBool(v)
	switch {
	case err != nil:
		return &game.Error{Code: game.BadInput, Reason: "option training is " + strconv.Quote(v) + ": give true or false", Err: err}
	case !on:
		return nil
	case c.Rated:
		return game.Reject(game.BadInput, "a training match against the AI is never rated: create it with rated false")
	}
	if n, _ := Stake(c.Options); n > 0 {
		return game.Reject(game.BadInput, "a training match against the AI moves no coins: it takes no stake")
	}
	return nil
}

// trainingSeat refuses a second player at a training match: its other seats are the bot's.
func trainingSeat(s State, c Join) error {
	if c.Bot || !Training(s.Options) {
		return nil
	}
	for _, st := range s.Seats {
		if st.Taken() && !st.Bot && st.PlayerID != c.PlayerID {
			return game.Reject(game.Forbidden, "this match is %s's training against the AI: its other seats are the house bot's", st.Name)
		}
	}
	return nil
}

// practicePurses is what a training match's seats may be charged by a game that charges
// them: the most it may charge each; nil for a game that charges nothing.
func practicePurses(rules game.Rules, s *State) []int64 {
	c, ok := rules.(game.Charging)
	if !ok {
		return nil
	}
	out := make([]int64, len(s.Seats))
	for i := range out {
		out[i] = c.MaxCharge(GameOptions(s.Options))
	}
	return out
}
