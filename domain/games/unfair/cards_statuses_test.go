package unfair

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// hasStatus checks that the piece on square carries kind (or not).
func hasStatus(t *testing.T, s State, square, kind string, want bool) {
	t.Helper()
	if got := s.has(idOn(t, s, square), kind); got != want {
		t.Errorf("the piece on %s carries %s: %v, want %v", square, kind, got, want)
	}
}

var statusPlays = []cardCase{
	{name: "the e2 knight is poisoned", card: "poison", fen: "4k3/8/8/8/8/8/4N3/4K3 w - - 0 1",
		targets: at("e2"), board: "4k3/8/8/8/8/8/4N3/4K3",
		check: func(t *testing.T, before, after State, evs []game.Emitted) {
			hasStatus(t, after, "e2", Poison, true)
			want := StatusApplied{Seat: 0, Piece: int(idOn(t, before, "e2")), Square: "e2", Status: Poison}
			if got := eventsOf[StatusApplied](evs); len(got) != 1 || got[0] != want {
				t.Errorf("StatusApplied %+v, want %+v", got, want)
			}
			if after.toAct() != 1 {
				t.Error("a card that replaces the move ends the turn")
			}
		}},
	{name: "the a7 rook falls asleep", card: "sleep", fen: "4k3/r7/8/8/8/8/8/4K3 w - - 0 1",
		targets: at("a7"), board: "4k3/r7/8/8/8/8/8/4K3",
		check: func(t *testing.T, _, after State, _ []game.Emitted) {
			hasStatus(t, after, "a7", Sleep, true)
			if got := legal(after); !slices.Equal(got, []string{"e8d7", "e8d8", "e8e7", "e8f7", "e8f8"}) {
				t.Errorf("Black's moves with the rook asleep: %v", got)
			}
		}},
	{name: "the e2 knight is shielded, then the king moves", card: "shield", fen: "4k3/8/8/8/8/8/4N3/4K3 w - - 0 1",
		targets: at("e2"), then: "Kd2", board: "4k3/8/8/8/8/8/3KN3/8",
		check: func(t *testing.T, _, after State, _ []game.Emitted) {
			hasStatus(t, after, "e2", Shield, true)
		}},
	{name: "an enemy knight carries dynamite", card: "dynamite", fen: "4k3/8/8/3n4/8/8/8/4K3 w - - 0 1",
		targets: at("d5"), board: "4k3/8/8/3n4/8/8/8/4K3",
		check: func(t *testing.T, _, after State, _ []game.Emitted) { hasStatus(t, after, "d5", Dynamite, true) }},
}

var statusRefusals = []refusal{
	{name: "a lone king", card: "poison", fen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1", targets: at("e1"),
		unplayable: true, reason: "no piece of yours can be poisoned"},
	{name: "in check it saves nothing", card: "poison", fen: "4k3/8/8/8/8/8/4N3/r3K3 w - - 0 1", targets: at("e2"),
		unplayable: true, reason: "your king is in check and this does not save it"},
	{name: "not on one's own piece", card: "sleep", fen: "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", targets: at("e2"),
		reason: "not one of the choices"},
	{name: "no enemy piece but the king", card: "sleep", fen: "4k3/8/8/8/8/8/4N3/4K3 w - - 0 1", targets: at("e8"),
		unplayable: true, reason: "no enemy piece can fall asleep"},
	{name: "not on an enemy piece", card: "shield", fen: "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", targets: at("e7"),
		reason: "not one of the choices"},
	{name: "never on a king", card: "dynamite", fen: "4k3/8/8/8/8/8/4N3/4K3 w - - 0 1", targets: at("e8"),
		reason: "not one of the choices"},
}

func TestStatusCards(t *testing.T)    { runCards(t, statusPlays) }
func TestStatusRefusals(t *testing.T) { runRefusals(t, statusRefusals) }
