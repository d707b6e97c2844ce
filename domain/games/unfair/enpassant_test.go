package unfair

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
)

// « Un pion adverse qui avance de deux cases et vient se coller au tien peut être capturé
// comme s'il n'en avait avancé qu'une. Seulement au coup juste après. » En passant is the
// right of a pawn the enemy pawn came beside by its two-square advance, on the move just
// after it. Black has just played d7-d5 beside White's e5 pawn; White's Second Wind
// (pawn-surge, then a move) brings the c4 pawn to c5, beside d5 too. The e5 pawn may take
// en passant with the move the card owes; the c5 pawn, which the card brought, may not
// (from unfair-2026.4; under unfair-2026.3 and before it could).
func TestOnlyAPawnTheEnemyPawnCameBesideTakesEnPassant(t *testing.T) {
	const fen = "4k3/8/8/3pP3/2P5/8/8/4K3 w - d6 0 2"
	s, _ := playCard(t, table(t, fen, holding("pawn-surge"), holding()), "pawn-surge", at("c4", "c5"), "")
	if s.Turn.Brought != idOn(t, s, "c5") {
		t.Fatalf("the pawn brought: %d, the c5 pawn is %d", s.Turn.Brought, idOn(t, s, "c5"))
	}
	why := refused(t, s, game.Move{Notation: "c5d6"}, game.IllegalMove)
	if !strings.Contains(why, "brought there by your card") {
		t.Errorf("cxd6 e.p. refused with %q", why)
	}
	for _, m := range s.moves() {
		if m.UCI() == "c5d6" {
			t.Error("the moves list cxd6 e.p.")
		}
	}
	if after := move(t, s, "e5d6"); board(after) != "4k3/8/3P4/2P5/8/8/8/4K3" {
		t.Errorf("exd6 e.p. gave %s", board(after))
	}
	// The same move sent with the card is refused alike, and changes nothing.
	s = table(t, fen, holding("pawn-surge"), holding())
	refused(t, s, cards.PlayCard{Card: "pawn-surge", Slot: -1, Targets: at("c4", "c5"), Move: "c5d6"}, game.IllegalMove)

	for _, v := range []string{"unfair-2026.1", "unfair-2026.2", "unfair-2026.3"} {
		s := table(t, fen, holding("pawn-surge"), holding())
		s.v = variants[v]
		s, _ = playCard(t, s, "pawn-surge", at("c4", "c5"), "")
		if after := move(t, s, "c5d6"); board(after) != "4k3/8/3P4/4P3/8/8/8/4K3" {
			t.Errorf("%s: cxd6 e.p. gave %s", v, board(after))
		}
	}
}

// A card brings a pawn beside an enemy pawn that advanced two squares past no pawn of
// White's: no pawn came beside the enemy pawn, so there is no en passant at all (the
// position has no en-passant square), under every version.
func TestACardPawnBesideAPawnThatAdvancedAloneTakesNothing(t *testing.T) {
	s := table(t, "4k3/3p4/8/8/2P5/8/8/4K3 b - - 0 1", holding(), holding())
	s = move(t, s, "d7d5")
	s.Sides[0].Hand[0] = "pawn-surge"
	s, _ = playCard(t, s, "pawn-surge", at("c4", "c5"), "")
	refused(t, s, game.Move{Notation: "c5d6"}, game.IllegalMove)
}

// « Un pion adverse qui avance de deux cases »: the pawn's own two-square move, its first
// (« ou de deux à son premier coup »). A pawn that a card moved two squares did not make
// that move: Black's Pawn Rush (a card that replaces the move) takes the d7 pawn to d5,
// beside White's e5 pawn, and White may not take it en passant, as the card's text says
// (« No en-passant capture follows »). Played as a move, d7-d5 may be taken.
func TestAPawnACardMovedTwoSquaresIsNotTakenEnPassant(t *testing.T) {
	const fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"
	s, _ := playCard(t, table(t, fen, holding(), holding("pawn-rush")), "pawn-rush", at("d7", "d5"), "")
	if board(s) != "4k3/8/8/3pP3/8/8/8/4K3" {
		t.Fatalf("after the rush: %s", board(s))
	}
	refused(t, s, game.Move{Notation: "e5d6"}, game.IllegalMove)
	s = move(t, table(t, fen, holding(), holding()), "d7d5")
	if after := move(t, s, "e5d6"); board(after) != "4k3/8/3P4/8/8/8/8/4K3" {
		t.Errorf("exd6 e.p. after d7-d5 gave %s", board(after))
	}
}
