package match_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// twoBoards is a four-seat game played on two boards at once, seats 0 and 1 on the first,
// 2 and 3 on the second, where every seat may move at any time and nothing ends it. Since
// somebody always moves, only a move on the offerer's board declines a draw offer.
type twoBoards struct{}

type boardMoved struct{ Seat int }

func (boardMoved) EventType() string { return "BoardMoved" }

func (twoBoards) Info() game.Info {
	return game.Info{ID: "TWO_BOARDS", Name: "Two boards", RulesVersion: "1"}
}
func (twoBoards) Plan(game.Options) (game.Plan, error) {
	return game.Plan{Seats: 4, Teams: []int{0, 1, 1, 0}}, nil
}
func (twoBoards) Setup(game.Setup) ([]game.Emitted, error) { return nil, nil }
func (twoBoards) Decide(_ game.State, a game.Action) ([]game.Emitted, error) {
	return game.PublicEvents(boardMoved{Seat: a.Seat}), nil
}
func (twoBoards) Evolve(st game.State, _ game.Event) game.State { return st }
func (twoBoards) Status(game.State) game.Status {
	return game.Status{ToAct: []int{0, 1, 2, 3}, Phase: "play"}
}
func (twoBoards) Events() *game.Codec {
	c := game.NewCodec()
	game.Register[boardMoved](c, 1)
	return c
}
func (twoBoards) DeclinesDraw(_ game.State, a game.Action, offerer int) bool {
	return a.Seat/2 == offerer/2
}

func TestOnlyAMoveOnTheOfferersBoardDeclinesIt(t *testing.T) {
	rules := twoBoards{}
	var st match.State
	do := func(cmd match.Command) []game.Emitted {
		t.Helper()
		evs, err := match.Decide(rules, st, match.Stamped(cmd, t0))
		if err != nil {
			t.Fatalf("%T: %v", cmd, err)
		}
		for _, e := range evs {
			st = match.Evolve(rules, st, e.Event)
		}
		return evs
	}
	do(match.Create{Game: "TWO_BOARDS", Seed: seed})
	for _, p := range []string{"ann", "bob", "cid", "dee"} {
		do(match.Join{Entropy: entropy, PlayerID: p, Name: p})
	}
	do(match.OfferDraw{PlayerID: "ann"})
	for _, p := range []string{"ann", "cid", "dee"} { // the offerer, and the other board
		if evs := do(match.Act{PlayerID: p, Do: game.Move{Notation: "x"}}); len(evs) != 1 || st.DrawOfferBy != 0 {
			t.Fatalf("%s's move answered Ann's offer: %+v", p, evs)
		}
	}
	evs := do(match.Act{PlayerID: "bob", Do: game.Move{Notation: "x"}})
	if d, ok := evs[0].Event.(match.DrawDeclined); !ok || !d.Implicit || d.Seat != 1 || st.DrawOfferBy != -1 {
		t.Fatalf("Bob, on Ann's board, moves instead of answering: %+v", evs)
	}
}
