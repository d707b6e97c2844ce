package unfair

import "strconv"

// The hand group: cards that work on the cards. What a card shows to one seat only is a
// private event; what goes to a discard pile is public.
var handCards = map[string]plays{
	"new-hand": untargeted(deckLeft(0), func(f *fold, seat int) {
		f.discardHand(seat, "new-hand")
		f.refill(seat)
	}),
	"recycle": func(s *State, seat int) ([]play, string) {
		if why := deckLeft(0)(s, seat); why != "" {
			return nil, why
		}
		return slots(s, seat, func(f *fold, slot int) { f.discard(seat, slot, "recycle") }, "you hold no other card")
	},
	"foresight": untargeted(deckLeft(0), func(f *fold, seat int) {
		f.refill(seat)
		deck := f.Sides[seat].Deck
		f.emit(CardsRevealed{Seat: seat, Of: seat, From: "deck", Cards: deck[:min(3, len(deck)):min(3, len(deck))]})
	}),
	"spy": untargeted(handLeft(1), func(f *fold, seat int) {
		hand := f.Sides[1-seat].Hand
		f.emit(CardsRevealed{Seat: seat, Of: 1 - seat, From: "hand", Cards: hand[:]})
	}),
	"sabotage": untargeted(deckLeft(1), func(f *fold, seat int) { f.mill(1-seat, "sabotage") }),
	"purge": func(s *State, seat int) ([]play, string) {
		return slots(s, 1-seat, func(f *fold, slot int) {
			f.discard(1-seat, slot, "purge")
			f.refill(1 - seat)
		}, "the opponent holds no card")
	},
	"forced-redraw": untargeted(handLeft(1), func(f *fold, seat int) {
		f.discardHand(1-seat, "forced-redraw")
		f.refill(1 - seat)
	}),
}

// deckLeft asks for a card in the deck of seat+who (0 one's own, 1 the opponent's).
func deckLeft(who int) func(s *State, seat int) string {
	return func(s *State, seat int) string {
		if len(s.Sides[(seat+who)%2].Deck) == 0 {
			return [2]string{"your deck is empty", "the opponent's deck is empty"}[who]
		}
		return ""
	}
}

// handLeft asks for a card in the hand of seat+who.
func handLeft(who int) func(s *State, seat int) string {
	return func(s *State, seat int) string {
		if s.Sides[(seat+who)%2].handCards() == 0 {
			return [2]string{"you hold no other card", "the opponent holds no card"}[who]
		}
		return ""
	}
}

// slots are the plays aimed at each occupied slot of owner's hand.
func slots(s *State, owner int, do func(f *fold, slot int), none string) ([]play, string) {
	var out []play
	for slot, c := range s.Sides[owner].Hand {
		if c != "" {
			out = append(out, play{targets: []string{strconv.Itoa(slot)}, do: func(f *fold) { do(f, slot) }})
		}
	}
	if len(out) == 0 {
		return nil, none
	}
	return out, ""
}
