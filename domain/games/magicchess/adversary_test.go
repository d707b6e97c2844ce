package magicchess

import (
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
)

// What a player with a free account may send from a modified client, each refused with
// its code and a reason that names what was wrong, and recording nothing: a card not in
// its hand or of another slot, out of its turn or of its window, targets off the board,
// of the wrong count or not the card's, a move that the card's gift does not allow, a
// reaction outside its window or a card inside one.

// adversary is one action that must be refused.
type adversary struct {
	name string
	seat int
	at   time.Time
	do   any
	code game.Code
	says string // a part of the reason
}

// refuseAll checks each action against s: refused with its code and reason, no event.
func refuseAll(t *testing.T, s State, cases []adversary) {
	t.Helper()
	for _, c := range cases {
		at := c.at
		if at.IsZero() {
			at = t0
		}
		evs, err := Rules{}.Decide(s, game.Action{Seat: c.seat, At: at, Do: c.do})
		if game.CodeOf(err) != c.code || len(evs) != 0 {
			t.Errorf("%s: got %v with %d events, want %s and none", c.name, err, len(evs), c.code)
			continue
		}
		if why := err.(*game.Error).Reason; !strings.Contains(why, c.says) {
			t.Errorf("%s: refused as %q, want it to say %q", c.name, why, c.says)
		}
	}
}

func card(id string, targets ...string) cards.PlayCard {
	if targets == nil {
		targets = []string{}
	}
	return cards.PlayCard{Card: id, Slot: -1, Targets: targets}
}

func TestAnAdversarysCardsAreRefused(t *testing.T) {
	// White holds Teleport, Knight's leap, Royal escape and Truce; Black Frost.
	s := table(t, start, []string{"teleport", "knight-leap", "escape", "truce"}, []string{"frost"})
	withMove := card("truce")
	withMove.Move = "e2e4"
	leapThen := func(move string) cards.PlayCard { c := card("knight-leap", "c1"); c.Move = move; return c }
	refuseAll(t, s, []adversary{
		{"a card of the opponent's hand", 0, t0, card("frost"), game.IllegalMove, "frost is not in your hand"},
		{"a card no deck has", 0, t0, card("wizard"), game.BadInput, `no card "wizard"`},
		{"a slot past the hand", 0, t0, cards.PlayCard{Slot: 9, Targets: []string{}}, game.BadInput, "slots 0 to 3"},
		{"a slot holding another card", 0, t0, cards.PlayCard{Card: "truce", Slot: 0, Targets: []string{}}, game.BadInput, "slot 0 of your hand holds teleport"},
		{"a card in the opponent's turn", 1, t0, card("frost"), game.NotYourTurn, "only in your own turn"},
		{"a seat that does not exist", 7, t0, card("truce"), game.NotYourTurn, "seat 0's turn"},
		{"a target off the board", 0, t0, card("teleport", "b1", "i9"), game.BadInput, `"i9"`},
		{"a target that is no square", 0, t0, card("teleport", "b1", "e2e4"), game.BadInput, `"e2e4"`},
		{"too few targets", 0, t0, card("teleport", "b1"), game.BadInput, "takes 2 target(s)"},
		{"too many targets", 0, t0, card("truce", "e4"), game.BadInput, "takes 0 target(s)"},
		{"the king carried by Teleport", 0, t0, card("teleport", "e1", "e4"), game.IllegalMove, "cannot be aimed at"},
		{"an enemy piece carried by Teleport", 0, t0, card("teleport", "b8", "e4"), game.IllegalMove, "cannot be aimed at"},
		{"onto an occupied square", 0, t0, card("teleport", "b1", "e2"), game.IllegalMove, "cannot be aimed at"},
		{"a move sent with a card that is the turn", 0, t0, withMove, game.BadInput, "no move goes with it"},
		{"a mate save out of check", 0, t0, card("escape", "e1", "e3"), game.IllegalMove, "only when your king is in check"},
		{"Knight's leap on the king", 0, t0, card("knight-leap", "e1"), game.IllegalMove, "cannot be aimed at"},
		{"a move the gift does not give", 0, t0, leapThen("c1c5"), game.IllegalMove, "c1c5"},
		{"a reaction in the classic mode", 0, t0, React{Card: "truce", Slot: -1}, game.IllegalMove, "no reaction window is open"},
		{"a pass in the classic mode", 0, t0, game.Choose{Option: Pass}, game.IllegalMove, "nothing to pass"},
	})
	// The leap refused with its bad move left the card in the hand: the same card with a
	// good move is laid.
	after, _ := lay(t, s, "knight-leap", at("c1"), "c1b3")
	expect(t, after, map[string]string{"b3": "B", "c1": ""})
}

func TestAnAdversarysReactionsAreRefused(t *testing.T) {
	// White lays Teleport; Black, who holds Counterspell, Rewind and Frost, has its R1
	// window. White holds Rewind too, which is no card of its own turn.
	s := adv(t, start, []string{"teleport", "rewind", "truce"}, []string{"counterspell", "rewind", "frost"}, "")
	refuseAll(t, s, []adversary{
		{"a reaction laid as a card in one's own turn", 0, t0, card("rewind"), game.IllegalMove, "only in a reaction window"},
		{"a reaction with no window open", 1, t0, React{Card: "counterspell", Slot: -1}, game.IllegalMove, "no reaction window is open"},
	})
	s = laid(t, s, sec(1), "teleport", "b1", "e4")
	window(t, s, R1, 1)
	reading := sec(1.5)
	late := s.Window.Answers.Add(time.Second)
	refuseAll(t, s, []adversary{
		{"the card's player acting in the window", 0, late, card("truce"), game.NotYourTurn, "open for seat 1"},
		{"an answer in the reading time", 1, reading, React{Card: "counterspell", Slot: -1}, game.NotYourTurn, "reading time"},
		{"a pass in the reading time", 1, reading, game.Choose{Option: Pass}, game.NotYourTurn, "reading time"},
	})
	s = answering(t, s)
	refuseAll(t, s, []adversary{
		{"a card that is no reaction", 1, late, React{Card: "frost", Slot: -1}, game.IllegalMove, "frost is not a reaction"},
		{"a reaction not in the hand", 1, late, React{Card: "ward", Slot: -1}, game.IllegalMove, "ward is not in your hand"},
		{"a reaction of the wrong window", 1, late, React{Card: "rewind", Slot: -1}, game.IllegalMove, "answers an R2 window"},
		{"a reaction with targets it takes none of", 1, late, React{Card: "counterspell", Slot: -1, Targets: []string{"e4"}}, game.BadInput, "takes 0 target(s)"},
		{"a card laid in the window", 1, late, card("frost", "e4"), game.IllegalMove, "react with a reaction card, or pass"},
		{"a move in the window", 1, late, game.Move{Notation: "e7e5"}, game.IllegalMove, "react with a reaction card, or pass"},
		{"a choice that is not pass", 1, late, game.Choose{Option: "ready"}, game.BadInput, `not "ready"`},
	})
	// One answer per window: after Counterspell the window is shut, and a second
	// reaction finds none.
	s, _ = reacts(t, s, "counterspell")
	refuseAll(t, s, []adversary{
		{"a second reaction", 1, late, React{Card: "rewind", Slot: -1}, game.IllegalMove, "no reaction window is open"},
	})
}
