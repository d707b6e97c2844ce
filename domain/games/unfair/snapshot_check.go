package unfair

import (
	"fmt"
	"maps"
	"sync"
)

// check is why a State read back from a stored form is not one the rules reach, or "".
// The checksum catches damage, not forgery, and the rules trust the state they fold (a
// card that is not in the hand it is played from panics there), so a form with a valid
// checksum is checked too: each side's cards are its 144-card deck, each copy once across
// its deck, hand and discard pile (or none before its deck was shuffled); what it played
// is on its discard pile; a card that owes moves is the turn's; a flag falls on a clock.
// chess.ParseFEN refused a position without one king of each colour, or with a pawn on
// a back rank, as the form was read.
func (s *State) check() string {
	copies := deckCopies()
	for seat, side := range s.Sides {
		held := make(map[string]int, len(copies))
		n := 0
		for _, cs := range [][]string{side.Deck, side.Hand[:], side.Discard} {
			for _, c := range cs {
				if c != "" {
					held[c]++
					n++
				}
			}
		}
		if n > 0 && (n != len(deck) || !maps.Equal(held, copies)) {
			return fmt.Sprintf("seat %d's cards are not its deck's, each copy once", seat)
		}
		clear(held)
		for _, c := range side.Discard {
			held[c]++
		}
		for _, c := range side.Played {
			if held[c]--; held[c] < 0 {
				return fmt.Sprintf("seat %d played cards that are not on its discard pile", seat)
			}
		}
	}
	switch {
	case s.Turn.MovesDue > 0 && s.Turn.Card == "":
		return "moves due without the card that owes them"
	case s.Turn.Brought != 0 && (s.Turn.MovesDue == 0 || beside(s.Pos)&s.Pos.SquaresOf(s.Turn.Brought) == 0):
		return "a pawn brought by a card outside the move the card owes, or not beside a pawn to take en passant"
	case len(s.Record) != len(s.Players):
		return "a record and its players of different lengths"
	case s.Flag != nil && !s.Clock.On:
		return "a flag fallen without a clock"
	}
	return ""
}

// deckCopies is each card of the deck and its copies, made once: the catalog is read at
// init.
var deckCopies = sync.OnceValue(func() map[string]int {
	out := map[string]int{}
	for _, c := range deck {
		out[c]++
	}
	return out
})
