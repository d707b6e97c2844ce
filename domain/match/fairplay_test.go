package match_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/classic"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// A rematch keeps its seats for the players of the finished match: Bob, who played
// Black, now plays White; a stranger may take neither seat, and Alice may not take Bob's.
func TestARematchKeepsItsSeatsForItsPlayers(t *testing.T) {
	tb := &table{t: t}
	tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0, By: "bob", RematchOf: "m1", Reserved: []string{"bob", "alice"}})
	tb.do(match.Join{PlayerID: "bob", Name: "Bob", At: t0})
	tb.refuse(match.Join{PlayerID: "mallory", Name: "Mallory", At: t0}, game.Forbidden)
	one := 1
	tb.refuse(match.Join{PlayerID: "mallory", Name: "Mallory", Seat: &one, At: t0}, game.Forbidden)
	zero := 0
	tb.refuse(match.Join{PlayerID: "alice", Name: "Alice", Seat: &zero, At: t0}, game.Forbidden)
	tb.do(match.Join{PlayerID: "alice", Name: "Alice", At: t0})
	if tb.state.Status != match.Live || tb.state.SeatOf("alice") != 1 || tb.state.SeatOf("bob") != 0 {
		t.Fatalf("the rematch is not Bob against Alice: %+v", tb.state.Seats)
	}
}

func TestReservedSeatsMustMatchThePlan(t *testing.T) {
	_, err := match.Decide(rules, match.State{}, match.Create{Game: classic.ID, Seed: seed, At: t0, Reserved: []string{"bob"}})
	if game.CodeOf(err) != game.BadInput {
		t.Fatalf("one reserved seat for a two-seat match: %v", err)
	}
}
