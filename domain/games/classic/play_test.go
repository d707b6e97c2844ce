package classic_test

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
)

// TestEvolveForks checks that states stay values although a state's successor shares its
// history storage: evolving one state twice (a fork) leaves both successors and the state
// itself as they were.
func TestEvolveForks(t *testing.T) {
	r := classic.Rules{}
	move := func(st game.State, uci string) game.State {
		evs, err := r.Decide(st, game.Action{Seat: classic.Seat(st.(classic.State).Game.Position().Turn()), Do: game.Move{Notation: uci}})
		if err != nil {
			t.Fatal(err)
		}
		return r.Evolve(st, evs[0].Event)
	}
	st := r.Evolve(nil, classic.GameStarted{FEN: chess.StartFEN})
	for _, uci := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4"} {
		st = move(st, uci)
	}
	base := r.MoveList(st)
	a := move(st, "g8f6")
	b := move(st, "f8c5") // a fork from the same state: must not write over a's history
	a2 := move(a, "f3g5")
	b2 := move(b, "c2c3")
	for _, tc := range []struct {
		st   game.State
		want []string
	}{
		{st, base},
		{a, append(slices.Clone(base), "Nf6")},
		{b, append(slices.Clone(base), "Bc5")},
		{a2, append(slices.Clone(base), "Nf6", "Ng5")},
		{b2, append(slices.Clone(base), "Bc5", "c3")},
	} {
		if got := r.MoveList(tc.st); !slices.Equal(got, tc.want) {
			t.Errorf("moves %v, want %v", got, tc.want)
		}
	}
	// Repetition counts read the hash history: a fork must see its own.
	st = r.Evolve(nil, classic.GameStarted{FEN: chess.StartFEN})
	for range 2 {
		for _, uci := range []string{"g1f3", "g8f6", "f3g1", "f6g8"} {
			st = move(st, uci)
		}
	}
	_ = move(st, "e2e4") // a fork that is not a repetition
	if _, err := r.Decide(st, game.Action{Seat: 0, Do: game.ClaimDraw{}}); err != nil {
		t.Errorf("threefold repetition after a fork: %v", err)
	}
}
