package unfair

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// sameID checks that the piece on square after is the one on from before.
func sameID(from, square string) func(t *testing.T, before, after State, _ []game.Emitted) {
	return func(t *testing.T, before, after State, _ []game.Emitted) {
		t.Helper()
		if idOn(t, before, from) != idOn(t, after, square) {
			t.Errorf("the piece on %s is not the one from %s", square, from)
		}
	}
}

// tookFrom checks the pieces seat has lost since before.
func tookFrom(seat int, roles ...chess.Role) func(t *testing.T, before, after State, _ []game.Emitted) {
	return func(t *testing.T, before, after State, _ []game.Emitted) {
		t.Helper()
		taken := after.Sides[seat].Taken[len(before.Sides[seat].Taken):]
		if len(taken) != len(roles) {
			t.Fatalf("seat %d lost %v, want %v", seat, taken, roles)
		}
		for i, r := range roles {
			if taken[i].Role != r {
				t.Errorf("seat %d lost %v, want %v", seat, taken, roles)
			}
		}
	}
}

var movementPlays = []cardCase{
	{name: "a rook leaps like a knight", card: "knight-leap", fen: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
		targets: at("a1", "b3"), board: "4k3/8/8/8/8/1R6/8/4K3", check: sameID("a1", "b3")},
	{name: "a rook glides like a bishop", card: "bishop-glide", fen: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
		targets: at("a1", "d4"), board: "4k3/8/8/8/3R4/8/8/4K3"},
	{name: "a knight charges like a rook", card: "rook-charge", fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
		targets: at("b1", "b5"), board: "4k3/8/8/1N6/8/8/8/4K3"},
	{name: "a pawn steps back diagonally like a king", card: "royal-step", fen: "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1",
		targets: at("e4", "d3"), board: "4k3/8/8/8/8/3P4/8/4K3"},
	{name: "a knight takes on h7 like a queen", card: "queen-breath", fen: "4k3/7p/8/8/8/8/8/1N2K3 w - - 0 1",
		targets: at("b1", "h7"), board: "4k3/7N/8/8/8/8/8/4K3", check: tookFrom(1, chess.Pawn)},
	{name: "a pawn steps back", card: "retreat", fen: "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1",
		targets: at("e4", "e3"), board: "4k3/8/8/8/8/4P3/8/4K3"},
	{name: "a pawn rushes from its fourth rank", card: "pawn-rush", fen: "k7/8/8/8/4P3/8/8/4K3 w - - 0 1",
		targets: at("e4", "e6"), board: "k7/8/4P3/8/8/8/8/4K3"},
	{name: "a pawn rushes to the last rank and becomes a queen", card: "pawn-rush", fen: "k7/8/4P3/8/8/8/8/4K3 w - - 0 1",
		targets: at("e6", "e8"), board: "k3Q3/8/8/8/8/8/8/4K3", check: sameID("e6", "e8")},
	{name: "a rook jumps over its own pawn", card: "leapfrog", fen: "4k3/8/8/8/8/8/3P4/3RK3 w - - 0 1",
		targets: at("d1", "d3"), board: "4k3/8/8/8/8/3R4/3P4/4K3"},
	{name: "king and rook castle short without rights", card: "free-castle", fen: "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
		targets: at("e1", "g1"), board: "4k3/8/8/8/8/8/8/R4RK1"},
	{name: "and long", card: "free-castle", fen: "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
		targets: at("e1", "c1"), board: "4k3/8/8/8/8/8/8/2KR3R"},
	{name: "a rook bridges its pawn and takes on d4", card: "bridge", fen: "4k3/8/8/8/3p4/8/3P4/3RK3 w - - 0 1",
		targets: at("d1", "d4"), board: "4k3/8/8/8/3R4/8/3P4/4K3", check: tookFrom(1, chess.Pawn)},
	{name: "a knight makes a camel's leap", card: "long-leap", fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
		targets: at("b1", "c4"), board: "4k3/8/8/8/2N5/8/8/4K3"},
	{name: "a pawn takes the knight in front of it", card: "breakthrough", fen: "4k3/8/8/4n3/4P3/8/8/4K3 w - - 0 1",
		targets: at("e4", "e5"), board: "4k3/8/8/4P3/8/8/8/4K3", check: tookFrom(1, chess.Knight)},
}

var movementRefusals = []refusal{
	{name: "a knight already leaps", card: "knight-leap", fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", targets: at("b1", "c3"),
		unplayable: true, reason: "no piece of yours can move that way"},
	{name: "a pinned bishop stays on its line", card: "knight-leap", fen: "4k3/4r3/8/8/8/8/4B3/R3K3 w - - 0 1", targets: at("e2", "c3"),
		reason: "not one of the choices"},
	{name: "a queen already glides", card: "bishop-glide", fen: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", targets: at("d1", "f3"),
		unplayable: true, reason: "no piece of yours can move that way"},
	{name: "a rook's charge stops at a piece", card: "rook-charge", fen: "4k3/8/8/8/8/1P6/8/1N2K3 w - - 0 1", targets: at("b1", "b5"),
		reason: "not one of the choices"},
	{name: "not the king", card: "royal-step", fen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1", targets: at("e1", "e2"),
		unplayable: true, reason: "no piece of yours can move that way"},
	{name: "a queen already breathes", card: "queen-breath", fen: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", targets: at("d1", "d8"),
		unplayable: true, reason: "no piece of yours can move that way"},
	{name: "never back to the first rank", card: "retreat", fen: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", targets: at("e2", "e1"),
		unplayable: true, reason: "no pawn of yours can step back"},
	{name: "a blocked pawn", card: "pawn-rush", fen: "k7/8/8/4p3/4P3/8/8/4K3 w - - 0 1", targets: at("e4", "e6"),
		unplayable: true, reason: "no pawn of yours can advance two squares"},
	{name: "onto an empty square only", card: "leapfrog", fen: "4k3/8/8/8/8/3p4/3P4/3RK3 w - - 0 1", targets: at("d1", "d3"),
		reason: "not one of the choices"},
	{name: "the king has left e1", card: "free-castle", fen: "4k3/8/8/8/8/8/8/R2K3R w - - 0 1", targets: at("d1", "g1"),
		unplayable: true, reason: "your king is not on its starting square"},
	{name: "not across an attacked square", card: "free-castle", fen: "4k3/8/8/8/8/8/5r2/R3K2R w - - 0 1", targets: at("e1", "g1"),
		reason: "not one of the choices"},
	{name: "over exactly one piece", card: "bridge", fen: "4k3/8/8/8/8/3P4/3P4/3RK3 w - - 0 1", targets: at("d1", "d4"),
		reason: "not one of the choices"},
	{name: "never onto a king", card: "long-leap", fen: "4k3/8/8/3N4/8/8/8/4K3 w - - 0 1", targets: at("d5", "e8"),
		reason: "not one of the choices"},
	{name: "never a king", card: "breakthrough", fen: "8/8/8/4k3/4P3/8/8/4K3 w - - 0 1", targets: at("e4", "e5"),
		unplayable: true, reason: "no pawn of yours faces an enemy piece it may take"},
}

func TestMovementCards(t *testing.T)    { runCards(t, movementPlays) }
func TestMovementRefusals(t *testing.T) { runRefusals(t, movementRefusals) }
