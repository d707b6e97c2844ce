package magicchess

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
)

// TestForgedStatesAreRefused: a stored form whose checksum is right but whose fields make
// a state the rules cannot reach (a card twice or missing, a card of no deck, a king
// gone, a pawn on a back rank, a window out of place or of the wrong length, a table
// whose boards disagree) is refused with an error wrapping game.ErrStateFormat, and its
// match is folded from its events. EncodeState writes what it is given, so each forgery
// is a state of a real match changed in one field, written by the game's own writer.
func TestForgedStatesAreRefused(t *testing.T) {
	advanced := storedMatch(t, Rules{}, game.Options{"mode": Advanced}, 1, 80)
	classic := storedMatch(t, Rules{}, game.Options{"clock": "off", "hand": "4"}, 2, 40)
	r1 := findState(t, advanced, func(s State) bool { return s.Window != nil && s.Window.Kind == R1 && !s.Window.Closed })
	r2 := findState(t, advanced, func(s State) bool { return s.Window != nil && s.Window.Kind != R1 })
	board := findState(t, classic, func(s State) bool { return s.Phase == Play && len(s.Deck) > 1 && len(s.Record) > 4 })

	boards := map[string]struct {
		from   State
		forged func(s *State)
	}{
		"a card twice": {board, func(s *State) { s.Hands[0] = with(s.Hands[0], s.Deck[0]) }},
		"a card gone":  {board, func(s *State) { s.Deck = s.Deck[1:] }},
		"a card of no deck": {board, func(s *State) {
			s.Deck = with(s.Deck[1:], "joker")
		}},
		"a reaction in the classic deck": {board, func(s *State) { s.Deck = with(s.Deck[1:], "counterspell") }},
		"a lasting card dealt as well": {board, func(s *State) {
			s.Lasting = with(s.Lasting, Lasting{Card: s.Deck[0], Effect: s.Deck[0], Seat: 0, Left: 1})
		}},
		"the deck as shuffled changed": {board, func(s *State) { s.shuffled = s.shuffled[1:] }},
		"no white king": {board, func(s *State) {
			k, _ := s.Pos.KingSquare(chess.White)
			s.Pos.Remove(k)
		}},
		"a pawn on a back rank": {board, func(s *State) {
			putOnEmpty(t, &s.Pos, chess.Piece{Color: chess.White, Role: chess.Pawn}, chess.Rank8|chess.Rank1)
		}},
		"pockets on one board": {board, func(s *State) { s.Pos.EnablePockets() }},
		"an unknown mode":      {board, func(s *State) { s.Mode = "BLITZ" }},
		"a deal of no cards":   {board, func(s *State) { s.HandSize = 0 }},
		"a record in the planning": {board, func(s *State) {
			s.Phase = Planning
			s.Clock.On = false
		}},
		"a window in the classic mode": {board, func(s *State) {
			s.Window = &Window{Kind: R2, Seat: 1, Triggers: []string{TriggerCheck}, At: t0, Answers: t0.Add(2 * time.Second), Closes: t0.Add(10 * time.Second)}
		}},
		"moves due without a card":      {board, func(s *State) { s.Turn = Turn{MovesDue: 2} }},
		"an R1 window without its card": {r1, func(s *State) { s.Held = nil }},
		"an R1 window for the seat that laid the card": {r1, func(s *State) {
			w := *s.Window
			w.Seat = s.Held.Seat
			s.Window = &w
		}},
		"a window longer than the mode's": {r1, func(s *State) {
			w := *s.Window
			w.Closes = w.Closes.Add(time.Hour)
			s.Window = &w
		}},
		"a window open and another opening": {r2, func(s *State) { s.opening = s.Window }},
		"an R2 window without its move": {r2, func(s *State) {
			w := *s.Window
			w.before = nil
			s.Window = &w
		}},
		"a held card without its window": {r2, func(s *State) { s.Held = &HeldCard{Seat: 0, Card: s.Deck[0]} }},
		"an unknown trigger": {r2, func(s *State) {
			w := *s.Window
			w.Triggers = []string{"sneeze"}
			s.Window = &w
		}},
	}
	for name, c := range boards {
		s := c.from
		c.forged(&s)
		refusedForm(t, name, Rules{}, s)
	}

	d := storedTable(t, Rules{}, doublesKinds[1].opts, 1, 110)
	tb := findTable(t, d, func(tb Table) bool {
		return tb.Phase == Play && len(tb.Deck) > 0 && len(tb.Record) > 6 && tb.Passing == [2]string{}
	})
	pass := findTable(t, d, func(tb Table) bool { return tb.Passing[0] != "" || tb.Passing[1] != "" })
	tables := map[string]struct {
		from   Table
		forged func(t *Table)
	}{
		"a card in the table's deck and a hand": {tb, func(t *Table) { t.Boards[1].Hands[0] = with(t.Boards[1].Hands[0], t.Deck[0]) }},
		"a card gone from the table":            {tb, func(t *Table) { t.Deck = t.Deck[1:] }},
		"a board with a deck of its own":        {tb, func(t *Table) { t.Boards[0].Deck = []string{t.Deck[0]}; t.Deck = t.Deck[1:] }},
		"boards of different modes":             {tb, func(t *Table) { t.Boards[1].Mode = Classic; t.Boards[1].reaction = 0 }},
		"a board without pockets": {tb, func(t *Table) {
			p, err := chess.ParseFEN(chess.StartFEN)
			if err != nil {
				panic(err)
			}
			t.Boards[0].Pos = p
		}},
		"a board in the planning":        {tb, func(t *Table) { t.Boards[1].Phase = Planning }},
		"a piece passing with no window": {tb, func(t *Table) { t.Passing[0] = "q" }},
		"a piece passing that is none":   {pass, func(t *Table) { t.Passing[0], t.Passing[1] = "k", "k" }},
		"another team's signal": {tb, func(t *Table) {
			t.Signals[0] = with(t.Signals[0], Signal{Seat: 1, Signal: Signals[0]})
		}},
		"an unknown signal": {tb, func(t *Table) { t.Signals[0] = with(t.Signals[0], Signal{Seat: 0, Signal: "mate-in-two"}) }},
		"a record on the wrong board": {tb, func(t *Table) {
			t.Record = with(t.Record[:len(t.Record)-1], "A:e4")
			t.Players = with(t.Players[:len(t.Players)-1], 3)
		}},
		"a record that is not the boards'": {tb, func(t *Table) { t.Record, t.Players = with(t.Record, "A:e4"), with(t.Players, 0) }},
		"an unknown phase":                 {tb, func(t *Table) { t.Phase = "over" }},
		"a king gone from board B": {tb, func(t *Table) {
			k, _ := t.Boards[1].Pos.KingSquare(chess.Black)
			t.Boards[1].Pos.Remove(k)
		}},
	}
	for name, c := range tables {
		s := c.from
		s.Boards = [2]State{s.Boards[0], s.Boards[1]}
		c.forged(&s)
		refusedForm(t, name, Rules{}, s)
	}

	old := rulesOf(t, "magic-2026.3")
	conceded := findTable(t, storedTable(t, old, doublesKinds[7].opts, 7, 30), func(tb Table) bool { return tb.Phase == Play })
	conceded.conceded = 1
	refusedForm(t, "a concession under magic-2026.3", old, conceded)
}

// refusedForm writes st and requires DecodeState to refuse it as a state the rules do not
// reach, or a position chess cannot be played from (chess.ParseFEN checks the kings and
// the back ranks).
func refusedForm(t *testing.T, name string, r Rules, st game.State) {
	t.Helper()
	b, err := r.EncodeState(st)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	_, err = r.DecodeState(b)
	reached := err != nil && (strings.Contains(err.Error(), "not a state the rules reach") || strings.Contains(err.Error(), "not a FEN this game writes"))
	if !errors.Is(err, game.ErrStateFormat) || !reached {
		t.Errorf("%s: read back with %v", name, err)
	}
}

// findState is the first state of m that ok accepts, which must read back as it is.
func findState(t *testing.T, m gametest.Folded, ok func(State) bool) State {
	t.Helper()
	for _, st := range m.States {
		if s := st.(State); ok(s) {
			b, err := Rules{}.EncodeState(s)
			if err == nil {
				_, err = Rules{}.DecodeState(b)
			}
			if err != nil {
				t.Fatalf("the state to forge does not read back: %v", err)
			}
			return s
		}
	}
	t.Fatal("no state to forge in the match")
	return State{}
}

// findTable is findState for a doubles match.
func findTable(t *testing.T, m gametest.Folded, ok func(Table) bool) Table {
	t.Helper()
	for _, st := range m.States {
		if s := st.(Table); ok(s) {
			r := Rules{}
			if s.version != RulesVersion {
				r = rulesOf(t, s.version)
			}
			b, err := r.EncodeState(s)
			if err == nil {
				_, err = r.DecodeState(b)
			}
			if err != nil {
				t.Fatalf("the table to forge does not read back: %v", err)
			}
			return s
		}
	}
	t.Fatal("no table to forge in the match")
	return Table{}
}

// putOnEmpty puts pc on the first empty square of among.
func putOnEmpty(t *testing.T, p *chess.Position, pc chess.Piece, among chess.Bitboard) {
	t.Helper()
	for _, sq := range (among &^ p.Occupied()).Squares() {
		if _, err := p.Put(sq, pc); err == nil {
			return
		}
	}
	t.Fatalf("no empty square to put %v on", pc)
}
