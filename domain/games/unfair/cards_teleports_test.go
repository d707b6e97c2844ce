package unfair

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

var teleportPlays = []cardCase{
	{name: "a knight appears on e4", card: "teleport", fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
		targets: at("b1", "e4"), board: "4k3/8/8/8/4N3/8/8/4K3", check: sameID("b1", "e4")},
	{name: "rook and knight swap, named in either order", card: "swap", fen: "4k3/8/8/8/8/8/8/RN2K3 w - - 0 1",
		targets: at("b1", "a1"), board: "4k3/8/8/8/8/8/8/NR2K3",
		check: func(t *testing.T, before, after State, evs []game.Emitted) {
			sameID("a1", "b1")(t, before, after, evs)
			sameID("b1", "a1")(t, before, after, evs)
			if p := eventsOf[CardPlayed](evs)[0]; p.Targets[0] != "a1" {
				t.Errorf("the pair is recorded as %v", p.Targets)
			}
		}},
	{name: "the king trades places with its knight", card: "royal-guard", fen: "4k3/8/8/8/8/8/3N4/4K3 w - - 0 1",
		targets: at("e1", "d2"), board: "4k3/8/8/8/8/8/3K4/4N3"},
	{name: "b1 mirrors to g1", card: "mirror", fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
		targets: at("b1", "g1"), board: "4k3/8/8/8/8/8/8/4K1N1"},
	{name: "a knight comes home", card: "recall", fen: "4k3/8/8/3N4/8/8/8/4K3 w - - 0 1",
		targets: at("d5", "a1"), board: "4k3/8/8/8/8/8/8/N3K3"},
	{name: "an enemy knight is pushed", card: "push", fen: "4k3/8/8/3n4/8/8/8/4K3 w - - 0 1",
		targets: at("d5", "d4"), board: "4k3/8/8/8/3n4/8/8/4K3", check: sameID("d5", "d4")},
	{name: "the king flees two squares", card: "king-flight", fen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
		targets: at("e1", "e3"), board: "4k3/8/8/8/8/4K3/8/8"},
	{name: "knights of both sides switch", card: "switch", fen: "4k3/8/8/3n4/4N3/8/8/4K3 w - - 0 1",
		targets: at("e4", "d5"), board: "4k3/8/8/3N4/4n3/8/8/4K3", check: sameID("d5", "e4")},
	{name: "along the first rank", card: "rank-jump", fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
		targets: at("b1", "h1"), board: "4k3/8/8/8/8/8/8/4K2N"},
	{name: "up the b-file", card: "file-jump", fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
		targets: at("b1", "b7"), board: "4k3/1N6/8/8/8/8/8/4K3"},
}

var teleportRefusals = []refusal{
	{name: "a pawn never to the last rank", card: "teleport", fen: "4k3/8/8/8/8/8/P7/4K3 w - - 0 1", targets: at("a2", "a8"),
		reason: "not one of the choices"},
	{name: "one piece cannot swap", card: "swap", fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", targets: at("b1", "e1"),
		unplayable: true, reason: "you have no two pieces that may swap"},
	{name: "a pawn never to the first rank", card: "swap", fen: "4k3/8/8/8/8/8/P7/1N2K3 w - - 0 1", targets: at("a2", "b1"),
		unplayable: true, reason: "you have no two pieces that may swap"},
	{name: "nobody next to the king", card: "royal-guard", fen: "4k3/8/8/8/8/8/8/N3K3 w - - 0 1", targets: at("e1", "a1"),
		unplayable: true, reason: "no piece of yours next to your king"},
	{name: "the mirror square is taken", card: "mirror", fen: "4k3/8/8/8/8/8/8/3NK3 w - - 0 1", targets: at("d1", "e1"),
		unplayable: true, reason: "no piece of yours has an empty mirror square"},
	{name: "not a pawn", card: "recall", fen: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", targets: at("e2", "a1"),
		unplayable: true, reason: "no piece of yours can come back"},
	{name: "not the king", card: "push", fen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1", targets: at("e8", "e7"),
		unplayable: true, reason: "no enemy piece can be pushed"},
	{name: "not onto an attacked square", card: "king-flight", fen: "4k3/8/8/8/8/r7/8/4K3 w - - 0 1", targets: at("e1", "e3"),
		reason: "it would leave your king in check"},
	{name: "no enemy piece next to it", card: "switch", fen: "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", targets: at("e4", "e5"),
		unplayable: true, reason: "no piece of yours stands next to an enemy piece"},
	{name: "a full rank", card: "rank-jump", fen: "4k3/8/8/8/8/8/8/RNBQKBNR w - - 0 1", targets: at("b1", "c3"),
		unplayable: true, reason: "no piece of yours can jump along its rank"},
	{name: "a pawn never to the last rank", card: "file-jump", fen: "4k3/8/8/8/8/8/P7/4K3 w - - 0 1", targets: at("a2", "a8"),
		reason: "not one of the choices"},
}

func TestTeleportCards(t *testing.T)    { runCards(t, teleportPlays) }
func TestTeleportRefusals(t *testing.T) { runRefusals(t, teleportRefusals) }
