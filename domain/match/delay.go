package match

import (
	"maps"
	"strconv"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

// SpectatorDelayOption is the match option that holds a live match's events back from its
// spectators for a number of whole seconds, as chess servers do so that nobody can relay
// the game to a player while it is played. It never applies to the players seated in the
// match. It is the match's option, not the game's: the rules see the options without it
// (GameOptions).
const SpectatorDelayOption = "spectatorDelay"

// MaxSpectatorDelay bounds the spectator delay: 15 minutes.
const MaxSpectatorDelay = 15 * time.Minute

// SpectatorDelay returns the spectator delay that options give (zero without the option),
// or a BAD_INPUT naming the bounds.
func SpectatorDelay(opts game.Options) (time.Duration, error) {
	s, ok := opts[SpectatorDelayOption]
	if !ok {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || time.Duration(n)*time.Second > MaxSpectatorDelay {
		return 0, game.Reject(game.BadInput, "option %s is %q: give a whole number of seconds from 0 to %d",
			SpectatorDelayOption, s, int(MaxSpectatorDelay/time.Second))
	}
	return time.Duration(n) * time.Second, nil
}

// GameOptions returns a match's options as its game's rules read them: without the
// match's own (SpectatorDelayOption, StakeOption, TrainingOption).
func GameOptions(opts game.Options) game.Options {
	_, delay := opts[SpectatorDelayOption]
	_, stake := opts[StakeOption]
	_, training := opts[TrainingOption]
	if !delay && !stake && !training {
		return opts
	}
	out := maps.Clone(opts)
	delete(out, SpectatorDelayOption)
	delete(out, StakeOption)
	delete(out, TrainingOption)
	return out
}
