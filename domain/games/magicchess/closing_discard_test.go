package magicchess

import (
	"bytes"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
)

// tableCounts counts each card across a doubles table's deck, hands, discard piles,
// lasting cards, closing card waiting for its move and card held, where the rules can
// put it. It does not use State.cards, the stored-form check's own count.
func tableCounts(tb Table) map[string]int {
	n := map[string]int{}
	for _, c := range tb.Deck {
		n[c]++
	}
	for b := range tb.Boards {
		s := &tb.Boards[b]
		for _, h := range s.Hands {
			for _, c := range h {
				if c != "" {
					n[c]++
				}
			}
		}
		for _, c := range s.Discard {
			n[c]++
		}
		for _, l := range s.Lasting {
			n[l.Card]++
		}
		if s.Turn.Close != "" && !s.discardClosing {
			n[s.Turn.Close]++
		}
		if s.Held != nil {
			n[s.Held.Card]++
		}
	}
	return n
}

// closingThenReshuffle plays, under the rules r, a doubles game whose deck the deal
// spends: seat 0 (White on board A) lays the closing card with its move, the card lasts
// through Black's turn and runs out at the close of seat 0's next turn; seat 0 then lays
// Banish, the last card of its hand, so that it draws and the table's discard is
// shuffled into a new deck from the match's key. It returns the table after each step.
func closingThenReshuffle(t *testing.T, r Rules, card string) (laid, lasting, expired, reshuffled Table) {
	t.Helper()
	deck := slices.DeleteFunc(classicDeck(), func(c string) bool { return c == card || c == "banish" })
	tb := doublesUnder(t, r, [4][]string{{card, "banish"}, deck[:12], deck[12:24], deck[24:]}, nil)
	if len(tb.Deck) != 0 {
		t.Fatalf("the deck holds %v", tb.Deck)
	}
	step := func(seat int, do any) {
		t.Helper()
		tb, _ = dactUnder(t, r, tb, seat, t0, do)
	}
	step(0, cards.PlayCard{Card: card, Slot: -1, Targets: []string{}, Move: "e4"})
	laid = tb
	step(1, game.Move{Notation: "a6"})
	lasting = tb
	step(0, game.Move{Notation: "Nf3"})
	expired = tb
	step(1, game.Move{Notation: "a5"})
	step(0, cards.PlayCard{Card: "banish", Slot: -1, Targets: []string{"d7"}})
	return laid, lasting, expired, tb
}

// From magic-2026.5 on a closing card (Sentinel, Ambush, Trail) is on the table from when
// it is laid until it runs out, then on the discard pile once (rule 8): each card of the
// deck is exactly once across the deck, hands, discard piles and the cards face up, before
// and after the reshuffle, and the stored form says so and keeps it.
func TestClosingCardsAreDiscardedOnceFromMagic20265(t *testing.T) {
	r := Rules{}
	for _, card := range []string{"sentinel", "ambush", "trail"} {
		laid, lasting, expired, reshuffled := closingThenReshuffle(t, r, card)
		for i, tb := range []Table{laid, lasting, expired, reshuffled} {
			for c, n := range tableCounts(tb) {
				if n != 1 {
					t.Errorf("%s, step %d: the card %s is %d times on the table", card, i, c, n)
				}
			}
			if got := len(tableCounts(tb)); got != len(classicDeck()) {
				t.Errorf("%s, step %d: %d distinct cards on the table, want %d", card, i, got, len(classicDeck()))
			}
			storedRoundTrip(t, r, tb)
		}
		a := &laid.Boards[0]
		if slices.Contains(a.Discard, card) || len(a.Lasting) != 1 || a.Lasting[0].Card != card {
			t.Errorf("%s just laid: discard %v, face up %+v; want it face up only", card, a.Discard, a.Lasting)
		}
		if a := &expired.Boards[0]; !slices.Equal(a.Discard, []string{card}) || len(a.Lasting) != 0 {
			t.Errorf("%s run out: discard %v, face up %+v; want it on the discard pile once", card, a.Discard, a.Lasting)
		}
		if reshuffled.Shuffles != 1 || len(reshuffled.Deck) != 1 {
			t.Errorf("%s: %d reshuffles, a deck of %v after the draw; want 1 and one card", card, reshuffled.Shuffles, reshuffled.Deck)
		}
		// A duplicate the rules no longer make is refused in the stored form.
		forged := expired
		forged.Boards[0].Discard = []string{card, card}
		if _, err := r.DecodeState(encodeState(t, r, forged)); err == nil {
			t.Errorf("%s: a stored table with the card twice on the discard pile is taken", card)
		}
	}
}

// Under magic-2026.4 a match plays as recorded: the closing card goes to the discard pile
// when laid and again when it runs out, and the reshuffle deals both copies. The stored
// form of that version keeps its tolerance of the double count.
func TestClosingCardsAreDiscardedTwiceUnderMagic20264(t *testing.T) {
	r := under(t, "magic-2026.4")
	laid, _, expired, reshuffled := closingThenReshuffle(t, r, "sentinel")
	if a := &laid.Boards[0]; !slices.Equal(a.Discard, []string{"sentinel"}) || len(a.Lasting) != 1 {
		t.Fatalf("sentinel just laid: discard %v, face up %+v; want both, as then", a.Discard, a.Lasting)
	}
	if a := &expired.Boards[0]; !slices.Equal(a.Discard, []string{"sentinel", "sentinel"}) {
		t.Fatalf("sentinel run out: discard %v; want it twice, as then", a.Discard)
	}
	if n := tableCounts(reshuffled)["sentinel"]; n != 2 || len(reshuffled.Deck) != 2 {
		t.Fatalf("after the reshuffle sentinel is %d times (deck %v), want 2 as then", n, reshuffled.Deck)
	}
	for _, tb := range []Table{laid, expired, reshuffled} {
		storedRoundTrip(t, r, tb)
	}
}

// encodeState is st's stored form under the rules r.
func encodeState(t *testing.T, r Rules, st game.State) []byte {
	t.Helper()
	b, err := r.EncodeState(st)
	if err != nil {
		t.Fatalf("%s: %v", r.Info().RulesVersion, err)
	}
	return b
}

// storedRoundTrip checks that the rules r take tb's stored form back, write the same
// bytes from it, and discard its closing cards as tb does (the form does not store that:
// the rules version gives it).
func storedRoundTrip(t *testing.T, r Rules, tb Table) {
	t.Helper()
	b := encodeState(t, r, tb)
	back, err := r.DecodeState(bytes.Clone(b))
	if err != nil {
		t.Fatalf("%s: the stored table is refused: %v", r.Info().RulesVersion, err)
	}
	if again := encodeState(t, r, back); !bytes.Equal(again, b) {
		t.Fatalf("%s: the stored table reads back as another", r.Info().RulesVersion)
	}
	for i, s := range back.(Table).Boards {
		if s.discardClosing != tb.Boards[i].discardClosing || s.discardClosing != r.before("magic-2026.5") {
			t.Fatalf("%s: board %d read back discards closing cards when laid: %v", r.Info().RulesVersion, i, s.discardClosing)
		}
	}
}
