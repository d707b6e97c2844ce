package magicchess

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Where the rules are silent or leave room, what the server chose
// (docs/games/magic-chess.md, "Where the rules leave room").

// A card that has nothing to act on is not laid (rule 3: a card not laid may be changed),
// so it is no way to pass a turn: Black, with no move, holds Ascension and no pawn, and is
// stalemated. Echo, whose text says it is discarded without effect when it has nothing
// to repeat, is laid, and is Black's turn.
func TestACardThatCannotActIsNoPass(t *testing.T) {
	s := table(t, stalemated, nil, []string{"ascend", "banish"})
	if st := (Rules{}).Status(s); !st.Over || st.Outcome.Reason != "stalemate" {
		t.Fatalf("no move, and cards that cannot act: %+v", st)
	}
	s = table(t, stalemated, []string{"truce"}, []string{"ascend", "echo"})
	refuseCard(t, s, "ascend", at("a7"), "cannot be laid now")
	s, evs := lay(t, s, "echo", nil, "")
	if got := evs[0].Event.(CardPlayed).Result; got != NoEffect {
		t.Fatalf("Echo with nothing to repeat: %s", got)
	}
	isTurnOf(t, s, 0)
}

// Freeze stops a piece moving, not attacking: the white king may not step onto d1 nor
// d2, which the frozen rook on d8 still holds.
func TestABoundPieceStillAttacks(t *testing.T) {
	s := table(t, "k2r4/8/8/8/8/8/7P/4K3 w - - 0 1", []string{"freeze"}, []string{"truce"})
	s, _ = lay(t, s, "freeze", at("d8"), "")
	s = move(t, s, "a8b7")
	moves := legal(s)
	if slices.Contains(moves, "e1d1") || slices.Contains(moves, "e1d2") || !slices.Contains(moves, "e1e2") {
		t.Fatalf("the king's moves beside a frozen rook: %v", moves)
	}
}

// Rule 1 asks for the king out of check at the end of the turn; the server asks it after
// each of Haste's moves: the first may not expose the king for the second to mend.
func TestEachMoveOfHasteIsLegal(t *testing.T) {
	s := table(t, "4r1k1/8/8/8/8/8/4B2P/4K3 w - - 0 1", []string{"haste"}, nil)
	s, _ = lay(t, s, "haste", nil, "")
	refused(t, s, game.Move{Notation: "e2b5"}, game.IllegalMove)
	s = move(t, s, "h2h3")
	s = move(t, s, "h3h4")
	isTurnOf(t, s, 1)
}

// A card that checks is answered in its R1 window, not by an R2 after it: Teleport
// carries the rook to a8 with check, Black passes the card's window, and no window
// follows the check; Last stand stays in Black's hand for a move that checks.
func TestACardThatChecksOpensNoR2(t *testing.T) {
	s := adv(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", []string{"teleport"}, []string{"last-stand", "frost"}, "")
	s = laid(t, s, sec(1), "teleport", "a1", "a8")
	window(t, s, R1, 1)
	s, _ = passWindow(t, s)
	if s.Window != nil || !s.kingAttacked(1) {
		t.Fatalf("after Teleport's check: window %+v, check %v (%s)", s.Window, s.kingAttacked(1), s.FEN())
	}
	isTurnOf(t, s, 1)
}
