package match_test

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/internal/tollgame"
)

// decide runs cmds on st under rules and returns the state and every event decided.
func decide(t *testing.T, rules game.Rules, st match.State, cmds ...match.Command) (match.State, []game.Emitted) {
	t.Helper()
	var all []game.Emitted
	for _, cmd := range cmds {
		evs, err := match.Decide(rules, st, match.Stamped(cmd, t0))
		if err != nil {
			t.Fatalf("%T: %v", cmd, err)
		}
		for _, e := range evs {
			st = match.Evolve(rules, st, e.Event)
		}
		all = append(all, evs...)
	}
	return st, all
}

func stakedToll(t *testing.T, stake string) match.State {
	st, _ := decide(t, tollgame.Rules{}, match.State{}, match.Create{Game: "TOLL", Seed: seed, Options: game.Options{match.StakeOption: stake}})
	return st
}

func TestAStakeMustBeAWholeNumberOfCoins(t *testing.T) {
	for _, bad := range []string{"-1", "ten", "1.5", "", "1000000001"} {
		_, err := match.Decide(roundTable{}, match.State{}, match.Create{Game: "ROUND", Seed: seed, Options: game.Options{match.StakeOption: bad}})
		if game.CodeOf(err) != game.BadInput {
			t.Errorf("stake %q: %v, want BAD_USER_INPUT", bad, err)
		}
	}
	if n, err := match.Stake(game.Options{match.StakeOption: "200"}); n != 200 || err != nil {
		t.Fatalf("stake 200: %d, %v", n, err)
	}
	// The stake is the match's: the game never sees it among its options.
	if _, err := match.Decide(tollgame.Rules{}, match.State{}, match.Create{Game: "TOLL", Seed: seed, Options: game.Options{match.StakeOption: "0"}}); err != nil {
		t.Fatal(err)
	}
}

func TestAFundedMatchRefusesAJoinWithoutAHold(t *testing.T) {
	st, _ := decide(t, roundTable{}, match.State{}, match.Create{Game: "ROUND", Seed: seed, Options: game.Options{match.StakeOption: "100"}})
	for _, j := range []match.Join{
		{PlayerID: "ann", Name: "Ann", Entropy: entropy},
		{PlayerID: "bot", Name: "Bot", Bot: true, Funds: &match.Funds{Hold: "h", Amount: 100}, Entropy: entropy},
		{PlayerID: "ann", Name: "Ann", Funds: &match.Funds{Hold: "h", Amount: 99}, Entropy: entropy},
	} {
		if evs, err := match.Decide(roundTable{}, st, j); err == nil {
			t.Errorf("%+v joined: %v", j, evs)
		}
	}
	free, _ := decide(t, roundTable{}, match.State{}, match.Create{Game: "ROUND", Seed: seed})
	if _, err := match.Decide(roundTable{}, free, match.Join{Entropy: entropy, PlayerID: "ann", Funds: &match.Funds{Hold: "h", Amount: 1}}); game.CodeOf(err) != game.BadInput {
		t.Fatalf("a hold in a match without coins: %v", err)
	}
}

func TestAFundedSeatIsSeenByItsSeatAloneAndPursesReachTheGame(t *testing.T) {
	st, evs := decide(t, tollgame.Rules{}, stakedToll(t, "100"),
		match.Join{Entropy: entropy, PlayerID: "ann", Name: "Ann", Funds: &match.Funds{Hold: "ha", Amount: 600}},
		match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", Funds: &match.Funds{Hold: "hb", Amount: 300}})
	var funded int
	for _, e := range evs {
		if f, ok := e.Event.(match.SeatFunded); ok {
			funded++
			if e.Visibility != visibility.Seat(f.Seat) {
				t.Errorf("SeatFunded of seat %d is visible to %v", f.Seat, e.Visibility)
			}
		}
	}
	if funded != 2 || st.Status != match.Live {
		t.Fatalf("%d seats funded, status %s", funded, st.Status)
	}
	if got := st.GameState.(tollgame.State).Purses; !slices.Equal(got, []int64{500, 200}) {
		t.Fatalf("purses %v, want the funds beyond the stake of 100: [500 200]", got)
	}
	if _, err := match.Decide(tollgame.Rules{}, st, match.Stamped(match.Act{PlayerID: "ann", Do: game.Move{Notation: "pay:501"}}, t0)); game.CodeOf(err) != game.IllegalMove {
		t.Fatalf("a charge above the purse: %v", err)
	}
}

func TestSettlementPaysTheStakeToTheWinnerAndSubtractsCharges(t *testing.T) {
	play := func(stake string, moves ...string) []match.SeatSettlement {
		st, _ := decide(t, tollgame.Rules{}, stakedToll(t, stake),
			match.Join{Entropy: entropy, PlayerID: "ann", Name: "Ann", Funds: &match.Funds{Hold: "ha", Amount: 600}},
			match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", Funds: &match.Funds{Hold: "hb", Amount: 300}})
		for i, m := range moves {
			st, _ = decide(t, tollgame.Rules{}, st, match.Act{PlayerID: []string{"ann", "bob"}[i%2], Do: game.Move{Notation: m}})
		}
		return match.Settlement(tollgame.Rules{}, st)
	}
	for _, c := range []struct {
		name  string
		stake string
		moves []string
		want  []match.SeatSettlement
	}{
		{"bob wins the stake, ann paid 50", "100", []string{"pay:50", "win"}, []match.SeatSettlement{{Hold: "ha", Charged: 150}, {Hold: "hb", Won: 100}}},
		{"a draw moves no stake", "100", []string{"pay:50", "draw"}, []match.SeatSettlement{{Hold: "ha", Charged: 50}, {Hold: "hb"}}},
		{"no stake, charges only", "0", []string{"win"}, []match.SeatSettlement{{Hold: "ha"}, {Hold: "hb"}}},
	} {
		if got := play(c.stake, c.moves...); !slices.Equal(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	// A void match moves nothing: the creator cancels before the second seat.
	st, _ := decide(t, tollgame.Rules{}, stakedToll(t, "100"), match.Join{Entropy: entropy, PlayerID: "ann", Name: "Ann", Funds: &match.Funds{Hold: "ha", Amount: 600}}, match.Cancel{PlayerID: "ann"})
	if got := match.Settlement(tollgame.Rules{}, st); !slices.Equal(got, []match.SeatSettlement{{Hold: "ha"}, {}}) {
		t.Fatalf("cancelled: %+v", got)
	}
}

func TestAVacatedSeatLosesItsFunds(t *testing.T) {
	st, _ := decide(t, tollgame.Rules{}, stakedToll(t, "100"),
		match.Join{Entropy: entropy, PlayerID: "ann", Name: "Ann", Funds: &match.Funds{Hold: "ha", Amount: 600}}, match.Unseat{PlayerID: "ann"})
	if st.Holds[0] != "" || st.Funds[0] != 0 {
		t.Fatalf("after leaving: holds %v funds %v", st.Holds, st.Funds)
	}
}

// shortToll is the toll game where an abandoned match counts only once a seat has paid
// (game.Rewarding): a stand-in for Solwaris's "before the 4th turn".
type shortToll struct{ tollgame.Rules }

func (shortToll) AbandonCounts(st game.State) bool {
	for _, n := range (tollgame.Rules{}).Charged(st) {
		if n > 0 {
			return true
		}
	}
	return false
}

func TestAStakeDoesNotMoveWhenAMatchIsAbandonedTooEarlyToCount(t *testing.T) {
	for _, c := range []struct {
		name  string
		moves []string
		want  []match.SeatSettlement
	}{
		{"bob resigns at once: nobody gains", nil, []match.SeatSettlement{{Hold: "ha"}, {Hold: "hb"}}},
		{"bob resigns once it counts: ann takes his stake", []string{"pay:10"}, []match.SeatSettlement{{Hold: "ha", Charged: 10, Won: 100}, {Hold: "hb", Charged: 100}}},
	} {
		rules := shortToll{}
		st, _ := decide(t, rules, stakedToll(t, "100"),
			match.Join{Entropy: entropy, PlayerID: "ann", Name: "Ann", Funds: &match.Funds{Hold: "ha", Amount: 600}},
			match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", Funds: &match.Funds{Hold: "hb", Amount: 300}})
		for _, m := range c.moves {
			st, _ = decide(t, rules, st, match.Act{PlayerID: "ann", Do: game.Move{Notation: m}})
		}
		st, _ = decide(t, rules, st, match.Resign{PlayerID: "bob"})
		if got := match.Settlement(rules, st); !slices.Equal(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
