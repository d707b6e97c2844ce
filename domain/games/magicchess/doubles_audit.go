package magicchess

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// The audit of a doubles match (game.Auditor): the table's events are checked as the
// one-board audit checks a board's, each on its board with its local seat, and what the
// table adds is derived again: the deal to four seats, the piece each capture passes, the
// draws from the top of the deck, each reshuffle from the key and the discard, and that
// no action was played on one board after the other board's flag had fallen.

// auditDoublesStart checks the start of a doubles match.
func (r Rules) auditDoublesStart(before game.State, g GameStarted) error {
	if _, started := before.(Table); started {
		return errors.New("GameStarted after the game had started")
	}
	if g.Boards != 2 || g.FEN != doublesFEN || g.Mode != Classic && g.Mode != Advanced || g.HandSize < 1 || g.HandSize > MaxHand || g.DeckSize != len(deckOf(g.Mode)) {
		return fmt.Errorf("GameStarted %+v: doubles start two boards from %s, with up to %d cards each from the mode's deck", g, doublesFEN, MaxHand)
	}
	return auditReaction(g)
}

// audit checks event e recorded at the table t, whose rules are r.
func (t Table) audit(r Rules, e game.Event) error {
	switch e := e.(type) {
	case GameStarted:
		return errors.New("GameStarted after the game had started")
	case DeckShuffled:
		got, want := slices.Sorted(slices.Values(e.Cards)), slices.Sorted(slices.Values(deckOf(t.Boards[0].Mode)))
		if k, err := hex.DecodeString(e.Key); err != nil || len(k) != 32 {
			return errors.New("DeckShuffled of doubles without the reshuffles' key")
		}
		if t.shuffled != nil || !slices.Equal(got, want) {
			return fmt.Errorf("DeckShuffled does not hold the %s deck, or comes twice", t.Boards[0].Mode)
		}
	case CardsDealt:
		if e.Seat < 0 || e.Seat >= DoublesSeats {
			return fmt.Errorf("CardsDealt for seat %d", e.Seat)
		}
		want := dealOf(t.shuffled, t.Boards[0].HandSize, DoublesSeats, e.Seat)
		if t.Boards[boardOf(e.Seat)].Hands[localOf(e.Seat)] != nil || e.Count != len(e.Cards) || !slices.Equal(e.Cards, want) {
			return fmt.Errorf("CardsDealt for seat %d: %v, the deck deals %v", e.Seat, e.Cards, want)
		}
	case PlanningDone:
		if t.Phase != Planning || e.Seat < 0 || e.Seat >= DoublesSeats || t.Done[e.Seat] {
			return fmt.Errorf("PlanningDone of seat %d out of the planning, or twice", e.Seat)
		}
	case PlanningEnded:
		switch {
		case t.Phase != Planning:
			return errors.New("PlanningEnded out of the planning")
		case e.Reason == "time" && !e.At.Equal(t.PlanEnds):
			return fmt.Errorf("PlanningEnded on time at %s, the deadline is %s", e.At, t.PlanEnds)
		case e.Reason == "ready" && (slices.Contains(t.Done[:], false) || e.At.After(t.PlanEnds)):
			return errors.New("PlanningEnded by the four seats before they had all ended it")
		case e.Reason != "time" && e.Reason != "ready":
			return fmt.Errorf("PlanningEnded for %q", e.Reason)
		}
	case MovePlayed:
		if err := t.auditOn(e.Board, e.Seat, e.Stamp, local(e)); err != nil {
			return err
		}
		s := t.Boards[e.Board]
		if want := passes(&s, e.UCI); e.Passes != want {
			return fmt.Errorf("MovePlayed %s passes %q to the partner, the capture gives %q", e.UCI, e.Passes, want)
		}
	case CardPlayed:
		return t.auditOn(e.Board, e.Seat, e.Stamp, local(e))
	case CardAnnulled:
		return t.auditOn(e.Board, e.Seat, clock.Stamp{}, local(e))
	case ReactionPlayed:
		return t.auditOn(e.Board, e.Seat, clock.Stamp{At: e.At}, local(e))
	case ReactionPassed:
		// A pass is a player's action, checked against the other board's flag as a move
		// is; a window that lapsed is the engine's timeout, as a flag is.
		var st clock.Stamp
		if !e.TimedOut {
			st.At = e.At
		}
		return t.auditOn(e.Board, e.Seat, st, local(e))
	case ReactionWindowOpened:
		return t.auditOn(e.Board, e.Seat, clock.Stamp{}, local(e))
	case ReactionReadingEnded:
		return t.auditOn(e.Board, e.Seat, clock.Stamp{}, local(e))
	case CardResolved:
		return t.auditOn(e.Board, e.Seat, clock.Stamp{}, local(e))
	case clock.FlagFell:
		if e.Seat < 0 || e.Seat >= DoublesSeats {
			return fmt.Errorf("FlagFell of seat %d", e.Seat)
		}
		return Rules{}.Audit(t.Boards[boardOf(e.Seat)], local(e))
	case CardDrawn:
		switch {
		case e.Seat < 0 || e.Seat >= DoublesSeats:
			return fmt.Errorf("CardDrawn by seat %d", e.Seat)
		case !t.Boards[boardOf(e.Seat)].handEmpty(localOf(e.Seat)):
			return fmt.Errorf("CardDrawn by seat %d, whose hand is not empty", e.Seat)
		case len(t.Deck) == 0 || e.Card != t.Deck[0]:
			return fmt.Errorf("CardDrawn %q is not the top of the table's deck", e.Card)
		}
	case DeckReshuffled:
		want, ok := t.reshuffle()
		if len(t.Deck) != 0 || !ok || e.Count != want.Count || !slices.Equal(e.Cards, want.Cards) {
			return fmt.Errorf("DeckReshuffled %d is not the discard shuffled from the key into an empty deck", e.Count)
		}
	case Signalled:
		covert := !older(t.version, "magic-2026.4")
		switch {
		case e.Seat < 0 || e.Seat >= DoublesSeats || !knownSignal(e.Signal):
			return fmt.Errorf("Signalled %q by seat %d", e.Signal, e.Seat)
		case e.Hidden != covert:
			// The stream it is stored in must agree with Hidden (replay's sight check).
			return fmt.Errorf("Signalled by seat %d is covert %v; under %s a signal's covert is %v", e.Seat, e.Hidden, t.version, covert)
		}
	case Conceded:
		// The match's audit checks that it comes right after the seat's resignation, as
		// Withdraw gives it.
		if w := t.withdraw(e.Seat); len(w) == 0 {
			return fmt.Errorf("Conceded by seat %d: under %s a resignation concedes nothing here", e.Seat, t.version)
		}
	}
	return nil
}

// auditOn checks a board's action recorded by seat on board b, with its stamp: the seat
// plays there, the other board's flag had not fallen when it came, and the one-board
// audit of the event, local.
func (t Table) auditOn(b, seat int, st clock.Stamp, e game.Event) error {
	if b < 0 || b > 1 || seat < 0 || seat >= DoublesSeats || boardOf(seat) != b {
		return fmt.Errorf("%s of seat %d on board %d", e.EventType(), seat, b)
	}
	if o := t.Boards[1-b]; !st.At.IsZero() && o.lateAt(st.At) {
		return fmt.Errorf("%s at %s, after the flag of board %s had fallen", e.EventType(), st.At, boardName(1-b))
	}
	return Rules{}.Audit(t.Boards[b], e)
}
