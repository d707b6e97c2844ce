package match_test

import (
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// roundTable is a three-seat game in which every seat may act at any time and nothing
// ever ends it: just enough to exercise the lifecycle beyond two players.
type roundTable struct{}

type started struct{}

func (started) EventType() string { return "Started" }

func (roundTable) Info() game.Info {
	return game.Info{ID: "ROUND", Name: "Round table", RulesVersion: "1"}
}
func (roundTable) Plan(game.Options) (game.Plan, error) {
	return game.Plan{Seats: 3, Teams: []int{0, 1, 2}}, nil
}
func (roundTable) Setup(game.Setup) ([]game.Emitted, error) {
	return game.PublicEvents(started{}), nil
}
func (roundTable) Decide(game.State, game.Action) ([]game.Emitted, error) {
	return nil, game.Reject(game.IllegalMove, "nothing to do")
}
func (roundTable) Evolve(st game.State, _ game.Event) game.State { return st }
func (roundTable) Status(game.State) game.Status {
	return game.Status{ToAct: []int{0, 1, 2}, Phase: "play"}
}
func (roundTable) Events() *game.Codec {
	c := game.NewCodec()
	game.Register[started](c, 1)
	return c
}

func threeSeated(t *testing.T) match.State {
	t.Helper()
	var st match.State
	for _, cmd := range []match.Command{
		match.Create{Game: "ROUND", Seed: seed, At: t0},
		match.Join{Entropy: entropy, PlayerID: "ann", Name: "Ann"}, match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob"}, match.Join{Entropy: entropy, PlayerID: "cid", Name: "Cid"},
	} {
		st = apply(t, st, cmd)
	}
	if st.Status != match.Live {
		t.Fatalf("three seats taken: %s", st.Status)
	}
	return st
}

func apply(t *testing.T, st match.State, cmd match.Command) match.State {
	t.Helper()
	evs, err := match.Decide(roundTable{}, st, match.Stamped(cmd, t0.Add(time.Minute)))
	if err != nil {
		t.Fatalf("%T: %v", cmd, err)
	}
	for _, e := range evs {
		st = match.Evolve(roundTable{}, st, e.Event)
	}
	return st
}

func TestResignationWithThreeSides(t *testing.T) {
	st := threeSeated(t)
	st = apply(t, st, match.Resign{PlayerID: "bob"})
	if st.Status != match.Live {
		t.Fatalf("one of three resigned: the others play on, got %s", st.Status)
	}
	if _, err := match.Decide(roundTable{}, st, match.OfferDraw{PlayerID: "bob"}); game.CodeOf(err) != game.Forbidden {
		t.Fatalf("a resigned seat offers a draw: %v", err)
	}
	st = apply(t, st, match.Resign{PlayerID: "ann"})
	if st.Status != match.Finished || len(st.Result.Winners) != 1 || st.Result.Winners[0] != 2 {
		t.Fatalf("the last side standing wins: %+v", st.Result)
	}
}

func TestDrawNeedsEveryOtherSide(t *testing.T) {
	st := threeSeated(t)
	st = apply(t, st, match.OfferDraw{PlayerID: "ann"})
	st = apply(t, st, match.AcceptDraw{PlayerID: "bob"})
	if st.Status != match.Live {
		t.Fatalf("one acceptance of two ended the match")
	}
	st = apply(t, st, match.AcceptDraw{PlayerID: "cid"})
	if st.Status != match.Finished || st.Result.Reason != "agreement" || len(st.Result.Winners) != 0 {
		t.Fatalf("everyone agreed: %+v", st.Result)
	}
}

// With three sides, a claim against the one who left takes it out; play goes on.
func TestAClaimWithThreeSides(t *testing.T) {
	rule := match.Abandon{ClaimAfterMs: 1000, ForfeitAfterMs: 5000}
	var st match.State
	for _, cmd := range []match.Command{
		match.Create{Game: "ROUND", Seed: seed, At: t0, Abandon: &rule},
		match.Join{Entropy: entropy, PlayerID: "ann", Name: "Ann"}, match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob"}, match.Join{Entropy: entropy, PlayerID: "cid", Name: "Cid"},
		match.Leave{PlayerID: "cid"}, // at t0+1min, as apply stamps every command
	} {
		st = apply(t, st, cmd)
	}
	evs, err := match.Decide(roundTable{}, st, match.ClaimVictory{PlayerID: "ann", At: t0.Add(time.Minute + time.Second)})
	if err != nil || len(evs) != 2 {
		t.Fatalf("Ann's claim: %v %v", evs, err)
	}
	for _, e := range evs {
		st = match.Evolve(roundTable{}, st, e.Event)
	}
	if st.Status != match.Live || len(st.Resigned) != 1 || st.Resigned[0] != 2 || !st.Deadline(roundTable{}).IsZero() {
		t.Fatalf("after Cid forfeited: %+v", st)
	}
}
