package sovereignchess

import (
	"reflect"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/tactic"
)

// The seat to move is offered its legal moves, the mate scored above all; the other seat
// and a spectator are offered nothing, and all three see the same board.
func TestViewOffersTheMoverItsMovesMateFirst(t *testing.T) {
	st := twoPlayer(t, "wki1 wqe13 wrb10 bka16 bpp9", "1 w b - 10")
	mover := r.View(st, game.Viewpoint{Seats: []int{0}, Teams: []int{0}}).(*View)
	if !reflect.DeepEqual(mover.Board, r.Board(st)) {
		t.Fatalf("the view's board differs from the game's")
	}
	plays := mover.Plays()
	if len(plays) != len(mover.Board.LegalMoves) {
		t.Fatalf("%d plays for %d legal moves", len(plays), len(mover.Board.LegalMoves))
	}
	best := slices.MaxFunc(plays, func(a, b game.Play) int { return a.Score - b.Score })
	if best.Do != (game.Move{Notation: "e13a13"}) || best.Score != tactic.Mate || best.Seat != 0 {
		t.Fatalf("the best play %+v, want the mate e13a13", best)
	}
	for _, p := range []game.Viewpoint{{Seats: []int{1}, Teams: []int{1}}, {}, {Seats: []int{0}, Teams: []int{0}, Over: true}} {
		if plays := r.View(st, p).Plays(); len(plays) != 0 {
			t.Errorf("%+v is offered %+v", p, plays)
		}
	}
}

// While the opening choice waits, the chooser is offered its options and no move.
func TestViewOffersTheOpeningChoice(t *testing.T) {
	st := from(t, GameStarted{Mode: TwoPlayer, Position: notation(t, "wki1 wqe13 wrb10 bka16 bpp9", "1 w b - 0"), FirstMover: 1})
	st, _ = move(t, st, "e13a13")
	want := []game.Play{{Seat: 0, Do: game.Choose{Option: Keep}, Kind: game.KindChoice}, {Seat: 0, Do: game.Choose{Option: Refuse}, Kind: game.KindChoice}}
	if got := r.View(st, game.Viewpoint{Seats: []int{0}}).Plays(); !reflect.DeepEqual(got, want) {
		t.Fatalf("the chooser is offered %+v, want %+v", got, want)
	}
	if got := r.View(st, game.Viewpoint{Seats: []int{1}}).Plays(); len(got) != 0 {
		t.Fatalf("the first mover is offered %+v during the choice", got)
	}
}
