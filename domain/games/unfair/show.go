package unfair

import (
	"fmt"
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/tactic"
)

// View is an UnfairChess match as a viewer sees it. The board, the record and the piles
// are public; a hand is the secret of its seat: the view holds the viewer's own hand and
// only the size of the other's. The legal moves are those of the side to move under the
// restrictions in play, which are public marks, so everyone may work them out.
type View struct {
	Board game.Board        // the position, its marks, the legal moves of the side to move
	Moves []string          // the record: moves in SAN, cards as "[card targets]"
	Hand  []cards.HandCard  // the viewer's own hand (its first seat's), nil for a spectator
	Cards []cards.SeatCards // what everyone may know of each seat's cards, by seat

	// What Plays needs, no more secret than the rest: the position, and the seat to act
	// with its hand when the viewer holds it and may play (-1 and nil otherwise).
	pos  chess.Position
	seat int
	hand []cards.HandCard
}

var _ game.Viewed = Rules{}

// View shows the match to p.
func (r Rules) View(st game.State, p game.Viewpoint) game.View {
	s, ok := st.(State)
	if !ok || !s.started {
		return nil
	}
	v := &View{Board: r.Board(s), Moves: r.MoveList(s), pos: s.Pos, seat: -1}
	if len(p.Seats) > 0 {
		v.Hand = r.Hand(s, p.Seats[0])
	}
	if seat := s.toAct(); p.Holds(seat) && !p.Over && !r.Status(s).Over {
		v.seat, v.hand = seat, v.Hand
		if seat != p.Seats[0] {
			v.hand = r.Hand(s, seat)
		}
	}
	for seat := range 2 {
		sc := cards.SeatCards{Seat: seat, HandSize: r.HandSize(s, seat), DeckSize: r.DeckSize(s, seat), Discard: r.Discard(s, seat), Played: cards.Counts(s.Sides[seat].Played)}
		v.Cards = append(v.Cards, sc)
	}
	return v
}

// Plays lists, when the viewer holds the side to act, its legal moves, scored by what
// they mate or take on the board, and each card it may play on each choice of targets.
func (v *View) Plays() []game.Play {
	if v.seat < 0 {
		return nil
	}
	seat := v.seat
	var out []game.Play
	for _, uci := range v.Board.LegalMoves {
		out = append(out, game.Play{Seat: seat, Do: game.Move{Notation: uci}, Kind: game.KindMove, Score: tactic.Chess(v.pos, uci)})
	}
	for _, hc := range v.hand {
		if !hc.Playable {
			continue
		}
		for _, t := range hc.Targets {
			do := cards.PlayCard{Card: hc.Card, Slot: hc.Slot, Targets: slices.Clone(t)}
			out = append(out, game.Play{Seat: seat, Do: do, Kind: game.KindCard, Of: fmt.Sprint("slot ", hc.Slot)})
		}
	}
	return out
}

// ShownBoard is the board (game.BoardView).
func (v *View) ShownBoard() game.Board { return v.Board }

// ShownMoves is the record (game.BoardView).
func (v *View) ShownMoves() []string { return v.Moves }

// ShownHand is the viewer's hand cards.View.
func (v *View) ShownHand() []cards.HandCard { return v.Hand }

// ShownCards is what everyone may know of the cards cards.View.
func (v *View) ShownCards() []cards.SeatCards { return v.Cards }
