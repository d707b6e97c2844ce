package magicchess

import (
	"fmt"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/cardchess"
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/tactic"
)

// View is a match of Ajedrez Mágico as one viewer sees it. The board, the record, the
// cards face up and the piles are public; a hand is the secret of its seat: the view holds
// the viewer's own hand and only the size of the other's; the deck's order is nobody's.
type View struct {
	Board game.Board        // the position, the cards on the table as marks, the legal moves of the side to move
	Moves []string          // the record: moves in SAN, cards as "[card targets]"
	Hand  []cards.HandCard  // the viewer's own hand (its first seat's), nil for a spectator
	Cards []cards.SeatCards // what everyone may know of each seat's cards, by seat
	Phase string            // planning, play, reaction-R1 (R2, R3), over
	// PlanEnds is the planning's deadline while the planning lasts, nil outside it and once
	// the match is over (aborted or resigned in the planning, the game's state still in
	// it): public, as GameStarted's planEnds is, so a client need not add the option to
	// the start.
	PlanEnds *time.Time
	// Doubles only (doubles.go): both boards, and the team channel's signals, the
	// viewer's team's alone.
	Boards  []TableBoard
	Signals []Signal
	// Reaction is the reaction window open (advanced mode), nil when none is: public,
	// the same for every viewer, whatever anyone holds.
	Reaction *ReactionView

	// What Plays needs, no more secret than the rest: the position, the seats the viewer
	// may act for now, and the hand of the seat to act when the viewer holds it.
	pos    chess.Position
	seat   int
	hand   []cards.HandCard
	ready  []int
	offset int         // the table's number of the board's seat 0 (doubles), else 0
	react  int         // the viewer's seat that may answer the window now, or -1
	more   []game.Play // doubles: the plays of the viewer's seat on the other board
}

// ReactionView is a reaction window as everyone sees it: its kind, the seat that may
// react, what opened it (the card held, for R1), the end of its reading time (no answer
// before it) and its deadline.
type ReactionView struct {
	Window    string
	Seat      int
	Triggers  []string
	Card      string // R1: the card laid that waits for the window
	Answers   time.Time
	Closes    time.Time
	Answering bool
}

// reactionView is the window open, as everyone sees it, or nil.
func (s *State) reactionView() *ReactionView {
	w := s.Window
	if w == nil || w.Closed {
		return nil
	}
	r := &ReactionView{Window: w.Kind, Seat: w.Seat, Triggers: slices.Clone(w.Triggers), Answers: w.Answers, Closes: w.Closes, Answering: w.Answering}
	if s.Held != nil {
		r.Card = s.Held.Card
	}
	return r
}

// View shows the match to p.
func (r Rules) View(st game.State, p game.Viewpoint) game.View {
	if t, ok := st.(Table); ok {
		if !t.started {
			return nil
		}
		return t.view(p)
	}
	s, ok := st.(State)
	if !ok || !s.started {
		return nil
	}
	status := r.Status(s)
	v := &View{Board: r.Board(s), Moves: r.MoveList(s), Phase: status.Phase, pos: s.Pos, seat: -1, react: -1}
	if p.Over {
		// The match ended by its own event (a resignation, an abort...), which the game's
		// state does not hold: its phase (the planning, say) is no longer the match's.
		v.Phase = Over
	}
	v.Reaction = s.reactionView()
	if status.Phase == Planning && !p.Over { // a match ended in its planning has no deadline left
		end := s.PlanEnds
		v.PlanEnds = &end
	}
	if len(p.Seats) > 0 {
		v.Hand = r.Hand(s, p.Seats[0])
		if v.Hand == nil {
			v.Hand = []cards.HandCard{} // a seat whose hand is empty: not a spectator's null
		}
	}
	if !p.Over && !status.Over {
		if s.Phase == Planning {
			for _, seat := range status.ToAct {
				if p.Holds(seat) {
					v.ready = append(v.ready, seat)
				}
			}
		} else if w := s.Window; w != nil || s.opening != nil {
			if w != nil && p.Holds(w.Seat) && w.Answering && !w.Closed {
				v.react, v.hand = w.Seat, r.Hand(s, w.Seat)
			}
		} else if seat := s.toAct(); p.Holds(seat) {
			v.seat, v.hand = seat, r.Hand(s, seat)
		}
	}
	for seat := range 2 {
		v.Cards = append(v.Cards, cards.SeatCards{Seat: seat, HandSize: r.HandSize(s, seat), DeckSize: len(s.Deck),
			Discard: slices.Clone(s.Discard), Played: cards.Counts(s.Played[seat])})
	}
	return v
}

// Plays lists what the viewer's seats may do now: in the planning, end it; in play, for
// the seat to act, its legal moves (scored by what they mate or take) and each card it
// may lay on each choice of targets.
func (v *View) Plays() []game.Play {
	out := slices.Clone(v.more)
	for _, seat := range v.ready {
		out = append(out, game.Play{Seat: seat, Do: game.Choose{Option: "ready"}, Kind: game.KindChoice})
	}
	if v.react >= 0 {
		return append(out, v.reactions()...)
	}
	if v.seat < 0 {
		return out
	}
	for _, uci := range v.Board.LegalMoves {
		out = append(out, game.Play{Seat: v.seat + v.offset, Do: game.Move{Notation: uci}, Kind: game.KindMove, Score: tactic.Chess(v.pos, uci)})
	}
	for _, hc := range v.hand {
		if !hc.Playable {
			continue
		}
		for _, t := range hc.Targets {
			do := cards.PlayCard{Card: hc.Card, Slot: hc.Slot, Targets: slices.Clone(t)}
			out = append(out, game.Play{Seat: v.seat + v.offset, Do: do, Kind: game.KindCard, Of: fmt.Sprint("slot ", hc.Slot)})
		}
	}
	return out
}

// reactions are the plays of the viewer's seat in the window open: pass, and each
// reaction it may lay on each choice of targets. Passing is a play of its own kind ("pass",
// not a choice), so that a player in a hurry weighs it against its reactions.
func (v *View) reactions() []game.Play {
	out := []game.Play{{Seat: v.react + v.offset, Do: game.Choose{Option: Pass}, Kind: Pass}}
	for _, hc := range v.hand {
		if !hc.Playable {
			continue
		}
		for _, t := range hc.Targets {
			do := React{Card: hc.Card, Slot: hc.Slot, Targets: slices.Clone(t)}
			out = append(out, game.Play{Seat: v.react + v.offset, Do: do, Kind: game.KindCard, Of: fmt.Sprint("slot ", hc.Slot)})
		}
	}
	return out
}

// ShownBoard is the board (game.BoardView).
func (v *View) ShownBoard() game.Board { return v.Board }

// ShownMoves is the record (game.BoardView).
func (v *View) ShownMoves() []string { return v.Moves }

// ShownHand is the viewer's hand (cards.View).
func (v *View) ShownHand() []cards.HandCard { return v.Hand }

// ShownCards is what everyone may know of the cards (cards.View).
func (v *View) ShownCards() []cards.SeatCards { return v.Cards }

// Hand is seat's hand, slot by slot, with every legal choice of targets of each card
// that may be laid now, or why it may not.
func (Rules) Hand(st game.State, seat int) []cards.HandCard {
	if t, ok := st.(Table); ok {
		return t.handOf(seat)
	}
	s, ok := st.(State)
	if !ok || seat < 0 || seat > 1 {
		return nil
	}
	return cards.Hand(s.Hands[seat], s.closed(seat), func(slot int) ([][]string, string) {
		_, legal, why := s.options(seat, slot)
		var targets [][]string
		for _, p := range legal {
			targets = append(targets, p.targets)
		}
		return targets, why
	})
}

// closed says why seat may lay no card now, or "".
func (s *State) closed(seat int) string {
	switch {
	case s.Phase == Planning:
		return "the planning phase: nobody moves nor lays a card"
	case s.opening != nil:
		return "a reaction window is opening"
	case s.Window != nil:
		return windowNote(s.Window, seat)
	case seat != s.toAct():
		return "cards are laid only in your own turn"
	case s.Turn.Card != "":
		return "you have laid a card this turn already"
	}
	if _, over := s.outcome(); over {
		return "the game is over"
	}
	return ""
}

// HandSize is how many cards seat holds.
func (Rules) HandSize(st game.State, seat int) int {
	if t, ok := st.(Table); ok {
		return t.handSizeOf(seat)
	}
	s, _ := st.(State)
	n := 0
	if seat >= 0 && seat <= 1 {
		for _, c := range s.Hands[seat] {
			if c != "" {
				n++
			}
		}
	}
	return n
}

// Board shows the position, the legal moves of the seat to act under its restrictions
// (none in the planning), and the cards face up as marks: Kind is the card, Seat its
// owner, Note its turns left; a card on pieces marks their squares, a card on squares
// those squares, a card on a whole side its owner's king.
func (r Rules) Board(st game.State) game.Board {
	if t, ok := st.(Table); ok {
		return r.Board(t.Boards[0]) // board A; both are in the view's Boards
	}
	s, ok := st.(State)
	if !ok || !s.started {
		return game.Board{}
	}
	b := game.Board{FEN: s.Pos.FEN(), InCheck: s.Pos.InCheck(), Checked: []int{}}
	if s.Phase == Play && s.Window == nil && s.opening == nil && !r.Status(s).Over {
		for _, m := range s.moves() {
			b.LegalMoves = append(b.LegalMoves, m.UCI())
		}
	}
	for seat := range 2 {
		if s.kingAttacked(seat) {
			b.Checked = append(b.Checked, seat)
		}
	}
	b.Marks = s.marks()
	return b
}

// marks are the lasting cards face up on the board, each on the squares it holds (its
// pieces' squares; a card on a whole side, its owner's king's), seats the board's own.
func (s State) marks() []game.Mark {
	out := []game.Mark{}
	for _, l := range s.Lasting {
		note := fmt.Sprintf("%s, %d of seat %d's turns left", l.Effect, l.Left, l.Seat)
		squares := l.Squares | s.Pos.SquaresOf(l.Pieces...)
		if squares == 0 {
			k, _ := s.Pos.KingSquare(colour(l.Seat))
			squares = chess.BB(k)
		}
		for _, sq := range squares.Squares() {
			out = append(out, game.Mark{Square: sq.String(), Kind: l.Card, Seat: l.Seat, Note: note})
		}
	}
	return out
}

// MoveList gives the moves in SAN and the cards as "[card targets]", in order.
func (Rules) MoveList(st game.State) []string {
	if t, ok := st.(Table); ok {
		return slices.Clone(t.Record)
	}
	if s, ok := st.(State); ok {
		return slices.Clone(s.Record)
	}
	return nil
}

// Turns groups the record by turns: a turn is its cards and its moves together (an
// annulled card and what its player did next are one turn). Seat 0 plays White. The
// match counts a seat as having made its first move by them (a card and the move it
// owes are one turn, not two).
func (Rules) Turns(st game.State) (int, []game.Turn) {
	if t, ok := st.(Table); ok {
		return 1, t.turns()
	}
	s, _ := st.(State)
	return 1, cardchess.Turns(s.Record, s.Players)
}

// SideOf: seat 0 plays White, seat 1 Black.
// In doubles each seat plays its board's colour, but the match has no two sides.
func (Rules) SideOf(st game.State, seat int) (int, string, bool) {
	if _, ok := st.(Table); ok {
		side, name, _ := cardchess.SideOf(localOf(seat))
		return side, name, false
	}
	return cardchess.SideOf(seat)
}
