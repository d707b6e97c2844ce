// Package tollgame is a game that charges its seats coins (game.Charging), for the tests
// of funded matches and their settlement: "pay:N" charges the acting seat N coins, refused
// above its purse; "win" ends the match with the acting seat the winner, "draw" without
// one. Seat 0 acts on even turns. It is imported by tests alone.
package tollgame

import (
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/domain/game"
)

// ID is the game's API name.
const ID = "TOLL"

// Rules is the game.
type Rules struct{}

// State is the game's state.
type State struct {
	Purses  []int64
	Charged []int64
	Turn    int
	Winners []int
	Over    bool
}

type (
	tollOpened struct {
		Purses []int64 `json:"purses"`
	}
	tollPaid struct {
		Seat   int   `json:"seat"`
		Amount int64 `json:"amount"`
	}
	tollEnded struct {
		Winners []int `json:"winners"`
	}
)

func (tollOpened) EventType() string { return "TollOpened" }
func (tollPaid) EventType() string   { return "TollPaid" }
func (tollEnded) EventType() string  { return "TollEnded" }

func (Rules) Info() game.Info { return game.Info{ID: ID, Name: "Toll", RulesVersion: "1"} }
func (Rules) Plan(opts game.Options) (game.Plan, error) {
	if len(opts) > 0 {
		return game.Plan{}, game.Reject(game.BadInput, "toll has no options")
	}
	return game.Plan{Seats: 2, Teams: []int{0, 1}}, nil
}
func (Rules) Setup(s game.Setup) ([]game.Emitted, error) {
	return game.PublicEvents(tollOpened{Purses: s.Purses}), nil
}
func (Rules) Decide(st game.State, a game.Action) ([]game.Emitted, error) {
	s := st.(State)
	mv, _ := a.Do.(game.Move)
	switch n := mv.Notation; {
	case strings.HasPrefix(n, "pay:"):
		amount, _ := strconv.ParseInt(strings.TrimPrefix(n, "pay:"), 10, 64)
		if s.Charged[a.Seat]+amount > s.Purses[a.Seat] {
			return nil, game.Reject(game.IllegalMove, "above your purse of %d", s.Purses[a.Seat])
		}
		return game.PublicEvents(tollPaid{Seat: a.Seat, Amount: amount}), nil
	case n == "win":
		return game.PublicEvents(tollEnded{Winners: []int{a.Seat}}), nil
	case n == "draw":
		return game.PublicEvents(tollEnded{Winners: []int{}}), nil
	}
	return nil, game.Reject(game.IllegalMove, "no such play")
}
func (Rules) Evolve(st game.State, e game.Event) game.State {
	var s State
	if st != nil {
		s = st.(State)
	}
	switch e := e.(type) {
	case tollOpened:
		s.Purses, s.Charged = e.Purses, make([]int64, 2)
	case tollPaid:
		s.Charged = slices.Clone(s.Charged)
		s.Charged[e.Seat] += e.Amount
		s.Turn++
	case tollEnded:
		s.Winners, s.Over = e.Winners, true
	}
	return s
}
func (Rules) Status(st game.State) game.Status {
	s := st.(State)
	if s.Over {
		return game.Status{Over: true, Outcome: game.Outcome{Winners: s.Winners, Reason: "toll"}}
	}
	return game.Status{ToAct: []int{s.Turn % 2}, Phase: "play"}
}
func (Rules) Events() *game.Codec {
	c := game.NewCodec()
	game.Register[tollOpened](c, 1)
	game.Register[tollPaid](c, 1)
	game.Register[tollEnded](c, 1)
	return c
}
func (Rules) MaxCharge(game.Options) int64  { return 500 }
func (Rules) Charged(st game.State) []int64 { return st.(State).Charged }
