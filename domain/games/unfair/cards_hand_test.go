package unfair

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// piles checks seat's hand by slot, its discard pile and its deck after the card.
func piles(seat int, hand, discard, deck []string) func(t *testing.T, _, after State, _ []game.Emitted) {
	return func(t *testing.T, _, after State, _ []game.Emitted) {
		t.Helper()
		side := after.Sides[seat]
		if !slices.Equal(side.Hand[:], hand) || !slices.Equal(side.Discard, discard) || !slices.Equal(side.Deck, deck) {
			t.Errorf("seat %d: hand %q, discard %q, deck %q\nwant hand %q, discard %q, deck %q", seat, side.Hand, side.Discard, side.Deck, hand, discard, deck)
		}
	}
}

// revealed checks the one look a card gave, and that only its seat sees it.
func revealed(want CardsRevealed) func(t *testing.T, _, _ State, evs []game.Emitted) {
	return func(t *testing.T, _, _ State, evs []game.Emitted) {
		t.Helper()
		for _, e := range evs {
			if got, ok := e.Event.(CardsRevealed); ok {
				if !slices.Equal(got.Cards, want.Cards) || got.Seat != want.Seat || got.Of != want.Of || got.From != want.From {
					t.Errorf("revealed %+v, want %+v", got, want)
				}
				if e.Visibility != visibility.Seat(want.Seat) || got.Shadow().(CardsRevealed).Cards != nil {
					t.Errorf("the look is seen by %q, its shadow shows %v", e.Visibility, got.Shadow())
				}
				return
			}
		}
		t.Error("nothing was revealed")
	}
}

var handPlays = []cardCase{
	{name: "the rest of the hand goes, four come", card: "new-hand", fen: bareKings, then: "Kd2",
		white:   holding("new-hand", "poison", "wall", "truce").drawing("teleport", "swap", "mirror", "recall", "push"),
		targets: at(), board: "4k3/8/8/8/8/8/3K4/8",
		check: func(t *testing.T, before, after State, evs []game.Emitted) {
			piles(0, []string{"teleport", "swap", "mirror", "recall"}, []string{"new-hand", "poison", "wall", "truce"}, []string{"push"})(t, before, after, evs)
			if d := eventsOf[CardDiscarded](evs); len(d) != 3 || d[0] != (CardDiscarded{Seat: 0, Card: "poison", Slot: 1, Reason: "new-hand"}) {
				t.Errorf("discarded %+v", d)
			}
			for _, e := range evs {
				if d, ok := e.Event.(CardDrawn); ok && (e.Visibility != visibility.Seat(0) || d.Shadow() != CardDrawn{Seat: 0, Slot: d.Slot}) {
					t.Errorf("a draw seen by %q, shadowed as %+v", e.Visibility, d.Shadow())
				}
			}
		}},
	{name: "the wall goes, two come", card: "recycle", fen: bareKings, then: "Kd2",
		white:   holding("recycle", "poison", "wall", "border").drawing("truce", "swap", "mirror"),
		targets: at("2"), check: piles(0, []string{"truce", "poison", "swap", "border"}, []string{"recycle", "wall"}, []string{"mirror"})},
	{name: "the hand is refilled, then three cards are seen", card: "foresight", fen: bareKings, then: "Kd2",
		white:   holding("foresight", "border", "border", "border").drawing("wall", "truce", "swap", "mirror", "push"),
		targets: at(), check: revealed(CardsRevealed{Seat: 0, Of: 0, From: "deck", Cards: []string{"truce", "swap", "mirror"}})},
	{name: "Black's hand is seen", card: "spy", fen: bareKings, then: "Kd2", black: holding("poison", "wall"),
		targets: at(), check: revealed(CardsRevealed{Seat: 0, Of: 1, From: "hand", Cards: []string{"poison", "wall", "", ""}})},
	{name: "Black's top card is discarded", card: "sabotage", fen: bareKings, then: "Kd2", black: holding().drawing("truce", "wall"),
		targets: at(), check: piles(1, []string{"", "", "", ""}, []string{"truce"}, []string{"wall"})},
	{name: "Black's slot 1 is purged", card: "purge", fen: bareKings, black: holding("poison", "wall").drawing("truce"),
		targets: at("1"), check: piles(1, []string{"poison", "truce", "", ""}, []string{"wall"}, []string{})},
	{name: "Black redraws", card: "forced-redraw", fen: bareKings, black: holding("poison", "wall").drawing("truce", "swap", "mirror", "push", "recall"),
		targets: at(), check: piles(1, []string{"truce", "swap", "mirror", "push"}, []string{"poison", "wall"}, []string{"recall"})},
}

var handRefusals = []refusal{
	{name: "an empty deck", card: "new-hand", fen: bareKings, white: holding("new-hand", "wall"), targets: at(),
		unplayable: true, reason: "your deck is empty"},
	{name: "no other card", card: "recycle", fen: bareKings, white: holding("recycle").drawing("wall"), targets: at("0"),
		unplayable: true, reason: "you hold no other card"},
	{name: "not itself", card: "recycle", fen: bareKings, white: holding("recycle", "wall").drawing("truce"), targets: at("0"),
		reason: "not one of the choices"},
	{name: "an empty deck", card: "foresight", fen: bareKings, targets: at(), unplayable: true, reason: "your deck is empty"},
	{name: "Black holds nothing", card: "spy", fen: bareKings, targets: at(), unplayable: true, reason: "the opponent holds no card"},
	{name: "Black's deck is empty", card: "sabotage", fen: bareKings, targets: at(), unplayable: true, reason: "the opponent's deck is empty"},
	{name: "an empty slot", card: "purge", fen: bareKings, black: holding("poison"), targets: at("3"), reason: "not one of the choices"},
	{name: "Black holds nothing", card: "forced-redraw", fen: bareKings, targets: at(), unplayable: true, reason: "the opponent holds no card"},
}

func TestHandCards(t *testing.T)    { runCards(t, handPlays) }
func TestHandRefusals(t *testing.T) { runRefusals(t, handRefusals) }
