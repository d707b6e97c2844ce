package unfair

import (
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/cardchess"
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// What Arbiter shows of a game: the board with its marks, the hands with what may be
// played, the piles: the truth behind View (show.go), which gives each viewer its own
// hand alone.

// Catalog lists the 58 cards in catalog.json's order.
func (Rules) Catalog() []cards.Card { return slices.Clone(catalog) }

// Hand is seat's hand, slot by slot, with every legal choice of targets of each card
// that may be played now, or why it may not.
func (Rules) Hand(st game.State, seat int) []cards.HandCard {
	s, ok := st.(State)
	if !ok || seat < 0 || seat > 1 {
		return nil
	}
	return cards.Hand(s.Sides[seat].Hand[:], s.closed(seat), func(slot int) ([][]string, string) {
		_, legal, why := s.options(seat, slot)
		var targets [][]string
		for _, p := range legal {
			targets = append(targets, p.targets)
		}
		return targets, why
	})
}

// HandSize is how many cards seat holds.
func (Rules) HandSize(st game.State, seat int) int {
	if s, ok := st.(State); ok && seat >= 0 && seat <= 1 {
		return s.Sides[seat].handCards()
	}
	return 0
}

// DeckSize is how many cards are left in seat's deck.
func (Rules) DeckSize(st game.State, seat int) int {
	if s, ok := st.(State); ok && seat >= 0 && seat <= 1 {
		return len(s.Sides[seat].Deck)
	}
	return 0
}

// Discard is seat's discard pile, oldest first.
func (Rules) Discard(st game.State, seat int) []string {
	if s, ok := st.(State); ok && seat >= 0 && seat <= 1 {
		return slices.Clone(s.Sides[seat].Discard)
	}
	return nil
}

// Played counts the cards seat has played.
func (Rules) Played(st game.State, seat int) map[string]int {
	out := map[string]int{}
	if s, ok := st.(State); ok && seat >= 0 && seat <= 1 {
		for _, c := range s.Sides[seat].Played {
			out[c]++
		}
	}
	return out
}

// Board shows the position, the legal moves of the seat to act under its restrictions,
// and the marks: each status on its piece (Seat: the piece's owner), each barred square
// ("barred"), each piece that may not move ("shackled", frost included) and a truce
// ("truce", on the bound seat's king), with Seat the bound seat.
func (r Rules) Board(st game.State) game.Board {
	s, ok := st.(State)
	if !ok || !s.started {
		return game.Board{}
	}
	b := game.Board{FEN: s.Pos.FEN(), InCheck: s.Pos.InCheck(), Marks: []game.Mark{}, Checked: []int{}}
	if !r.Status(s).Over {
		for _, m := range s.moves() {
			b.LegalMoves = append(b.LegalMoves, m.UCI())
		}
	}
	for seat, attacked := range s.kingsAttacked() {
		if attacked {
			b.Checked = append(b.Checked, seat)
		}
	}
	for _, st := range s.Statuses {
		if sq, ok := s.Pos.SquareOf(st.Piece); ok {
			pc, _ := s.Pos.PieceAt(sq)
			note := fmt.Sprintf("by seat %d", st.By)
			if st.Kind == Shield {
				note = fmt.Sprintf("until seat %d's turn ends", 1-st.By)
			}
			b.Marks = append(b.Marks, game.Mark{Square: sq.String(), Kind: st.Kind, Seat: seatOf(pc.Color), Note: note})
		}
	}
	for seat, bars := range s.Bars {
		note := bars.Card + ", during seat " + fmt.Sprint(seat) + "'s turn"
		if s.Suspended && seat == s.toAct() {
			note = bars.Card + ", suspended: it would leave no legal move"
		}
		mark := func(sqs chess.Bitboard, kind string) {
			for _, sq := range sqs.Squares() {
				b.Marks = append(b.Marks, game.Mark{Square: sq.String(), Kind: kind, Seat: seat, Note: note})
			}
		}
		mark(bars.Squares, "barred")
		mark(s.Pos.SquaresOf(bars.Pieces...), "shackled")
		if bars.Pawns {
			mark(s.Pos.Pieces(colour(seat), chess.Pawn), "shackled")
		}
		if k, ok := s.Pos.KingSquare(colour(seat)); ok && bars.Truce {
			mark(chess.BB(k), "truce")
		}
	}
	return b
}

// MoveList gives the moves in SAN and the cards as "[card targets]", in order.
func (Rules) MoveList(st game.State) []string {
	if s, ok := st.(State); ok {
		return slices.Clone(s.Record)
	}
	return nil
}

// Turns groups the record by turns: a turn is its cards and its moves together (turns
// alternate, so a turn is the run of entries one seat played). Seat 0 plays White.
func (Rules) Turns(st game.State) (int, []game.Turn) {
	s, _ := st.(State)
	return 1, cardchess.Turns(s.Record, s.Players)
}

// SideOf: seat 0 plays White, seat 1 Black.
func (Rules) SideOf(_ game.State, seat int) (int, string, bool) { return cardchess.SideOf(seat) }

// Settled reports whether every fact the last action set off has been recorded: until
// then the state is ahead of the stream (see Evolve).
func (Rules) Settled(st game.State) bool {
	s, ok := st.(State)
	return !ok || len(s.pending) == 0
}
