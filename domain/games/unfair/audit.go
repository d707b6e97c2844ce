package unfair

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/cardchess"
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Audit implements game.Auditor. An action is decided again from the state before it and
// its record compared field by field (a move's UCI, SAN, piece and FEN; a card's slot,
// targets and FEN); a fact it set off must be, to the byte, the next fact the rules
// derived from the action (so a draw is the deck's next card, a discard the card in that
// slot, a status the one the card put on). A shuffled deck must hold the deck's cards; that
// it is the seed's shuffle is checked by dealing the opening again (replay.Verify). With
// a clock, each action's time must come before its seat's deadline and the time left it
// records be what the clock gives (none on an action that does not end the turn), and a
// flag may fall only on the seat to act, at or after its deadline.
func (Rules) Audit(before game.State, e game.Event) error {
	s, _ := before.(State)
	if g, ok := e.(GameStarted); ok {
		switch {
		case s.started:
			return fmt.Errorf("GameStarted after the game had started")
		case g.FEN != chess.StartFEN || g.HandSize != HandSize || g.DeckSize != len(deck):
			return fmt.Errorf("GameStarted %+v: the game starts from %s with hands of %d and decks of %d", g, chess.StartFEN, HandSize, len(deck))
		}
		if err := clock.AuditStart(g.Clock, g.At); err != nil {
			return fmt.Errorf("GameStarted: %w", err)
		}
		return nil
	}
	if !s.started {
		return fmt.Errorf("%s before GameStarted", e.EventType())
	}
	switch e := e.(type) {
	case DeckShuffled, MovePlayed, CardPlayed, clock.FlagFell:
		if len(s.pending) > 0 {
			return fmt.Errorf("%s recorded where the rules expect %s %s", e.EventType(), s.pending[0].Event.EventType(), encoded(s.pending[0].Event))
		}
	default:
		if len(s.pending) == 0 {
			return fmt.Errorf("%s %s recorded, but nothing the last action set off is left", e.EventType(), encoded(e))
		}
		if got, want := encoded(e), encoded(s.pending[0].Event); !bytes.Equal(got, want) {
			return fmt.Errorf("%s %s recorded, the rules derive %s %s", e.EventType(), got, s.pending[0].Event.EventType(), want)
		}
		return nil
	}
	switch e := e.(type) {
	case DeckShuffled:
		return auditDeck(s, e)
	case MovePlayed:
		if _, over := s.outcome(); over {
			return fmt.Errorf("MovePlayed %s after the game ended", e.UCI)
		}
		if e.Seat != s.toAct() {
			return fmt.Errorf("MovePlayed %s: seat %d recorded, but seat %d was to act", e.UCI, e.Seat, s.toAct())
		}
		evs, after, err := s.decideMove(e.UCI)
		if err != nil {
			return fmt.Errorf("MovePlayed %s: %w", e.UCI, err)
		}
		if err := differs(e, evs[0].Event.(MovePlayed)); err != nil {
			return err
		}
		return s.auditStamp("MovePlayed "+e.UCI, e.Stamp, after)
	case CardPlayed:
		if _, over := s.outcome(); over {
			return fmt.Errorf("CardPlayed %s after the game ended", e.Card)
		}
		if e.Seat != s.toAct() {
			return fmt.Errorf("CardPlayed %s: seat %d recorded, but seat %d was to act", e.Card, e.Seat, s.toAct())
		}
		if e.Slot < 0 || e.Slot >= HandSize || s.Sides[e.Seat].Hand[e.Slot] != e.Card {
			return fmt.Errorf("CardPlayed %s: slot %d of seat %d's hand does not hold it", e.Card, e.Slot, e.Seat)
		}
		evs, after, err := s.decideCard(e.Seat, cards.PlayCard{Slot: e.Slot, Targets: e.Targets})
		if err != nil {
			return fmt.Errorf("CardPlayed %s: %w", e.Card, err)
		}
		if err := differs(e, evs[0].Event.(CardPlayed)); err != nil {
			return err
		}
		return s.auditStamp("CardPlayed "+e.Card, e.Stamp, after)
	case clock.FlagFell:
		if _, over := s.outcome(); over {
			return fmt.Errorf("FlagFell after the game ended")
		}
		return s.Clock.AuditFlag(s.toAct(), e)
	}
	return nil
}

// auditStamp checks the clock's stamp on an action of the seat to act, which leaves the
// state after.
func (s State) auditStamp(what string, st clock.Stamp, after State) error {
	if err := s.Clock.Audit(s.toAct(), st, after.toAct() != s.toAct()); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// auditDeck checks a shuffled deck: a seat's first, holding each card as many times as
// the catalog says.
func auditDeck(s State, e DeckShuffled) error {
	switch {
	case e.Seat < 0 || e.Seat > 1:
		return fmt.Errorf("DeckShuffled for seat %d", e.Seat)
	case s.Sides[e.Seat].Deck != nil || s.Sides[e.Seat].handCards() > 0:
		return fmt.Errorf("DeckShuffled for seat %d, whose deck was dealt already", e.Seat)
	}
	got, want := slices.Clone(e.Cards), slices.Clone(deck)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		return fmt.Errorf("DeckShuffled for seat %d does not hold the deck's %d cards", e.Seat, len(deck))
	}
	return nil
}

// differs compares a recorded action with the rules' record of it, naming the first
// field that differs (cardchess.Differs).
func differs(recorded, want game.Event) error { return cardchess.Differs(recorded, want) }

// encoded is an event's payload, for comparing records.
var encoded = cardchess.Encoded
