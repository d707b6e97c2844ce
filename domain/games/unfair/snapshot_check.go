package unfair

import (
	"fmt"
	"slices"
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
	want := slices.Sorted(slices.Values(deck))
	for seat, side := range s.Sides {
		held := slices.Concat(side.Deck, side.Discard)
		for _, c := range side.Hand {
			if c != "" {
				held = append(held, c)
			}
		}
		if slices.Sort(held); len(held) > 0 && !slices.Equal(held, want) {
			return fmt.Sprintf("seat %d's cards are not its deck's, each copy once", seat)
		}
		if !within(side.Played, side.Discard) {
			return fmt.Sprintf("seat %d played cards that are not on its discard pile", seat)
		}
	}
	switch {
	case s.Turn.MovesDue > 0 && s.Turn.Card == "":
		return "moves due without the card that owes them"
	case len(s.Record) != len(s.Players):
		return "a record and its players of different lengths"
	case s.Flag != nil && !s.Clock.On:
		return "a flag fallen without a clock"
	}
	return ""
}

// within reports whether every card of some is in all, each copy once.
func within(some, all []string) bool {
	left := map[string]int{}
	for _, c := range all {
		left[c]++
	}
	for _, c := range some {
		if left[c]--; left[c] < 0 {
			return false
		}
	}
	return true
}
