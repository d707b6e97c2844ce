package unfair

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
)

// What a client of a player with a free account may send to cheat with its cards: each is
// refused with its code and a reason that says what was wrong, and changes nothing.
func TestAnAdversarysCardsAreRefused(t *testing.T) {
	// White: king e1, a knight on e2 pinned by Black's e8 rook, a rook on a1; Black: king
	// h8, the rook, a pawn on b7. White holds teleport, purge, dynamite and knight-leap.
	const fen = "4r2k/1p6/8/8/8/8/4N3/R3K3 w - - 0 1"
	s := table(t, fen, holding("teleport", "purge", "dynamite", "knight-leap"), holding("wall", "truce", "sleep", "swap"))
	for _, c := range []struct {
		name    string
		s       State
		play    cards.PlayCard
		code    game.Code
		because string
	}{
		{"a pinned knight teleported away uncovers the king", s,
			cards.PlayCard{Card: "teleport", Slot: -1, Targets: at("e2", "d4")}, game.IllegalMove, "it would leave your king in check"},
		{"an enemy piece teleported as if it were one's own", s,
			cards.PlayCard{Card: "teleport", Slot: -1, Targets: at("b7", "b3")}, game.IllegalMove, "not one of the choices"},
		{"a teleport onto an occupied square", s,
			cards.PlayCard{Card: "teleport", Slot: -1, Targets: at("a1", "b7")}, game.IllegalMove, "not one of the choices"},
		{"a leap that takes the enemy king", table(t, "7k/8/6R1/8/8/8/8/4K3 w - - 0 1", holding("knight-leap"), holding()),
			cards.PlayCard{Card: "knight-leap", Slot: -1, Targets: at("g6", "h8")}, game.IllegalMove, "not one of the choices"},
		{"dynamite on a king", s,
			cards.PlayCard{Card: "dynamite", Slot: -1, Targets: at("h8")}, game.IllegalMove, "not one of the choices"},
		{"a hand slot past the hand", s,
			cards.PlayCard{Card: "purge", Slot: -1, Targets: at("4")}, game.BadInput, "a hand slot, 0 to 3"},
		{"a negative hand slot", s,
			cards.PlayCard{Card: "purge", Slot: -1, Targets: at("-1")}, game.BadInput, "a hand slot, 0 to 3"},
		{"a hand slot written with a leading zero", s,
			cards.PlayCard{Card: "purge", Slot: -1, Targets: at("01")}, game.BadInput, "a hand slot, 0 to 3"},
		{"a square where a hand slot goes", s,
			cards.PlayCard{Card: "purge", Slot: -1, Targets: at("e4")}, game.BadInput, "a hand slot"},
		{"a card named in a slot that holds another", s,
			cards.PlayCard{Card: "teleport", Slot: 1, Targets: at("a1", "a4")}, game.BadInput, ""},
		{"a sleeping rook moved by its owner's card", marked(t, s, "a1", Sleep, 1),
			cards.PlayCard{Card: "teleport", Slot: -1, Targets: at("a1", "a4")}, game.IllegalMove, "not one of the choices"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if why := refused(t, c.s, c.play, c.code); !strings.Contains(why, c.because) {
				t.Errorf("refused because %q, want %q", why, c.because)
			}
		})
	}

	// Black walls d4; on White's turn a teleport onto it is refused, and White may not
	// play Black's cards, nor two cards in one turn.
	walled, _ := playCard(t, func() State { b := s; b.Pos.PassTurn(); return b }(), "wall", at("d4"), "")
	for _, c := range []struct {
		name string
		do   any
		code game.Code
	}{
		{"onto a walled square", cards.PlayCard{Card: "teleport", Slot: -1, Targets: at("a1", "d4")}, game.IllegalMove},
		{"the opponent's card", cards.PlayCard{Card: "truce", Slot: -1}, game.IllegalMove},
	} {
		refused(t, walled, c.do, c.code)
	}
	if _, err := (Rules{}).Decide(walled, game.Action{Seat: 1, Do: cards.PlayCard{Card: "truce", Slot: -1}}); game.CodeOf(err) != game.NotYourTurn {
		t.Errorf("Black's card on White's turn: %v", err)
	}
}
