package unfair

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// cardsOf is what a seat holds at a table: its hand by slot and its deck, top first.
type cardsOf struct {
	hand, deck []string
}

// holding is a hand, slot 0 first; "" leaves a slot empty.
func holding(cards ...string) cardsOf { return cardsOf{hand: cards} }

// drawing gives the seat a deck, top first.
func (c cardsOf) drawing(cards ...string) cardsOf { c.deck = cards; return c }

// table sets a game up like a puzzle: the position in FEN (IDs a1..h8 in board order),
// each seat's hand and deck as given, nothing shuffled.
func table(t *testing.T, fen string, white, black cardsOf) State {
	t.Helper()
	if _, err := chess.ParseFEN(fen); err != nil {
		t.Fatal(err)
	}
	s := Rules{}.Evolve(nil, GameStarted{FEN: fen}).(State)
	for seat, c := range [2]cardsOf{white, black} {
		if len(c.hand) > HandSize {
			t.Fatalf("seat %d holds %d cards", seat, len(c.hand))
		}
		copy(s.Sides[seat].Hand[:], c.hand)
		s.Sides[seat].Deck = c.deck
	}
	return s
}

// sq reads a square.
func sq(t *testing.T, name string) chess.Square {
	t.Helper()
	s, ok := chess.ParseSquare(name)
	if !ok {
		t.Fatalf("no square %q", name)
	}
	return s
}

// idOn is the ID of the piece on a square.
func idOn(t *testing.T, s State, square string) chess.PieceID {
	t.Helper()
	id, ok := s.Pos.PieceID(sq(t, square))
	if !ok {
		t.Fatalf("no piece on %s", square)
	}
	return id
}

// marked puts a status on the piece on square, as if seat by's card had.
func marked(t *testing.T, s State, square, kind string, by int) State {
	t.Helper()
	s.Statuses = with(s.Statuses, PieceStatus{Piece: idOn(t, s, square), Kind: kind, By: by})
	return s
}

// lost records pieces of seat as taken, oldest first, as if they had been captured.
func lost(s State, seat int, roles ...chess.Role) State {
	for i, r := range roles {
		s.Sides[seat].Taken = with(s.Sides[seat].Taken, Taken{Piece: chess.PieceID(100 + 10*seat + i), Role: r})
	}
	return s
}

// board is the piece placement of the position, FEN's first field.
func board(s State) string { return strings.Fields(s.Pos.FEN())[0] }

// act has the seat to act do something and returns the state after it and its events.
// Every event must pass Audit from the state before it, and folding them with Evolve
// must give the state Decide computed.
func act(t *testing.T, s State, do any) (State, []game.Emitted) {
	t.Helper()
	r := Rules{}
	evs, err := r.Decide(s, game.Action{Seat: s.toAct(), Do: do})
	if err != nil {
		t.Fatalf("%+v: %v", do, err)
	}
	var decided State
	switch do := do.(type) {
	case game.Move:
		_, decided, _ = s.decideMove(do.Notation)
	case cards.PlayCard:
		_, decided, _ = s.decideCard(s.toAct(), do)
	}
	st := game.State(s)
	for _, e := range evs {
		if err := r.Audit(st, e.Event); err != nil {
			t.Fatalf("%+v: Audit refuses %T: %v", do, e.Event, err)
		}
		st = r.Evolve(st, e.Event)
	}
	folded := st.(State)
	if len(folded.pending) > 0 {
		t.Fatalf("%+v: facts pending after the fold: %v", do, folded.pending)
	}
	folded.pending, decided.pending = nil, nil
	if !reflect.DeepEqual(folded, decided) {
		t.Fatalf("%+v: the fold of the events is not the state Decide computed", do)
	}
	return folded, evs
}

// move plays a move (SAN or UCI) for the seat to act.
func move(t *testing.T, s State, notation string) State {
	t.Helper()
	s, _ = act(t, s, game.Move{Notation: notation})
	return s
}

// playCard plays a card of the seat to act, named by ID, on targets; then, for a card that
// adds to the move, then is the move sent with it ("" to send it later).
func playCard(t *testing.T, s State, card string, targets []string, then string) (State, []game.Emitted) {
	t.Helper()
	return act(t, s, cards.PlayCard{Card: card, Slot: -1, Targets: targets, Move: then})
}

// at lists targets.
func at(targets ...string) []string { return targets }

// refused checks that do is refused with code and leaves s as it was; it returns the
// reason.
func refused(t *testing.T, s State, do any, code game.Code) string {
	t.Helper()
	before := deepCopy(s)
	_, err := Rules{}.Decide(s, game.Action{Seat: s.toAct(), Do: do})
	if game.CodeOf(err) != code {
		t.Fatalf("%+v: got %v, want %s", do, err, code)
	}
	if !reflect.DeepEqual(s, before) {
		t.Fatalf("%+v: a refused action changed the state", do)
	}
	return err.(*game.Error).Reason
}

// deepCopy copies a state and everything it points to, to see whether it changed.
func deepCopy(s State) State {
	b, _ := json.Marshal(s.Statuses)
	c := s
	c.Statuses = nil
	_ = json.Unmarshal(b, &c.Statuses)
	for i := range c.Sides {
		side := &c.Sides[i]
		side.Deck, side.Discard = slices.Clone(side.Deck), slices.Clone(side.Discard)
		side.Played, side.Taken = slices.Clone(side.Played), slices.Clone(side.Taken)
	}
	for i := range c.Bars {
		c.Bars[i].Pieces = slices.Clone(c.Bars[i].Pieces)
	}
	c.Record = slices.Clone(c.Record)
	c.pending = slices.Clone(c.pending)
	return c
}

// handCard is how seat sees its card in its hand.
func handCard(t *testing.T, s State, seat int, card string) cards.HandCard {
	t.Helper()
	for _, hc := range (Rules{}).Hand(s, seat) {
		if hc.Card == card {
			return hc
		}
	}
	t.Fatalf("seat %d does not hold %s", seat, card)
	return cards.HandCard{}
}

// legal lists the legal moves of the seat to act in UCI, sorted.
func legal(s State) []string {
	out := Rules{}.Board(s).LegalMoves
	slices.Sort(out)
	return out
}

// eventsOf keeps the events of type T.
func eventsOf[T game.Event](evs []game.Emitted) []T {
	var out []T
	for _, e := range evs {
		if x, ok := e.Event.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

// hand is seat's hand by slot.
func hand(s State, seat int) []string { return s.Sides[seat].Hand[:] }
