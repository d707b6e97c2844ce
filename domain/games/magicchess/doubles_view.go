package magicchess

import (
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/cardchess"
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// TableBoard is one board of a doubles match as everyone may see it (match.boards):
// nothing on it is secret.
type TableBoard struct {
	Board   int
	FEN     string    // with the pockets: "...[Qn] w ..."
	Pockets [2]string // the pieces in hand for drops, White's then Black's, in FEN letters
	Seats   [2]int    // the seat playing White here, and Black
	ToAct   int       // the seat to move here; -1 in the planning and once over
	InCheck bool
	Moves   []string // this board's record
	Clock   *clock.Reading
	// Advanced mode: this board's phase (play, check, move-after-card, reaction-R1...) and
	// the reaction window open on it, the same for every viewer; nil when none is.
	Phase    string
	Reaction *ReactionView
	// The cards face up on this board (lasting cards), each on the squares it holds, its
	// seat the table's: public, as a one-board view shows them to everyone.
	Marks []game.Mark
}

// clock is the table's clock as one reading of the four seats' times (clock.Timed): no
// seat's runs in it, as two do at once; each board's running clock is in its TableBoard.
func (t Table) clock() clock.Clock {
	c := t.Boards[0].Clock
	if !c.On {
		return c
	}
	c.Left = slices.Concat(t.Boards[0].Clock.Left, t.Boards[1].Clock.Left)
	c.Paused = true // none runs in this reading: two may, or one board's window stops its own
	return c
}

// view shows the table to p: the board of the viewer's seat (board A to a spectator) as
// the one-board view shows it, with that seat's own hand; what everyone may know of the
// four seats' cards; both boards (TableBoard); and the signals of the viewer's team alone.
func (t Table) view(p game.Viewpoint) *View {
	status := t.status()
	// The viewer's seat: the first it holds that is to act, else the first it holds (a
	// player holds one; the house bot may hold several).
	mine := -1
	for _, seat := range p.Seats {
		if seat >= 0 && seat < DoublesSeats && (mine < 0 || slices.Contains(status.ToAct, seat) && !slices.Contains(status.ToAct, mine)) {
			mine = seat
		}
	}
	b, lp := 0, game.Viewpoint{Over: p.Over || status.Over}
	if mine >= 0 {
		b, lp.Seats = boardOf(mine), []int{localOf(mine)}
	}
	v := Rules{}.View(t.Boards[b], lp).(*View)
	v.Phase, v.offset, v.ready, v.PlanEnds = status.Phase, seatOn(b, 0), nil, nil
	if lp.Over {
		v.Phase = Over // the match's end, or the table's (status.Over): see Over
	}
	if status.Phase == Planning && !lp.Over { // the table's deadline, one for the four seats, while the match lasts
		end := t.PlanEnds
		v.PlanEnds = &end
	}
	if t.Phase == Planning && !lp.Over {
		for _, seat := range status.ToAct {
			if p.Holds(seat) {
				v.ready = append(v.ready, seat)
			}
		}
	}
	if status.Over {
		v.Board.LegalMoves, v.seat = nil, -1
		for i := range v.Hand {
			v.Hand[i] = cards.HandCard{Slot: v.Hand[i].Slot, Card: v.Hand[i].Card, Reason: "the game is over"}
		}
	}
	for i := range v.Board.Marks {
		v.Board.Marks[i].Seat = seatOn(b, v.Board.Marks[i].Seat)
	}
	for i, c := range v.Board.Checked {
		v.Board.Checked[i] = seatOn(b, c)
	}
	if v.Reaction != nil {
		v.Reaction.Seat = seatOn(b, v.Reaction.Seat)
	}
	discard := t.discard()
	v.Cards = nil
	for seat := range DoublesSeats {
		s := &t.Boards[boardOf(seat)]
		v.Cards = append(v.Cards, cards.SeatCards{Seat: seat, HandSize: Rules{}.HandSize(*s, localOf(seat)), DeckSize: len(t.Deck),
			Discard: slices.Clone(discard), Played: cards.Counts(s.Played[localOf(seat)])})
	}
	for i := range t.Boards {
		v.Boards = append(v.Boards, t.tableBoard(i, status, lp.Over))
	}
	// A viewer that holds a seat on the other board too may act there as well.
	for _, seat := range p.Seats {
		if seat >= 0 && seat < DoublesSeats && boardOf(seat) != b && t.Phase == Play && !lp.Over {
			other := Rules{}.View(t.Boards[boardOf(seat)], game.Viewpoint{Seats: []int{localOf(seat)}}).(*View)
			other.offset = seatOn(boardOf(seat), 0)
			v.more = append(v.more, other.Plays()...)
		}
	}
	for team, sigs := range t.Signals {
		if p.InTeam(team) || p.Over {
			v.Signals = append(v.Signals, sigs...)
		}
	}
	return v
}

// tableBoard is board b as TableBoard shows it; over is the match's end (the game's
// status.Over, or the match's own event, which the table's state does not hold).
func (t Table) tableBoard(b int, status game.Status, over bool) TableBoard {
	s := &t.Boards[b]
	tb := TableBoard{Board: b, FEN: s.Pos.FEN(), Seats: [2]int{seatOn(b, 0), seatOn(b, 1)}, ToAct: -1,
		InCheck: s.Pos.InCheck(), Moves: slices.Clone(s.Record), Marks: s.marks()}
	for i := range tb.Marks {
		tb.Marks[i].Seat = seatOn(b, tb.Marks[i].Seat)
	}
	for c := range tb.Pockets {
		tb.Pockets[c] = s.Pos.Pocket(colour(c)).String()
	}
	var gs game.Status
	switch {
	case over:
		gs.Over, tb.Phase = true, Over
	case t.Phase == Play:
		tb.ToAct = seatOn(b, s.toAct())
		gs = game.Status{ToAct: []int{s.toAct()}, Deadline: s.Clock.Deadline(s.toAct())}
		tb.Phase, tb.Reaction = Rules{}.Status(*s).Phase, s.reactionView()
	default:
		tb.Phase = Planning
	}
	// No clock runs on a board while a reaction window is open there (Rules.Clock).
	if r, ok := (Rules{}).Clock(*s).Read(gs); ok {
		tb.Clock = &r
	}
	if tb.Reaction != nil {
		tb.Reaction.Seat = seatOn(b, tb.Reaction.Seat)
	}
	return tb
}

// The table's answers to the other contracts of the game.

// handOf is seat's hand at the table.
func (t Table) handOf(seat int) []cards.HandCard {
	if seat < 0 || seat >= DoublesSeats {
		return nil
	}
	return Rules{}.Hand(t.Boards[boardOf(seat)], localOf(seat))
}

// handSizeOf is how many cards seat holds.
func (t Table) handSizeOf(seat int) int {
	if seat < 0 || seat >= DoublesSeats {
		return 0
	}
	return Rules{}.HandSize(t.Boards[boardOf(seat)], localOf(seat))
}

// turns groups the table's record by turns: a turn is the run of entries one seat played.
func (t Table) turns() []game.Turn { return cardchess.Turns(t.Record, t.Players) }

// playFrom is when the table's planning ends or ended.
func (t Table) playFrom() time.Time {
	if t.Phase == Play {
		return t.PlanEnded
	}
	return t.PlanEnds
}
