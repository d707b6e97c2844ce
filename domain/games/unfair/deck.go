package unfair

import (
	"strconv"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Decks, hands and piles. Both decks hold the same 144 cards; each is shuffled from the
// match's seed alone, so the order is fixed when the match is created (and committed to by
// the seed's hash) and anyone can deal it again once the seed is revealed.

// shuffle is seat's deck for the match seed under procedure v: the kit's shuffle
// (cards.Shuffle) under the label deckLabel(seat).
func shuffle(v fairness.Version, seed []byte, seat int) []string {
	return cards.Shuffle(v, seed, deckLabel(seat), deck)
}

// deckLabel names the stream of seat's deck: "unfair/deck/<seat>".
func deckLabel(seat int) string { return "unfair/deck/" + strconv.Itoa(seat) }

var _ game.Random = Rules{}

// Drawn names what an event's random outcomes were drawn for (game.Random): a seat's
// deck, shuffled at the start, and the cards drawn from its top.
func (Rules) Drawn(e game.Event) []string {
	switch e := e.(type) {
	case DeckShuffled:
		return []string{deckLabel(e.Seat)}
	case CardDrawn:
		return []string{deckLabel(e.Seat)}
	}
	return nil
}

// refill draws into every empty slot of seat's hand, lowest slot first, while its deck
// lasts. A hand is refilled after each card played; an empty deck leaves it short.
func (f *fold) refill(seat int) {
	side := &f.Sides[seat]
	for slot := range side.Hand {
		if side.Hand[slot] != "" || len(side.Deck) == 0 {
			continue
		}
		card := side.Deck[0]
		side.Deck = side.Deck[1:]
		side.Hand[slot] = card
		f.emit(CardDrawn{Seat: seat, Slot: slot, Card: card})
	}
}

// leaveHand takes the card in slot out of seat's hand as it is played: it goes to the
// discard pile for good and counts as played.
func (f *fold) leaveHand(seat, slot int) {
	side := &f.Sides[seat]
	card := side.Hand[slot]
	side.Hand[slot] = ""
	side.Discard = with(side.Discard, card)
	side.Played = with(side.Played, card)
	f.Turn.Card = card
}

// discard sends the card in slot of seat's hand to its discard pile without playing it;
// why is the card that made it so.
func (f *fold) discard(seat, slot int, why string) {
	side := &f.Sides[seat]
	card := side.Hand[slot]
	side.Hand[slot] = ""
	side.Discard = with(side.Discard, card)
	f.emit(CardDiscarded{Seat: seat, Card: card, Slot: slot, Reason: why})
}

// discardHand discards every card left in seat's hand, slot by slot.
func (f *fold) discardHand(seat int, why string) {
	for slot, c := range f.Sides[seat].Hand {
		if c != "" {
			f.discard(seat, slot, why)
		}
	}
}

// mill sends the top card of seat's deck to its discard pile, face up.
func (f *fold) mill(seat int, why string) {
	side := &f.Sides[seat]
	card := side.Deck[0]
	side.Deck = side.Deck[1:]
	side.Discard = with(side.Discard, card)
	f.emit(CardDiscarded{Seat: seat, Card: card, Slot: -1, Reason: why})
}

// handCards counts the cards in a hand.
func (side Side) handCards() int {
	n := 0
	for _, c := range side.Hand {
		if c != "" {
			n++
		}
	}
	return n
}
