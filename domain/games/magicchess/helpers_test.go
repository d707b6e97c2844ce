package magicchess

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
)

// t0 is when the test tables start.
var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// table is a game in play from fen, without a clock, with the given hands (the rest of
// the classic deck left in the table's deck), the planning over.
func table(t testing.TB, fen string, hand0, hand1 []string) State {
	t.Helper()
	r := Rules{}
	deck := classicDeck()
	for _, c := range append(slices.Clone(hand0), hand1...) {
		if !slices.Contains(deck, c) {
			t.Fatalf("table: %s is not in the classic deck", c)
		}
	}
	var st game.State = r.Evolve(nil, GameStarted{FEN: fen, Mode: Classic, HandSize: MaxHand, DeckSize: len(deck), PlanEnds: t0})
	for _, e := range []game.Event{DeckShuffled{Cards: deck}, CardsDealt{Seat: 0, Count: len(hand0), Cards: hand0},
		CardsDealt{Seat: 1, Count: len(hand1), Cards: hand1}, PlanningEnded{At: t0, Reason: "time"}} {
		st = r.Evolve(st, e)
	}
	return st.(State)
}

// act has the seat to act do something and returns the state after it and its events;
// folding the events with Evolve must give the state Decide computed.
func act(t *testing.T, s State, do any) (State, []game.Emitted) {
	t.Helper()
	r := Rules{}
	evs, err := r.Decide(s, game.Action{Seat: s.toAct(), At: t0, Do: do})
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
	folded.expired, decided.expired = nil, nil
	if !reflect.DeepEqual(folded, decided) {
		t.Fatalf("%+v: the fold of the events is not the state Decide computed:\n%+v\n%+v", do, folded, decided)
	}
	return folded, evs
}

// move plays a move (SAN or UCI) for the seat to act.
func move(t *testing.T, s State, notation string) State {
	t.Helper()
	s, _ = act(t, s, game.Move{Notation: notation})
	return s
}

// lay lays a card of the seat to act, named by ID, on targets, with a move for a card
// that a move follows ("" to send it later).
func lay(t *testing.T, s State, card string, targets []string, then string) (State, []game.Emitted) {
	t.Helper()
	if targets == nil {
		targets = []string{}
	}
	return act(t, s, cards.PlayCard{Card: card, Slot: -1, Targets: targets, Move: then})
}

// at lists targets.
func at(targets ...string) []string { return targets }

// refused checks that do, from the seat to act, is refused with code and leaves s as it
// was; it returns the reason.
func refused(t *testing.T, s State, do any, code game.Code) string {
	t.Helper()
	before := s.FEN()
	record := slices.Clone(s.Record)
	_, err := Rules{}.Decide(s, game.Action{Seat: s.toAct(), At: t0, Do: do})
	if game.CodeOf(err) != code {
		t.Fatalf("%+v: got %v, want %s", do, err, code)
	}
	if s.FEN() != before || !slices.Equal(s.Record, record) {
		t.Fatalf("%+v: a refused action changed the state", do)
	}
	return err.(*game.Error).Reason
}

// refuseCard checks that a card of the seat to act is refused as ILLEGAL_MOVE and says
// why, and that the reason contains want.
func refuseCard(t *testing.T, s State, card string, targets []string, want string) {
	t.Helper()
	if targets == nil {
		targets = []string{}
	}
	why := refused(t, s, cards.PlayCard{Card: card, Slot: -1, Targets: targets}, game.IllegalMove)
	if !strings.Contains(why, want) {
		t.Fatalf("%s refused as %q, want it to say %q", card, why, want)
	}
}

// FEN is the position, for tests.
func (s State) FEN() string { return s.Pos.FEN() }

// legal lists the legal moves of the seat to act in UCI, sorted.
func legal(s State) []string {
	out := Rules{}.Board(s).LegalMoves
	slices.Sort(out)
	return out
}

// hand finds how seat sees card in its hand.
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
