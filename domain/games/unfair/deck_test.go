package unfair

import (
	"fmt"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// Both decks hold the same 144 cards in an order drawn from the seed alone: the same
// seed deals the same decks, each seat's deck has its own order; under every procedure.
func TestDecksAreShuffledFromTheSeed(t *testing.T) {
	for v, golden := range goldenTop {
		t.Run(fmt.Sprint("procedure ", v), func(t *testing.T) { testShuffle(t, v, golden) })
	}
}

func testShuffle(t *testing.T, v fairness.Version, goldenTop []string) {
	seed := []byte("a match's seed")
	shuffle := func(seed []byte, seat int) []string { return shuffle(v, seed, seat) }
	white, black := shuffle(seed, 0), shuffle(seed, 1)
	sorted := func(d []string) []string { d = slices.Clone(d); slices.Sort(d); return d }
	if !slices.Equal(sorted(white), sorted(black)) || !slices.Equal(sorted(white), sorted(deck)) || len(white) != 144 {
		t.Fatal("the two decks do not hold the same 144 cards")
	}
	if slices.Equal(white, black) {
		t.Error("both seats have the same order")
	}
	if !slices.Equal(white, shuffle(seed, 0)) {
		t.Error("the same seed shuffles differently")
	}
	if slices.Equal(white, shuffle([]byte("another seed"), 0)) {
		t.Error("another seed shuffles the same")
	}
	// The shuffle is part of the rules: a match replayed later must deal the same cards.
	if got := white[:5]; !slices.Equal(got, goldenTop) {
		t.Errorf("the seed's first five cards are %q, they were %q", got, goldenTop)
	}
}

// goldenTop are, by procedure, the first cards of seat 0's deck for the seed "a match's
// seed": a match recorded under Legacy deals them still.
var goldenTop = map[fairness.Version][]string{
	fairness.Legacy: {"recall", "breakthrough", "spy", "switch", "sleep"},
	fairness.V1:     {"free-castle", "royal-shackles", "no-mans-land", "wall", "file-jump"},
}

// Setup opens with the board, then each seat's shuffled deck (server-only) and its four
// draws (private to the seat, shadowed for the others).
func TestSetupDealsFourCardsToEachSeat(t *testing.T) {
	r := Rules{}
	seed := []byte("deal")
	evs, err := r.Setup(game.Setup{Plan: game.Plan{Seats: 2, Teams: []int{0, 1}}, Seed: seed, Fairness: fairness.Current})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 11 {
		t.Fatalf("%d opening events", len(evs))
	}
	if evs[0].Event != (GameStarted{FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", HandSize: 4, DeckSize: 144}) || evs[0].Visibility != visibility.Public {
		t.Errorf("opening %+v", evs[0])
	}
	for seat := range 2 {
		shuffled := evs[1+5*seat]
		if d, ok := shuffled.Event.(DeckShuffled); !ok || d.Seat != seat || shuffled.Visibility != visibility.Server || !slices.Equal(d.Cards, shuffle(fairness.Current, seed, seat)) {
			t.Errorf("seat %d's deck: %+v", seat, shuffled)
		}
		for slot := range 4 {
			e := evs[2+5*seat+slot]
			want := CardDrawn{Seat: seat, Slot: slot, Card: shuffle(fairness.Current, seed, seat)[slot]}
			if e.Event != want || e.Visibility != visibility.Seat(seat) || e.Event.(CardDrawn).Shadow() != (CardDrawn{Seat: seat, Slot: slot}) {
				t.Errorf("draw %+v, want %+v private to seat %d", e, want, seat)
			}
		}
	}
	var st game.State
	for _, e := range evs {
		st = r.Evolve(st, e.Event)
	}
	for seat := range 2 {
		if r.HandSize(st, seat) != 4 || r.DeckSize(st, seat) != 140 || len(r.Discard(st, seat)) != 0 {
			t.Errorf("seat %d holds %d, deck %d", seat, r.HandSize(st, seat), r.DeckSize(st, seat))
		}
	}
	if s := r.Status(st); s.Over || s.Phase != "play" || !slices.Equal(s.ToAct, []int{0}) {
		t.Errorf("status at the start %+v", s)
	}
	again, _ := r.Setup(game.Setup{Seed: seed, Fairness: fairness.Current})
	for i := range evs {
		if string(encoded(evs[i].Event)) != string(encoded(again[i].Event)) {
			t.Fatalf("Setup deals differently the second time: %+v", again[i])
		}
	}
	if _, err := r.Plan(game.Options{"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}); game.CodeOf(err) != game.BadInput {
		t.Errorf("an option: %v", err)
	}
	if p, err := r.Plan(nil); err != nil || p.Seats != 2 || !slices.Equal(p.Teams, []int{0, 1}) {
		t.Errorf("plan %+v %v", p, err)
	}
}

// A hand is refilled after each card played; once the deck is empty the game goes on
// with what is left.
func TestHandsAreRefilledUntilTheDeckRunsOut(t *testing.T) {
	s := table(t, bareKings, holding("wall", "barricade", "truce").drawing("border"), holding())
	s, evs := playCard(t, s, "wall", at("e7"), "")
	if !slices.Equal(hand(s, 0), []string{"border", "barricade", "truce", ""}) || len(s.Sides[0].Deck) != 0 {
		t.Fatalf("after the wall: hand %q, deck %q", hand(s, 0), s.Sides[0].Deck)
	}
	if d := eventsOf[CardDrawn](evs); len(d) != 1 || d[0] != (CardDrawn{Seat: 0, Slot: 0, Card: "border"}) {
		t.Errorf("draws %+v", d)
	}
	s = move(t, s, "Kd8")
	s, evs = playCard(t, s, "truce", at(), "")
	if !slices.Equal(hand(s, 0), []string{"border", "barricade", "", ""}) || len(eventsOf[CardDrawn](evs)) != 0 {
		t.Fatalf("with an empty deck: hand %q", hand(s, 0))
	}
	s = move(t, s, "Kc7")
	s, _ = playCard(t, s, "border", at(), "")
	s = move(t, s, "Kb6")
	s, _ = playCard(t, s, "barricade", at("a4"), "")
	if (Rules{}).HandSize(s, 0) != 0 || len((Rules{}).Hand(s, 0)) != 0 || (Rules{}).Status(s).Over {
		t.Fatalf("an empty hand: %v, %+v", hand(s, 0), (Rules{}).Status(s))
	}
	s = move(t, s, "Ka5")
	s = move(t, s, "Kd2")
	if got := (Rules{}).Discard(s, 0); !slices.Equal(got, []string{"wall", "truce", "border", "barricade"}) {
		t.Errorf("discard pile %q", got)
	}
	if got := (Rules{}).Played(s, 0); got["wall"] != 1 || len(got) != 4 {
		t.Errorf("played %v", got)
	}
}
