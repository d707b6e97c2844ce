package magicchess

import (
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// decide is an action at the table: a signal at any time, in the seat's turn or not
// (SendSignal is game.Aside, which the match takes from any seat); in the planning, a
// seat ending it or its timeout; in play, a seat's move, drop or card on its own board,
// played by the one-board rules, or the timeout of a board's clock.
func (t Table) decide(a game.Action) ([]game.Emitted, error) {
	if !t.started {
		return nil, game.Reject(game.Conflict, "the game has not started")
	}
	if _, over := t.outcome(); over {
		return nil, game.Reject(game.IllegalMove, "the game is over")
	}
	if sig, ok := a.Do.(SendSignal); ok {
		return t.decideSignal(a.Seat, sig)
	}
	board := -1
	if ob, ok := a.Do.(OnBoard); ok {
		board, a.Do = ob.Board, ob.Do
		if board < 0 || board > 1 {
			return nil, game.Reject(game.BadInput, "board %d does not exist: doubles has boards 0 and 1", board)
		}
		if a.Seat >= 0 && a.Seat < DoublesSeats && boardOf(a.Seat) != board {
			return nil, game.Reject(game.BadInput, "seat %d plays on board %d, not board %d", a.Seat, boardOf(a.Seat), board)
		}
	}
	switch a.Do.(type) {
	case OnBoard, SendSignal:
		return nil, game.Reject(game.BadInput, "an action on a board is a move, a drop or a card")
	}
	if t.Phase == Planning {
		return planning(a, t.PlanEnds, t.Done[:], func(e PlanningEnded) ([]game.Emitted, error) {
			return t.evolve(e).decide(a)
		})
	}
	if tm, ok := a.Do.(game.Timeout); ok {
		return t.decideTimeout(a, tm)
	}
	if a.Seat < 0 || a.Seat >= DoublesSeats {
		return nil, game.Reject(game.Forbidden, "no such seat")
	}
	b := boardOf(a.Seat)
	// A flag that fell on the other board ended the match first.
	if o := t.Boards[1-b]; o.lateAt(a.At) {
		fell := o.Clock.Fell(o.toAct())
		fell.Seat = seatOn(1-b, fell.Seat)
		return game.PublicEvents(fell), nil
	}
	return t.decideOn(b, game.Action{Seat: localOf(a.Seat), At: a.At, Do: a.Do})
}

// decideTimeout is the engine's timeout of the board whose deadline it names: a flag, or
// in the advanced mode the end of a reaction window's reading time or of the window.
func (t Table) decideTimeout(a game.Action, tm game.Timeout) ([]game.Emitted, error) {
	for b, s := range t.Boards {
		if d := (Rules{}).Status(s).Deadline; !d.IsZero() && d.Equal(tm.Deadline) {
			return t.decideOn(b, a)
		}
	}
	return nil, game.Reject(game.Conflict, "nothing is due: no board's deadline is %s", tm.Deadline.Format(time.RFC3339Nano))
}

// decideOn is a (local) action on board b, decided by the one-board rules, its events
// made the table's: each move names the piece it passes to the partner, and a seat that
// laid the last card of its hand draws one.
func (t Table) decideOn(b int, la game.Action) ([]game.Emitted, error) {
	s := t.Boards[b]
	evs, err := Rules{}.Decide(s, la)
	if err != nil {
		return nil, err
	}
	cur := s
	for i, em := range evs {
		if mv, ok := em.Event.(MovePlayed); ok {
			mv.Passes = passes(&cur, mv.UCI)
			em.Event = mv
		}
		cur = Rules{}.Evolve(cur, em.Event).(State)
		evs[i].Event = global(b, em.Event)
	}
	if la.Seat >= 0 && !s.handEmpty(la.Seat) && cur.handEmpty(la.Seat) {
		if _, over := cur.outcome(); !over {
			after := t
			after.Boards[b] = cur
			evs = append(evs, after.draw(seatOn(b, la.Seat))...)
		}
	}
	return evs, nil
}

// draw is seat drawing the top card of the table's deck, the discard shuffled into a new
// deck first when the deck is empty; nothing when both are.
func (t Table) draw(seat int) []game.Emitted {
	var out []game.Emitted
	if len(t.Deck) == 0 {
		r, ok := t.reshuffle()
		if !ok {
			return nil
		}
		out = append(out, game.Emitted{Event: r, Visibility: visibility.Server})
		t = t.evolve(r)
	}
	d := CardDrawn{Seat: seat, Card: t.Deck[0]}
	return append(out, game.Emitted{Event: d, Visibility: visibility.Seat(seat)})
}

// reshuffle is the discard shuffled into the table's next deck, from the match's key.
func (t *Table) reshuffle() (DeckReshuffled, bool) {
	pile := t.discard()
	if len(pile) == 0 {
		return DeckReshuffled{}, false
	}
	n := t.Shuffles + 1
	return DeckReshuffled{Count: n, Cards: cards.Shuffle(t.procedure, t.key, reshuffleLabel(n), pile)}, true
}

// decideSignal is seat signalling its partner.
func (t Table) decideSignal(seat int, sig SendSignal) ([]game.Emitted, error) {
	switch {
	case seat < 0 || seat >= DoublesSeats:
		return nil, game.Reject(game.Forbidden, "only a player signals its partner")
	case !knownSignal(sig.Signal):
		return nil, game.Reject(game.BadInput, "signal %q: one of %v", sig.Signal, Signals)
	}
	team := t.Signals[teamOf(seat)]
	for i := len(team) - 1; i >= 0; i-- {
		if team[i].Seat == seat {
			if team[i].Signal == sig.Signal {
				return nil, game.Reject(game.Conflict, "your last signal is %s already", sig.Signal)
			}
			break
		}
	}
	e := Signalled{Seat: seat, Signal: sig.Signal, Hidden: !older(t.version, "magic-2026.4")}
	return []game.Emitted{{Event: e, Visibility: visibility.Team(teamOf(seat))}}, nil
}

// status: in the planning, the seats that have not ended it; in play, the seat to act on
// each board, until the earlier of the two boards' deadlines; the outcome once over.
func (t Table) status() game.Status {
	if !t.started {
		return game.Status{}
	}
	if o, over := t.outcome(); over {
		return game.Status{Phase: Over, Over: true, Outcome: o}
	}
	if t.Phase == Planning {
		var seats []int
		for seat, done := range t.Done {
			if !done {
				seats = append(seats, seat)
			}
		}
		return game.Status{ToAct: seats, Phase: Planning, Deadline: t.PlanEnds, Choices: []string{"ready"}}
	}
	// Each board as the one-board rules see it: the seat to move, or in a reaction window
	// nobody during its reading time and then the seat that may react, until the window's
	// deadline. The match's phase is the first board's window, if one is open.
	st := game.Status{Phase: Play}
	for b, s := range t.Boards {
		bs := Rules{}.Status(s)
		for _, local := range bs.ToAct {
			st.ToAct = append(st.ToAct, seatOn(b, local))
		}
		if strings.HasPrefix(bs.Phase, "reaction-") && st.Phase == Play {
			st.Phase = bs.Phase
		}
		if len(bs.Choices) > 0 && !slices.Contains(st.Choices, Pass) {
			st.Choices = append(st.Choices, Pass) // a window's answer: the seat of the window may pass
		}
		if d := bs.Deadline; !d.IsZero() && (st.Deadline.IsZero() || d.Before(st.Deadline)) {
			st.Deadline = d
		}
	}
	return st
}

// settled says whether neither board is between two events of one command.
func (t Table) settled() bool { return !t.Boards[0].unsettled() && !t.Boards[1].unsettled() }

// outcome: either board's end ends the match for both teams (rule 12). A mate or a flag
// on a board wins for the team of the seat that won there; a stalemate or the 75-move
// rule there draws the match. A board's insufficient material ends nothing: a piece may
// still come from the other board. A seat's resignation (Conceded) wins for the other
// team.
func (t Table) outcome() (game.Outcome, bool) {
	if t.conceded > 0 {
		return game.Outcome{Winners: teamSeats(1 - teamOf(t.conceded-1)), Reason: "resignation"}, true
	}
	for b := range t.Boards {
		o, over := t.Boards[b].outcome()
		if !over || o.Reason == "insufficient material" {
			continue
		}
		winners := []int{}
		for _, w := range o.Winners {
			winners = append(winners, teamSeats(teamOf(seatOn(b, w)))...)
		}
		slices.Sort(winners)
		return game.Outcome{Winners: winners, Reason: o.Reason}, true
	}
	return game.Outcome{}, false
}

// withdraw is seat's resignation at the table (Rules.Withdraw): from magic-2026.4 on its
// team concedes the match (Conceded), which ends it for both boards; before, nothing:
// the match went on, the resigned seat's clock running until its flag fell.
func (t Table) withdraw(seat int) []game.Emitted {
	if older(t.version, "magic-2026.4") || !t.started || seat < 0 || seat >= DoublesSeats {
		return nil
	}
	if _, over := t.outcome(); over {
		return nil
	}
	return game.PublicEvents(Conceded{Seat: seat})
}
