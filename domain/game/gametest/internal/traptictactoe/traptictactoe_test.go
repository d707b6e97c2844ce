package traptictactoe

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
)

// Trap tic-tac-toe passes the games' conformance suite: among its checks, no viewer
// learns the other seat's trap before it springs.
func TestConformance(t *testing.T) {
	gametest.Run(t, gametest.Game{Rules: Rules{}, Matches: 16})
}

// A move on the other seat's trap springs it: no mark, the cell burned, the move lost;
// the trap is shown to the other seat from then on. A second move there is refused.
func TestTrapSprings(t *testing.T) {
	r := Rules{}
	var st game.State = State{}
	for _, e := range []game.Event{TrapSet{Seat: 0, Cell: "a1"}, TrapSet{Seat: 1, Cell: "b2"}} {
		st = r.Evolve(st, e)
	}
	if v := r.View(st, game.Viewpoint{Seats: []int{0}}).(*View); len(v.Traps) != 1 || v.Traps[0] != (Trap{Seat: 0, Cell: "a1"}) {
		t.Fatalf("seat 0 knows of the traps %+v, want its own alone", v.Traps)
	}
	evs, err := r.Decide(st, game.Action{Seat: 0, Do: game.Move{Notation: "b2"}})
	if err != nil || len(evs) != 1 || evs[0].Event != (TrapSprung{Seat: 0, Owner: 1, Cell: "b2"}) {
		t.Fatalf("seat 0 on seat 1's trap: %+v %v", evs, err)
	}
	st = r.Evolve(st, evs[0].Event)
	v := r.View(st, game.Viewpoint{Seats: []int{0}}).(*View)
	if v.Rows[1] != ".#." || v.Turn != 1 || len(v.Traps) != 2 {
		t.Fatalf("after the trap sprang: %+v", v)
	}
	if _, err := r.Decide(st, game.Action{Seat: 1, Do: game.Move{Notation: "b2"}}); game.CodeOf(err) != game.IllegalMove {
		t.Fatalf("a move on a burned cell: %v", err)
	}
	// Seat 1 steps on nothing at a1: its own mark there, seat 0's trap unsprung but moot.
	evs, err = r.Decide(st, game.Action{Seat: 1, Do: game.Move{Notation: "a1"}})
	if err != nil || evs[0].Event != (TrapSprung{Seat: 1, Owner: 0, Cell: "a1"}) {
		t.Fatalf("seat 1 on seat 0's trap: %+v %v", evs, err)
	}
}

// Refusals name what is wrong and change nothing.
func TestRefusals(t *testing.T) {
	r := Rules{}
	st := r.Evolve(r.Evolve(State{}, TrapSet{Seat: 0, Cell: "a1"}), TrapSet{Seat: 1, Cell: "c3"})
	for _, tc := range []struct {
		a    game.Action
		code game.Code
	}{
		{game.Action{Seat: 1, Do: game.Move{Notation: "b2"}}, game.NotYourTurn},
		{game.Action{Seat: 0, Do: game.Move{Notation: "d4"}}, game.BadInput},
		{game.Action{Seat: 0, Do: game.ClaimDraw{}}, game.BadInput},
	} {
		if _, err := r.Decide(st, tc.a); game.CodeOf(err) != tc.code {
			t.Errorf("%+v: %v, want %s", tc.a, err, tc.code)
		}
	}
	if _, err := r.Plan(game.Options{"clock": "1+0"}); game.CodeOf(err) != game.BadInput {
		t.Errorf("an option: %v", err)
	}
}
