package unfair

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// A sleeping piece may not move, but it is still on the board: it guards and it checks
// (docs/games/unfairchess.md, "A sleeping or shackled piece still attacks").
func TestASleepingPieceStillAttacks(t *testing.T) {
	// Black's e2 rook stands next to White's king; Black's c3 knight, asleep, guards it.
	s := marked(t, table(t, "7k/8/8/8/8/2n5/4r3/4K3 w - - 0 1", holding(), holding()), "c3", Sleep, 0)
	if !s.Pos.InCheck() {
		t.Fatal("the e2 rook gives no check")
	}
	refused(t, s, game.Move{Notation: "Kxe2"}, game.IllegalMove)
	after := move(t, s, "Kf1")
	hasStatus(t, after, "c3", Sleep, true)
}

// The opponent's push moves a piece its owner may not move, and a shield, which stops
// captures only, does not stop it (docs/games/unfairchess.md, "The opponent's cards may
// move what the owner may not").
func TestAPushMovesASleepingOrShieldedPiece(t *testing.T) {
	for _, kind := range []string{Sleep, Shield} {
		// Black's d5 knight carries the status; White pushes it to d4.
		s := marked(t, table(t, "4k3/8/8/3n4/8/8/8/4K3 w - - 0 1", holding("push"), holding()), "d5", kind, 1)
		after, _ := playCard(t, s, "push", at("d5", "d4"), "")
		if board(after) != "4k3/8/8/8/3n4/8/8/4K3" {
			t.Errorf("%s: the push gave %s", kind, board(after))
		}
	}
}
