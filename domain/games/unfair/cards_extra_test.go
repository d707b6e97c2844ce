package unfair

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
)

var extraPlays = []cardCase{
	{name: "e4 then e5", card: "double-move", fen: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", targets: at(), then: "e4",
		board: "4k3/8/8/8/4P3/8/8/4K3",
		check: func(t *testing.T, _, after State, _ []game.Emitted) {
			if s := (Rules{}).Status(after); s.ToAct[0] != 0 || s.Phase != "move-after-card" {
				t.Fatalf("after the first move: %+v", s)
			}
			refused(t, after, cards.PlayCard{Card: "double-move", Slot: -1}, game.IllegalMove)
			after = move(t, after, "e5")
			if board(after) != "4k3/8/8/4P3/8/8/8/4K3" || after.toAct() != 1 {
				t.Errorf("after the second move: %s", after.Pos.FEN())
			}
		}},
	{name: "a pawn surges to e3, then e4", card: "pawn-surge", fen: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
		targets: at("e2", "e3"), then: "e4", board: "4k3/8/8/8/4P3/8/8/4K3"},
	{name: "a knight gallops to c3, then d5", card: "gallop", fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
		targets: at("b1", "c3"), then: "Nd5", board: "4k3/8/8/3N4/8/8/8/4K3"},
	{name: "a rook sidesteps, then the king moves", card: "sidestep", fen: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
		targets: at("a1", "b1"), then: "Kd2", board: "4k3/8/8/8/8/8/3K4/1R6"},
	{name: "two jumps", card: "cavalcade", fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
		targets: at("b1", "c3", "d5"), board: "4k3/8/8/3N4/8/8/8/4K3", check: sameID("b1", "d5")},
	{name: "the second jump takes", card: "cavalcade", fen: "4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1",
		targets: at("b1", "c3", "d5"), board: "4k3/8/8/3N4/8/8/8/4K3"},
	{name: "a sleeping knight wakes and moves", card: "antidote", fen: "4k3/8/8/8/8/8/4N3/4K3 w - - 0 1",
		setup:   func(t *testing.T, s State) State { return marked(t, marked(t, s, "e2", Sleep, 1), "e2", Poison, 0) },
		targets: at("e2"), then: "Nc3", board: "4k3/8/8/8/8/2N5/8/4K3",
		check: func(t *testing.T, _, after State, evs []game.Emitted) {
			hasStatus(t, after, "c3", Sleep, false)
			hasStatus(t, after, "c3", Poison, false)
			if ended := eventsOf[StatusEnded](evs); len(ended) != 2 || ended[0].Status != Sleep || ended[0].Reason != "antidote" {
				t.Errorf("StatusEnded %+v", ended)
			}
		}},
}

var extraRefusals = []refusal{
	{name: "the first move may not give check", card: "double-move", fen: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", targets: at(), then: "Ra8",
		reason: "the first move of a double move may not give check"},
	{name: "never onto the last rank", card: "pawn-surge", fen: "k7/4P3/8/8/8/8/8/4K3 w - - 0 1", targets: at("e7", "e8"),
		unplayable: true, reason: "no pawn of yours can advance one square"},
	{name: "no knight", card: "gallop", fen: bareKings, targets: at("b1", "c3"), unplayable: true, reason: "no knight of yours"},
	{name: "a lone king", card: "sidestep", fen: bareKings, targets: at("e1", "f1"), unplayable: true, reason: "no piece of yours can step"},
	{name: "the first jump may not take", card: "cavalcade", fen: "4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1", targets: at("b1", "c3", "e4"),
		reason: "not one of the choices"},
	{name: "no status to lift", card: "antidote", fen: "4k3/8/8/8/8/8/4N3/4K3 w - - 0 1", targets: at("e2"),
		unplayable: true, reason: "none of your pieces has a status"},
}

func TestExtraCards(t *testing.T)    { runCards(t, extraPlays) }
func TestExtraRefusals(t *testing.T) { runRefusals(t, extraRefusals) }
