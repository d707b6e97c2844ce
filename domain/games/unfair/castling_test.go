package unfair

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// "Le roque ... Il faut que ni l'un ni l'autre n'ait encore bougé": a rook that a card
// moved has moved, even when another rook now stands in its corner.
func TestASwappedRookHasMoved(t *testing.T) {
	// White: king e1, rooks a1 and h1, both castling rights; swap trades the two rooks.
	s := table(t, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", holding("swap"), holding())
	s, _ = playCard(t, s, "swap", at("a1", "h1"), "")
	s = move(t, s, "Kd8")
	for _, castle := range []string{"O-O", "O-O-O"} {
		refused(t, s, game.Move{Notation: castle}, game.IllegalMove)
	}

	// The h1 rook trades places with the d4 rook: the king's side is lost, the queen's
	// side, whose rook never moved, is kept.
	s = table(t, "4k3/8/8/8/3R4/8/8/R3K2R w KQ - 0 1", holding("swap"), holding())
	s, _ = playCard(t, s, "swap", at("d4", "h1"), "")
	s = move(t, s, "Kf7")
	refused(t, s, game.Move{Notation: "O-O"}, game.IllegalMove)
	if after := move(t, s, "O-O-O"); board(after) != "8/5k2/8/8/3R4/8/8/2KR3R" {
		t.Errorf("queen's side castling gave %s", board(after))
	}
}

// Under unfair-2026.1 and 2026.2 the rights followed the board: two rooks that traded
// corners still castled.
func TestUnder20262ASwappedRookStillCastled(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
	for _, v := range []string{"unfair-2026.1", "unfair-2026.2"} {
		s := table(t, fen, holding("swap"), holding())
		s.v = variants[v]
		s, _ = playCard(t, s, "swap", at("a1", "h1"), "")
		s = move(t, s, "Kd8")
		if after := move(t, s, "O-O"); board(after) != "3k4/8/8/8/8/8/8/R4RK1" {
			t.Errorf("%s: castling gave %s", v, board(after))
		}
	}
}
