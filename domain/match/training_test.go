package match_test

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/internal/tollgame"
)

// Training against the AI: never rated nor staked, one player and the house bot, no
// coins moved, and a game that charges its seats gets practice purses instead.
func TestATrainingMatchMovesNoCoinsAndSeatsTheBotAlone(t *testing.T) {
	training := game.Options{match.TrainingOption: "true"}
	for _, c := range []match.Create{
		{Game: "TOLL", Seed: seed, Options: training, Rated: true},
		{Game: "TOLL", Seed: seed, Options: game.Options{match.TrainingOption: "true", match.StakeOption: "100"}},
		{Game: "TOLL", Seed: seed, Options: game.Options{match.TrainingOption: "yes please"}},
	} {
		if _, err := match.Decide(tollgame.Rules{}, match.State{}, c); game.CodeOf(err) != game.BadInput {
			t.Errorf("%+v: %v, want BAD_USER_INPUT", c, err)
		}
	}
	if match.Funded(tollgame.Rules{}, training) || !match.Funded(tollgame.Rules{}, game.Options{match.TrainingOption: "false"}) {
		t.Fatal("a training match of a game that charges moves coins, or an untrained one does not")
	}
	st, _ := decide(t, tollgame.Rules{}, match.State{}, match.Create{Game: "TOLL", Seed: seed, Options: training})
	st, _ = decide(t, tollgame.Rules{}, st, match.Join{Entropy: entropy, PlayerID: "ann", Name: "Ann"})
	if _, err := match.Decide(tollgame.Rules{}, st, match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob"}); game.CodeOf(err) != game.Forbidden {
		t.Fatalf("a second player at Ann's training: %v, want FORBIDDEN", err)
	}
	if _, err := match.Decide(tollgame.Rules{}, st, match.Join{Entropy: entropy, PlayerID: "ann", Name: "Ann", Funds: &match.Funds{Hold: "h", Amount: 100}}); err == nil {
		t.Fatal("a hold taken for a training match")
	}
	st, evs := decide(t, tollgame.Rules{}, st, match.Join{Entropy: entropy, PlayerID: "bot", Name: "Bot", Bot: true})
	if st.Status != match.Live {
		t.Fatalf("the bot took the last seat and the match is %v", st.Status)
	}
	var purses []int64
	for _, e := range evs {
		if _, funded := e.Event.(match.SeatFunded); funded {
			t.Fatalf("a seat funded in a training match: %+v", e.Event)
		}
		if gs, ok := st.GameState.(tollgame.State); ok {
			purses = gs.Purses
		}
	}
	if !slices.Equal(purses, []int64{500, 500}) {
		t.Fatalf("the game's purses %v, want the practice purses of the most it charges, 500 each", purses)
	}
	for seat, s := range match.Settlement(tollgame.Rules{}, st) {
		if s.Hold != "" {
			t.Fatalf("seat %d of a training match settles hold %q", seat, s.Hold)
		}
	}
}
