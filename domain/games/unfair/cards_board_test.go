package unfair

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// blackMoves checks Black's legal moves after the card.
func blackMoves(want ...string) func(t *testing.T, _, after State, _ []game.Emitted) {
	return func(t *testing.T, _, after State, _ []game.Emitted) {
		t.Helper()
		if got := legal(after); !slices.Equal(got, want) {
			t.Errorf("Black's moves %v, want %v", got, want)
		}
	}
}

// inCheck is White to move, in check from the a1 rook.
const inCheck = "4k3/8/8/8/8/8/8/r3K3 w - - 0 1"

var boardPlays = []cardCase{
	{name: "a wall on e7", card: "wall", fen: bareKings, targets: at("e7"), board: "4k3/8/8/8/8/8/8/4K3",
		check: blackMoves("e8d7", "e8d8", "e8f7", "e8f8")},
	{name: "a barricade on d7 e7 f7", card: "barricade", fen: bareKings, targets: at("e7"),
		check: blackMoves("e8d8", "e8f8")},
	{name: "no-man's land around b2", card: "no-mans-land", fen: bareKings, targets: at("b2"),
		check: func(t *testing.T, _, after State, _ []game.Emitted) {
			if got, want := after.Bars[1].Squares, chess.BB(chess.A1, chess.B1, chess.C1, chess.A2, chess.B2, chess.C2, chess.A3, chess.B3, chess.C3); got != want {
				t.Errorf("barred %v, want %v", got.Squares(), want.Squares())
			}
		}},
	{name: "the a7 rook is shackled", card: "shackles", fen: "4k3/r7/8/8/8/8/8/4K3 w - - 0 1", targets: at("a7"),
		check: blackMoves("e8d7", "e8d8", "e8e7", "e8f7", "e8f8")},
	{name: "the black king is shackled", card: "royal-shackles", fen: "4k3/r7/8/8/8/8/8/7K w - - 0 1", targets: at("e8"),
		check: func(t *testing.T, _, after State, _ []game.Emitted) {
			for _, m := range legal(after) {
				if m[:2] == "e8" {
					t.Errorf("the shackled king moves: %s", m)
				}
			}
		}},
	{name: "the d5 pawn deserts", card: "desertion", fen: "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1", targets: at("d5"),
		board: "4k3/8/8/3P4/8/8/8/4K3", check: sameID("d5", "d5")},
	{name: "Black loses castling", card: "trench", fen: "r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1", targets: at(),
		check: func(t *testing.T, _, after State, _ []game.Emitted) {
			if after.Pos.Castling() != chess.NoCastling {
				t.Errorf("castling rights %v", after.Pos.Castling())
			}
		}},
	{name: "a pawn in White's half is destroyed", card: "ambush", fen: "4k3/8/8/8/3p4/8/8/4K3 w - - 0 1", targets: at("d4"),
		board: "4k3/8/8/8/8/8/8/4K3", check: tookFrom(1, chess.Pawn)},
	{name: "Black's pawns are frozen", card: "frost", fen: "4k3/3p4/8/8/8/8/8/4K3 w - - 0 1", targets: at(),
		check: blackMoves("e8d8", "e8e7", "e8f7", "e8f8")},
	{name: "Black may not take the d1 knight", card: "truce", fen: "4k3/8/8/8/8/8/3r4/3NK3 w - - 0 1", targets: at(),
		check: func(t *testing.T, _, after State, _ []game.Emitted) {
			if slices.Contains(legal(after), "d2d1") || !slices.Contains(legal(after), "d2d3") {
				t.Errorf("Black's moves under a truce: %v", legal(after))
			}
		}},
	{name: "Black may not enter ranks 1 to 4", card: "border", fen: "4k3/8/8/3r4/8/8/8/4K3 w - - 0 1", targets: at(),
		check: func(t *testing.T, _, after State, _ []game.Emitted) {
			if slices.Contains(legal(after), "d5d4") || !slices.Contains(legal(after), "d5d6") {
				t.Errorf("Black's moves behind a border: %v", legal(after))
			}
		}},
}

var boardRefusals = []refusal{
	{name: "in check, a wall saves nothing", card: "wall", fen: inCheck, targets: at("e7"),
		unplayable: true, reason: "your king is in check and this does not save it"},
	{name: "not on an occupied square", card: "wall", fen: bareKings, targets: at("e8"), reason: "not one of the choices"},
	{name: "in check", card: "barricade", fen: inCheck, targets: at("e7"), unplayable: true, reason: "does not save it"},
	{name: "in check", card: "no-mans-land", fen: inCheck, targets: at("e7"), unplayable: true, reason: "does not save it"},
	{name: "not the king", card: "shackles", fen: "4k3/r7/8/8/8/8/8/4K3 w - - 0 1", targets: at("e8"), reason: "not one of the choices"},
	{name: "in check", card: "royal-shackles", fen: inCheck, targets: at("e8"), unplayable: true, reason: "does not save it"},
	{name: "no enemy pawn", card: "desertion", fen: "4k3/8/8/3n4/8/8/8/4K3 w - - 0 1", targets: at("d5"),
		unplayable: true, reason: "the opponent has no pawn"},
	{name: "no right left", card: "trench", fen: "r3k2r/8/8/8/8/8/8/4K3 w - - 0 1", targets: at(),
		unplayable: true, reason: "the opponent has no castling right left"},
	{name: "the pawn is in Black's half", card: "ambush", fen: "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1", targets: at("d5"),
		unplayable: true, reason: "no enemy pawn you may destroy stands in your half"},
	{name: "a shielded pawn", card: "ambush", fen: "4k3/8/8/8/3p4/8/8/4K3 w - - 0 1", targets: at("d4"),
		setup:      func(t *testing.T, s State) State { return marked(t, s, "d4", Shield, 1) },
		unplayable: true, reason: "no enemy pawn you may destroy"},
	{name: "no enemy pawn", card: "frost", fen: bareKings, targets: at(), unplayable: true, reason: "the opponent has no pawn"},
	{name: "in check", card: "truce", fen: inCheck, targets: at(), unplayable: true, reason: "does not save it"},
	{name: "in check", card: "border", fen: inCheck, targets: at(), unplayable: true, reason: "does not save it"},
}

func TestBoardCards(t *testing.T)    { runCards(t, boardPlays) }
func TestBoardRefusals(t *testing.T) { runRefusals(t, boardRefusals) }
