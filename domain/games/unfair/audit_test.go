package unfair

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Audit accepts what the rules record and names what was tampered with.
func TestAuditCatchesTampering(t *testing.T) {
	r := Rules{}
	s := table(t, "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", holding("poison", "teleport").drawing("wall"), holding("truce"))
	s = marked(t, s, "d5", Poison, 1)
	_, cardEvs := playCard(t, s, "teleport", at("d1", "d4"), "")
	_, moveEvs := act(t, s, game.Move{Notation: "Rxd5"})
	tampered := []struct {
		name   string
		before State
		evs    []game.Emitted
		i      int
		edit   func(game.Event) game.Event
		field  string
	}{
		{"a move's FEN", s, moveEvs, 0, func(e game.Event) game.Event { m := e.(MovePlayed); m.FEN = "8/8/8/8/8/8/8/8 w - - 0 1"; return m }, "fen"},
		{"a move's SAN", s, moveEvs, 0, func(e game.Event) game.Event { m := e.(MovePlayed); m.SAN = "Rd5"; return m }, "san"},
		{"a move's piece", s, moveEvs, 0, func(e game.Event) game.Event { m := e.(MovePlayed); m.Piece++; return m }, "piece"},
		{"a move's seat", s, moveEvs, 0, func(e game.Event) game.Event { m := e.(MovePlayed); m.Seat = 1; return m }, "seat"},
		{"an illegal move", s, moveEvs, 0, func(e game.Event) game.Event { m := e.(MovePlayed); m.UCI = "d1d8"; return m }, "illegal"},
		{"the poison's victim", s, moveEvs, 1, func(e game.Event) game.Event {
			tr := e.(StatusTriggered)
			tr.Removed = []Removed{{Piece: 5, Square: "e1", Role: "K"}}
			return tr
		}, "StatusTriggered"},
		{"a card's targets", s, cardEvs, 0, func(e game.Event) game.Event { c := e.(CardPlayed); c.Targets = at("d1", "d3"); return c }, "fen"},
		{"a card's slot", s, cardEvs, 0, func(e game.Event) game.Event { c := e.(CardPlayed); c.Slot = 0; return c }, "slot 0"},
		{"the card drawn", s, cardEvs, 1, func(e game.Event) game.Event { d := e.(CardDrawn); d.Card = "queen-return"; return d }, "CardDrawn"},
	}
	for _, c := range tampered {
		st := game.State(c.before)
		for _, e := range c.evs[:c.i] {
			st = r.Evolve(st, e.Event)
		}
		err := r.Audit(st, c.edit(c.evs[c.i].Event))
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.field)
		}
	}
	// A fact nobody set off, or a fact left out.
	if err := r.Audit(s, CardDrawn{Seat: 0, Slot: 0, Card: "wall"}); err == nil {
		t.Error("a draw out of nowhere passes")
	}
	after := r.Evolve(s, cardEvs[0].Event)
	if err := r.Audit(after, MovePlayed{Seat: 1, UCI: "e8d7"}); err == nil || !strings.Contains(err.Error(), "expect CardDrawn") {
		t.Errorf("a move before the draw: %v", err)
	}
	// The opening: a deck that is not the deck, a second start.
	if err := r.Audit(nil, GameStarted{FEN: "4k3/8/8/8/8/8/8/4K3 w - - 0 1", HandSize: 4, DeckSize: 144}); err == nil {
		t.Error("another start position passes")
	}
	start := r.Evolve(nil, GameStarted{FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", HandSize: 4, DeckSize: 144})
	stacked := shuffle(fairness.Current, []byte("x"), 0)
	stacked[0] = "queen-return"
	if err := r.Audit(start, DeckShuffled{Seat: 0, Cards: stacked}); err == nil {
		t.Error("a stacked deck passes")
	}
	if err := r.Audit(start, DeckShuffled{Seat: 0, Cards: shuffle(fairness.Current, []byte("x"), 0)}); err != nil {
		t.Errorf("a shuffled deck: %v", err)
	}
	if err := r.Audit(start, GameStarted{}); err == nil {
		t.Error("a second GameStarted passes")
	}
}
