package unfair

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// losing sets up a table where seat has lost pieces of the given roles, oldest first.
func losing(seat int, roles ...chess.Role) func(*testing.T, State) State {
	return func(_ *testing.T, s State) State { return lost(s, seat, roles...) }
}

// nothingLeft checks that seat's taken pieces are now left.
func nothingLeft(seat int, left ...chess.Role) func(t *testing.T, _, after State, _ []game.Emitted) {
	return func(t *testing.T, _, after State, _ []game.Emitted) {
		t.Helper()
		var got []chess.Role
		for _, tk := range after.Sides[seat].Taken {
			got = append(got, tk.Role)
		}
		if len(got) != len(left) || len(left) > 0 && got[0] != left[0] {
			t.Errorf("seat %d has %v taken, want %v", seat, got, left)
		}
	}
}

const bareKings = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"

var returnPlays = []cardCase{
	{name: "a pawn comes back to d2", card: "pawn-return", fen: bareKings, setup: losing(0, chess.Pawn),
		targets: at("d2"), board: "4k3/8/8/8/8/8/3P4/4K3", check: nothingLeft(0)},
	{name: "a knight to b1", card: "knight-return", fen: bareKings, setup: losing(0, chess.Knight),
		targets: at("b1"), board: "4k3/8/8/8/8/8/8/1N2K3", check: nothingLeft(0)},
	{name: "a bishop to c1", card: "bishop-return", fen: bareKings, setup: losing(0, chess.Pawn, chess.Bishop),
		targets: at("c1"), board: "4k3/8/8/8/8/8/8/2B1K3", check: nothingLeft(0, chess.Pawn)},
	{name: "a rook to a1", card: "rook-return", fen: bareKings, setup: losing(0, chess.Rook),
		targets: at("a1"), board: "4k3/8/8/8/8/8/8/R3K3"},
	{name: "the queen to d1", card: "queen-return", fen: bareKings, setup: losing(0, chess.Queen),
		targets: at("d1"), board: "4k3/8/8/8/8/8/8/3QK3"},
	{name: "the last piece taken, a knight, to the second rank", card: "resurrection", fen: bareKings, setup: losing(0, chess.Pawn, chess.Knight),
		targets: at("c2"), board: "4k3/8/8/8/8/8/2N5/4K3", check: nothingLeft(0, chess.Pawn)},
	{name: "two pawns to a2 and h2", card: "levy", fen: bareKings, setup: losing(0, chess.Pawn, chess.Pawn),
		targets: at("h2", "a2"), board: "4k3/8/8/8/8/8/P6P/4K3", check: nothingLeft(0)},
	{name: "Black's lost knight fights for White", card: "mercenary", fen: bareKings, setup: losing(1, chess.Knight, chess.Pawn),
		targets: at("b1"), board: "4k3/8/8/8/8/8/8/1N2K3", check: nothingLeft(1, chess.Pawn)},
}

var returnRefusals = []refusal{
	{name: "nothing taken", card: "pawn-return", fen: bareKings, targets: at("d2"),
		unplayable: true, reason: "no pawn of yours has been taken"},
	{name: "only a pawn taken", card: "knight-return", fen: bareKings, setup: losing(0, chess.Pawn), targets: at("b1"),
		unplayable: true, reason: "no knight of yours has been taken"},
	{name: "only a pawn taken", card: "bishop-return", fen: bareKings, setup: losing(0, chess.Pawn), targets: at("c1"),
		unplayable: true, reason: "no bishop of yours has been taken"},
	{name: "only a pawn taken", card: "rook-return", fen: bareKings, setup: losing(0, chess.Pawn), targets: at("a1"),
		unplayable: true, reason: "no rook of yours has been taken"},
	{name: "only a pawn taken", card: "queen-return", fen: bareKings, setup: losing(0, chess.Pawn), targets: at("d1"),
		unplayable: true, reason: "no queen of yours has been taken"},
	{name: "the last one taken is a pawn: not on the first rank", card: "resurrection", fen: bareKings, setup: losing(0, chess.Knight, chess.Pawn),
		targets: at("b1"), reason: "not one of the choices"},
	{name: "one pawn taken", card: "levy", fen: bareKings, setup: losing(0, chess.Pawn), targets: at("a2", "b2"),
		unplayable: true, reason: "fewer than two pawns of yours have been taken"},
	{name: "Black lost only pawns", card: "mercenary", fen: bareKings, setup: losing(1, chess.Pawn), targets: at("b1"),
		unplayable: true, reason: "no enemy piece other than a pawn has left the board"},
}

func TestReturnCards(t *testing.T)    { runCards(t, returnPlays) }
func TestReturnRefusals(t *testing.T) { runRefusals(t, returnRefusals) }
