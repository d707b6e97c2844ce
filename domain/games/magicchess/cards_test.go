package magicchess

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Each implemented card has a test where it works and one where it is refused, written
// as chess positions; TestEveryCardIsTestedOrRefused fails when a card lacks either, and
// lists the cards that are not implemented (which the game must refuse).

type cardTest struct{ works, refused func(t *testing.T) }

const (
	start = chess.StartFEN
	// Black to move, stalemated: no move would follow a card.
	stalemated = "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"
	// White in check from the rook on e8, with a way out by a move.
	rookCheck = "k3r3/8/8/8/8/8/3P1P2/3QKB2 w - - 0 1"
)

// solo is a table from fen where White holds card alone.
func solo(t *testing.T, fen, card string) State { return table(t, fen, []string{card}, nil) }

// at1 is the piece on sq, for a test.
func pieceOn(t *testing.T, s State, sq string) string {
	t.Helper()
	q, _ := chess.ParseSquare(sq)
	pc, ok := s.Pos.PieceAt(q)
	if !ok {
		return ""
	}
	return pc.String()
}

// expect checks the pieces on squares ("" for empty).
func expect(t *testing.T, s State, want map[string]string) {
	t.Helper()
	for sq, w := range want {
		if got := pieceOn(t, s, sq); got != w {
			t.Errorf("%s holds %q, want %q (%s)", sq, got, w, s.FEN())
		}
	}
}

// isTurnOf checks whose turn it is.
func isTurnOf(t *testing.T, s State, seat int) {
	t.Helper()
	if s.toAct() != seat {
		t.Fatalf("seat %d to act, want %d", s.toAct(), seat)
	}
}

// noMove checks that the seat to act may not play uci.
func noMove(t *testing.T, s State, uci string) {
	t.Helper()
	if slices.Contains(legal(s), uci) {
		t.Fatalf("%s is legal, want it barred (%s)", uci, s.FEN())
	}
	refused(t, s, game.Move{Notation: uci}, game.IllegalMove)
}

var cardTests = map[string]cardTest{
	"teleport": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, start, "teleport"), "teleport", at("b1", "e4"), "")
			expect(t, s, map[string]string{"b1": "", "e4": pieceOn(t, table(t, start, nil, nil), "b1")})
			isTurnOf(t, s, 1)
		},
		refused: func(t *testing.T) {
			s := solo(t, start, "teleport")
			refuseCard(t, s, "teleport", at("e1", "e4"), "not one of the choices") // a king
			refuseCard(t, s, "teleport", at("a2", "a8"), "not one of the choices") // occupied
			refuseCard(t, s, "teleport", at("a2", "e8"), "not one of the choices") // and a pawn's last rank
		},
	},
	"swap": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, start, "swap"), "swap", at("b1", "c1"), "")
			expect(t, s, map[string]string{"b1": "B", "c1": "N"})
		},
		refused: func(t *testing.T) {
			s := solo(t, start, "swap")
			refuseCard(t, s, "swap", at("d1", "e1"), "not one of the choices")
			refuseCard(t, s, "swap", at("a2", "b2"), "not one of the choices") // two pawns: nothing changes
		},
	},
	"banish": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, start, "banish"), "banish", at("e7"), "")
			expect(t, s, map[string]string{"e7": ""})
		},
		refused: func(t *testing.T) {
			s := solo(t, start, "banish")
			refuseCard(t, s, "banish", at("e8"), "not one of the choices")
			refuseCard(t, s, "banish", at("d8"), "not one of the choices")
		},
	},
	"repel": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/8/4n3/8/8/4K3 w - - 0 1", "repel"), "repel", at("e4"), "")
			expect(t, s, map[string]string{"e4": "", "e5": "n"})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, start, "repel"), "repel", at("b8"), "no enemy piece has an empty square behind it")
		},
	},
	"ascend": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "ascend"), "ascend", at("b7"), "")
			expect(t, s, map[string]string{"b7": "Q"})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, start, "ascend"), "ascend", at("e2"), "cannot be laid now")
		},
	},
	"reinforce": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQkq - 0 1", "reinforce"), "reinforce", at("a2"), "")
			expect(t, s, map[string]string{"a2": "P"})
		},
		refused: func(t *testing.T) {
			s := solo(t, "rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQkq - 0 1", "reinforce")
			refuseCard(t, s, "reinforce", at("a3"), "not one of the choices")
			refuseCard(t, solo(t, start, "reinforce"), "reinforce", at("e2"), "cannot be laid now")
		},
	},
	"resurrect": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1", "resurrect"), "resurrect", at("b1"), "")
			expect(t, s, map[string]string{"b1": "N"})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1", "resurrect"), "resurrect", at("g1"), "you have two knights")
		},
	},
	"transmute": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, start, "transmute"), "transmute", at("c1"), "")
			expect(t, s, map[string]string{"c1": "N"})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, start, "transmute"), "transmute", at("a1"), "not one of the choices")
		},
	},
	"desert": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/8/4p3/8/8/4K3 w - - 0 1", "desert"), "desert", at("e4"), "")
			expect(t, s, map[string]string{"e4": "P"})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, "4k3/8/8/4p3/8/8/8/4K3 w - - 0 1", "desert"), "desert", at("e5"), "no enemy pawn you may take stands in your half")
		},
	},
	"confusion": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, start, "confusion"), "confusion", at("b8", "c8"), "")
			expect(t, s, map[string]string{"b8": "b", "c8": "n"})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, start, "confusion"), "confusion", at("d8", "e8"), "not one of the choices")
		},
	},
	"recall": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", "recall"), "recall", at("e4", "b1"), "")
			expect(t, s, map[string]string{"e4": "", "b1": "N"})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "recall"), "recall", at("e4", "b1"), "no piece of yours")
		},
	},
	"echo": {
		works: func(t *testing.T) {
			s := table(t, start, []string{"wall"}, []string{"echo"})
			s, _ = lay(t, s, "wall", at("e4"), "")
			s, evs := lay(t, s, "echo", nil, "")
			if r := evs[0].Event.(CardPlayed).Result; r != Lasts {
				t.Fatalf("echo of a wall: %s, want it to last", r)
			}
			noMove(t, s, "e2e4") // Black's wall, by Echo, binds White
		},
		refused: func(t *testing.T) {
			// In check, an echo that does nothing does not save the king.
			refuseCard(t, solo(t, rookCheck, "echo"), "echo", nil, "your king is in check")
		},
	},
	"freeze": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, start, "freeze"), "freeze", at("g8"), "")
			noMove(t, s, "g8f6")
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, start, "freeze"), "freeze", at("e8"), "not one of the choices")
		},
	},
	"wall": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, start, "wall"), "wall", at("e5"), "")
			noMove(t, s, "e7e5")
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, start, "wall"), "wall", at("e7"), "not one of the choices")
		},
	},
	"shield": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "shield"), "shield", at("e4"), "")
			noMove(t, s, "d5e4")
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, start, "shield"), "shield", at("e1"), "not one of the choices")
		},
	},
	"truce": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "truce"), "truce", nil, "")
			noMove(t, s, "d5e4")
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, rookCheck, "truce"), "truce", nil, "your king is in check")
		},
	},
	"frost": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, start, "frost"), "frost", nil, "")
			noMove(t, s, "e7e5")
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, rookCheck, "frost"), "frost", nil, "your king is in check")
		},
	},
	"fortress": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/8/3p4/4P3/8/4K3 w - - 0 1", "fortress"), "fortress", nil, "")
			noMove(t, s, "d4e3")
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, rookCheck, "fortress"), "fortress", nil, "your king is in check")
		},
	},
	"swamp": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, start, "swamp"), "swamp", at("e5"), "")
			noMove(t, s, "e7e5")
			noMove(t, s, "d7d6")
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, start, "swamp"), "swamp", at("d7"), "not one of the choices")
		},
	},
	"paralysis": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "3qk3/8/8/8/8/8/8/4K3 w - - 0 1", "paralysis"), "paralysis", nil, "")
			noMove(t, s, "d8d1")
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, rookCheck, "paralysis"), "paralysis", nil, "your king is in check")
		},
	},
	"knight-leap": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, start, "knight-leap"), "knight-leap", at("c1"), "c1d3")
			expect(t, s, map[string]string{"d3": "B", "c1": ""})
			isTurnOf(t, s, 1)
		},
		refused: func(t *testing.T) {
			refuseCard(t, table(t, stalemated, nil, []string{"knight-leap", "frost"}), "knight-leap", at("a8"), "none of your pieces may move")
		},
	},
	"rook-path": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", "rook-path"), "rook-path", at("d4"), "d4h4")
			expect(t, s, map[string]string{"h4": "N"})
		},
		refused: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", "rook-path"), "rook-path", at("d4"), "")
			refused(t, s, game.Move{Notation: "d4g7"}, game.IllegalMove) // a bishop's move, not a rook's
		},
	},
	"bishop-path": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", "bishop-path"), "bishop-path", at("d4"), "d4g7")
			expect(t, s, map[string]string{"g7": "N"})
		},
		refused: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", "bishop-path"), "bishop-path", at("d4"), "")
			refused(t, s, game.Move{Notation: "d4h4"}, game.IllegalMove)
		},
	},
	"royal-step": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "royal-step"), "royal-step", at("a1"), "a1b2")
			expect(t, s, map[string]string{"b2": "R"})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "royal-step"), "royal-step", at("e1"), "not one of the choices")
		},
	},
	"queen-pawn": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "queen-pawn"), "queen-pawn", at("e2"), "e2a6")
			expect(t, s, map[string]string{"a6": "P"})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, "4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1", "queen-pawn"), "queen-pawn", at("a1"), "not one of the choices")
		},
	},
	"haste": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, start, "haste"), "haste", nil, "e2e4")
			isTurnOf(t, s, 0)
			s = move(t, s, "d2d4")
			isTurnOf(t, s, 1)
			expect(t, s, map[string]string{"e4": "P", "d4": "P"})
		},
		refused: func(t *testing.T) {
			// The first move may not give check.
			s, _ := lay(t, solo(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "haste"), "haste", nil, "")
			refused(t, s, game.Move{Notation: "a1a8"}, game.IllegalMove)
		},
	},
	"sentinel": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 1", "sentinel"), "sentinel", nil, "e2e4")
			noMove(t, s, "d5e4")
		},
		refused: func(t *testing.T) {
			refuseCard(t, table(t, stalemated, nil, []string{"sentinel", "frost"}), "sentinel", nil, "no legal move would follow")
		},
	},
	"ambush": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 1", "ambush"), "ambush", nil, "e2e4")
			noMove(t, s, "d5d4")
			noMove(t, s, "d5e4")
		},
		refused: func(t *testing.T) {
			refuseCard(t, table(t, stalemated, nil, []string{"ambush", "frost"}), "ambush", nil, "no legal move would follow")
		},
	},
	"trail": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "k3r3/8/8/8/8/8/4N3/K7 w - - 0 1", "trail"), "trail", nil, "e2c3")
			noMove(t, s, "e8e2")
			if !slices.Contains(legal(s), "e8e3") {
				t.Fatal("trail closes more than the square the knight left")
			}
		},
		refused: func(t *testing.T) {
			refuseCard(t, table(t, stalemated, nil, []string{"trail", "frost"}), "trail", nil, "no legal move would follow")
		},
	},
	"escape": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, rookCheck, "escape"), "escape", at("e1", "c3"), "")
			expect(t, s, map[string]string{"c3": "K", "e1": ""})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, start, "escape"), "escape", at("e1", "e3"), "only when your king is in check")
			refuseCard(t, solo(t, rookCheck, "escape"), "escape", at("e1", "e3"), "does not save it")
		},
	},
	"interpose": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, rookCheck, "interpose"), "interpose", at("d2", "e4"), "")
			expect(t, s, map[string]string{"e4": "P", "d2": ""})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, "k7/8/8/8/8/3n4/3P4/4K3 w - - 0 1", "interpose"), "interpose", at("d2", "e2"), "nothing this card may do")
		},
	},
	"exorcism": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "k7/8/8/8/8/3n4/8/4K3 w - - 0 1", "exorcism"), "exorcism", at("d3"), "")
			expect(t, s, map[string]string{"d3": ""})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, rookCheck, "exorcism"), "exorcism", at("e8"), "nothing this card may do")
		},
	},
	"sanctuary": {
		works: func(t *testing.T) {
			s, _ := lay(t, solo(t, "k3r3/8/8/8/8/8/8/4K2R w - - 0 1", "sanctuary"), "sanctuary", at("h1"), "")
			expect(t, s, map[string]string{"h1": "K", "e1": "R"})
		},
		refused: func(t *testing.T) {
			refuseCard(t, solo(t, "k7/8/8/8/8/8/8/4K2R w - - 0 1", "sanctuary"), "sanctuary", at("h1"), "only when your king is in check")
		},
	},
}

// Every implemented card has both tests; every other card is listed, and laying it is
// refused with ErrUnimplemented.
func TestEveryCardIsTestedOrRefused(t *testing.T) {
	var missing []string
	for _, e := range entries {
		if !Implemented(e.ID) {
			t.Logf("not implemented: %s (%s)", e.ID, e.Window)
			s := table(t, start, nil, nil)
			s.Hands[0] = []string{e.ID}
			_, err := Rules{}.Decide(s, game.Action{Seat: 0, At: t0, Do: cards.PlayCard{Card: e.ID, Slot: -1}})
			if !errors.Is(err, ErrUnimplemented) || game.CodeOf(err) != game.IllegalMove {
				t.Errorf("%s is not implemented, but laying it gives %v", e.ID, err)
			}
			if hc := handCard(t, s, 0, e.ID); hc.Playable {
				t.Errorf("%s is not implemented, but the hand lists it as playable", e.ID)
			}
			continue
		}
		c, ok := cardTests[e.ID]
		if !ok || c.works == nil || c.refused == nil {
			missing = append(missing, e.ID)
			continue
		}
		t.Run(e.ID+"/works", c.works)
		t.Run(e.ID+"/refused", c.refused)
	}
	if len(missing) > 0 {
		t.Errorf("implemented cards without a test where they work and one where they are refused: %v", missing)
	}
	for id := range cardTests {
		if !Implemented(id) {
			t.Errorf("a test for %s, which is not implemented", id)
		}
	}
}

// Rule 1: a card laid when its player's king is not in check may not put it in check. The
// card's effect offers the play; the rules refuse it with the reason, leave the state as
// it was, and the hand does not list it. When every play of the card would, the card is
// not playable and the hand says why.
func TestACardThatWouldExposeYourKingIsRefused(t *testing.T) {
	// Confusion on Black's queen d5 and pawn e5 would bring the queen onto the open e-file
	// against the king on e1; on d5 and c6 it would not.
	s := table(t, "r3k2r/ppp2ppp/2n5/3qp3/1b1P4/2N5/PPPB1PPP/R2QKB1R w KQkq - 0 1", []string{"confusion"}, nil)
	if s.kingAttacked(0) {
		t.Fatal("White is in check before the card")
	}
	lifted := s
	lifted.lay(0, 0)
	all, _ := effects["confusion"](&lifted, 0)
	for _, tg := range [][]string{at("d5", "e5"), at("d5", "c6")} {
		if _, ok := find(all, tg); !ok {
			t.Fatalf("confusion's effect does not offer %v", tg)
		}
	}
	refuseCard(t, s, "confusion", at("d5", "e5"), "it would leave your king in check")
	hc := handCard(t, s, 0, "confusion")
	if !hc.Playable || slices.ContainsFunc(hc.Targets, func(x []string) bool { return slices.Equal(x, at("d5", "e5")) }) ||
		!slices.ContainsFunc(hc.Targets, func(x []string) bool { return slices.Equal(x, at("d5", "c6")) }) {
		t.Fatalf("the hand lists confusion as %+v", hc)
	}
	after, _ := lay(t, s, "confusion", at("d5", "c6"), "")
	expect(t, after, map[string]string{"c6": "q", "d5": "n"})
	// Teleport's only piece but the king is the knight on e2, which the rook next to it
	// pins: every square it could go to would expose the king, so the card cannot be laid.
	s = solo(t, "4k3/8/8/8/8/4r3/4N3/4K3 w - - 0 1", "teleport")
	refuseCard(t, s, "teleport", at("e2", "a3"), "it would leave your king in check")
	if hc := handCard(t, s, 0, "teleport"); hc.Playable || len(hc.Targets) != 0 || !strings.Contains(hc.Reason, "it would leave your king in check") {
		t.Fatalf("teleport of a pinned knight: %+v", hc)
	}
}
