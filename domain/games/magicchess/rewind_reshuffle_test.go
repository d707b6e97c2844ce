package magicchess

import (
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
)

// A card is in one place: face up, on a discard pile, in the deck or in a hand. On board
// A, White's Truce runs out with exd5, a capture that opens an R2 window for Black, who
// holds Rewind. Meanwhile on board B seat 2 lays its last card, Frost, with the table's
// deck empty: the discard is shuffled into a new deck, and seat 2 draws. The Truce may
// still come back face up (Rewind takes back the move that ran it out), so from
// magic-2026.7 the reshuffle leaves it on board A's discard pile and takes Banish alone;
// Black's Rewind then puts it face up, off the pile, and it is nowhere else.
func TestAReshuffleLeavesACardARewindMayPutBack(t *testing.T) {
	tb := truceRunsOutDuringAReshuffle(t, Rules{})
	if got := where(tb, "truce"); !slices.Equal(got, []string{"discard A"}) {
		t.Fatalf("after the reshuffle the truce is in %v, want board A's discard pile alone", got)
	}
	if !slices.Equal(tb.Boards[1].Hands[0], []string{"", "banish"}) || len(tb.Deck) != 0 {
		t.Fatalf("seat 2 drew %v, the deck holds %v: the reshuffle took more than Banish", tb.Boards[1].Hands[0], tb.Deck)
	}
	tb = rewound(t, Rules{}, tb)
	if got := where(tb, "truce"); !slices.Equal(got, []string{"face up A"}) {
		t.Fatalf("after the rewind the truce is in %v, want face up on board A alone", got)
	}
}

// Under magic-2026.6 the reshuffle took the Truce into the deck, seat 2 drew it (or
// Banish), and the Rewind put it face up as well: the matches of then replay so.
func TestAReshuffleTookACardARewindPutBackUnderMagic20266(t *testing.T) {
	old, _ := Rules{}.Under("magic-2026.6")
	r := old.(Rules)
	tb := truceRunsOutDuringAReshuffle(t, r)
	if got := where(tb, "truce"); len(got) != 1 || got[0] == "discard A" {
		t.Fatalf("under magic-2026.6 the reshuffle left the truce in %v", got)
	}
	tb = rewound(t, r, tb)
	if got := where(tb, "truce"); len(got) != 2 {
		t.Fatalf("under magic-2026.6 after the rewind the truce is in %v, want two places", got)
	}
	// The stored form of 2026.6 reads such a state back: those rules reach it.
	b, err := r.EncodeState(tb)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.DecodeState(b); err != nil {
		t.Fatalf("the stored form of magic-2026.6 refuses the state after the rewind: %v", err)
	}
	// magic-2026.7's refuses a card in two places.
	tb.version = RulesVersion
	for b := range tb.Boards {
		tb.Boards[b].shuffledRanOut = false
	}
	if b, err := (Rules{}).EncodeState(tb); err == nil {
		if _, err := (Rules{}).DecodeState(b); err == nil {
			t.Error("the stored form of magic-2026.7 reads back a card in two places")
		}
	}
}

// truceRunsOutDuringAReshuffle plays the table of TestAReshuffleLeavesACardARewindMayPutBack
// under r up to seat 2's Frost and the reshuffle it brings, board A's R2 window open.
func truceRunsOutDuringAReshuffle(t *testing.T, r Rules) Table {
	t.Helper()
	rest := slices.DeleteFunc(deckOf(Advanced), func(c string) bool {
		return slices.Contains([]string{"truce", "paralysis", "rewind", "wall", "frost"}, c)
	})
	tb := advDoublesUnder(t, r, [4][]string{{"truce", "paralysis"}, {"rewind", "wall"}, {"frost"}, rest}, "")
	if len(tb.Deck) != 0 {
		t.Fatalf("the deck holds %v", tb.Deck)
	}
	act := func(seat int, at time.Time, do any) {
		t.Helper()
		tb, _ = dactUnder(t, r, tb, seat, at, do)
	}
	pass := func(b int) { // the seat of board b's window passes, after its reading time
		t.Helper()
		w := tb.Boards[b].Window
		tb, _ = dactUnder(t, r, tb, game.System, w.Answers, game.Timeout{Deadline: w.Answers})
		act(seatOn(b, w.Seat), w.Answers.Add(time.Second/2), game.Choose{Option: Pass})
	}
	for _, m := range []struct {
		seat int
		uci  string
	}{{0, "e2e4"}, {1, "d7d5"}, {2, "e2e4"}} {
		act(m.seat, sec(1), game.Move{Notation: m.uci})
	}
	act(3, sec(2), cards.PlayCard{Card: "banish", Slot: -1, Targets: []string{"e4"}})
	pass(1)
	if !slices.Equal(tb.Boards[1].Discard, []string{"banish"}) {
		t.Fatalf("board B's discard pile: %v", tb.Boards[1].Discard)
	}
	act(0, sec(6), cards.PlayCard{Card: "truce", Slot: -1, Targets: []string{}})
	pass(0)
	act(1, sec(10), game.Move{Notation: "g8f6"})
	act(0, sec(11), game.Move{Notation: "e4d5"}) // the truce runs out; R2 opens for seat 1
	dwindow(t, tb, 0, R2, 1)
	if !slices.Equal(tb.Boards[0].Discard, []string{"truce"}) {
		t.Fatalf("board A's discard pile after exd5: %v", tb.Boards[0].Discard)
	}
	act(2, sec(12), cards.PlayCard{Card: "frost", Slot: -1, Targets: []string{}})
	if tb.Shuffles != 1 {
		t.Fatalf("%d reshuffles after seat 2's last card", tb.Shuffles)
	}
	return tb
}

// rewound is tb after seat 1's Rewind on board A, once the window's reading time is over.
func rewound(t *testing.T, r Rules, tb Table) Table {
	t.Helper()
	w := dwindow(t, tb, 0, R2, 1)
	tb, _ = dactUnder(t, r, tb, game.System, w.Answers, game.Timeout{Deadline: w.Answers})
	tb, _ = dactUnder(t, r, tb, 1, w.Answers.Add(time.Second/2), React{Card: "rewind", Slot: -1, Targets: []string{}})
	return tb
}

// where lists the places of card at the table: "deck", "hand <seat>", "discard A",
// "face up B"...
func where(tb Table, card string) []string {
	var out []string
	for range count(tb.Deck, card) {
		out = append(out, "deck")
	}
	for b, s := range tb.Boards {
		for local, h := range s.Hands {
			for range count(h, card) {
				out = append(out, "hand "+string(rune('0'+seatOn(b, local))))
			}
		}
		for range count(s.Discard, card) {
			out = append(out, "discard "+boardName(b))
		}
		for _, l := range s.Lasting {
			if l.Card == card {
				out = append(out, "face up "+boardName(b))
			}
		}
	}
	return out
}
