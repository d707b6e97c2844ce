package magicchess

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/domain/cardchess"
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

var _ game.Auditor = Rules{}

// Audit implements game.Auditor: each recorded event is what the rules record in the
// state before it. A move or a card is decided again from that state and its record
// compared field by field (a card's slot, targets, result, position and expired cards);
// an annulment must follow the card the rules annul, with its reason and position; the
// deal must hold the classic deck and give each seat the cards dealt to it in turn; the
// planning ends at its deadline or when both seats have ended it. With a clock, each
// action's stamp is the clock's, and a flag falls only at or after the deadline.
func (r Rules) Audit(before game.State, e game.Event) error {
	if t, ok := before.(Table); ok {
		return t.audit(r, e)
	}
	if g, ok := e.(GameStarted); ok && g.Boards != 0 {
		return r.auditDoublesStart(before, g)
	}
	s, _ := before.(State)
	if g, ok := e.(GameStarted); ok {
		switch {
		case s.started:
			return errors.New("GameStarted after the game had started")
		case g.FEN != chess.StartFEN || g.Mode != Classic && g.Mode != Advanced || g.HandSize < 1 || g.HandSize > MaxHand || g.DeckSize != len(deckOf(g.Mode)):
			return fmt.Errorf("GameStarted %+v: a game starts from %s with up to %d cards each from %d (classic) or %d (advanced)", g, chess.StartFEN, MaxHand, len(deckOf(Classic)), len(deckOf(Advanced)))
		}
		return auditReaction(g)
	}
	if !s.started {
		return fmt.Errorf("%s before GameStarted", e.EventType())
	}
	switch e := e.(type) {
	case DeckShuffled:
		got, want := slices.Sorted(slices.Values(e.Cards)), slices.Sorted(slices.Values(deckOf(s.Mode)))
		if s.Deck != nil || !slices.Equal(got, want) {
			return fmt.Errorf("DeckShuffled does not hold the %s deck, or comes twice", s.Mode)
		}
	case CardsDealt:
		if e.Seat < 0 || e.Seat > 1 {
			return fmt.Errorf("CardsDealt for seat %d", e.Seat)
		}
		var want []string
		for i := range s.HandSize {
			if j := 2*i + e.Seat; j < len(s.shuffled) {
				want = append(want, s.shuffled[j])
			}
		}
		if s.Hands[e.Seat] != nil || e.Count != len(e.Cards) || !slices.Equal(e.Cards, want) {
			return fmt.Errorf("CardsDealt for seat %d: %v, the deck deals %v", e.Seat, e.Cards, want)
		}
	case PlanningDone:
		if s.Phase != Planning || e.Seat < 0 || e.Seat > 1 || s.Done[e.Seat] {
			return fmt.Errorf("PlanningDone of seat %d out of the planning, or twice", e.Seat)
		}
	case PlanningEnded:
		switch {
		case s.Phase != Planning:
			return errors.New("PlanningEnded out of the planning")
		case e.Reason == "time" && !e.At.Equal(s.PlanEnds):
			return fmt.Errorf("PlanningEnded on time at %s, the deadline is %s", e.At, s.PlanEnds)
		case e.Reason == "ready" && (!s.Done[0] || !s.Done[1] || e.At.After(s.PlanEnds)):
			return errors.New("PlanningEnded by both seats before they had ended it")
		case e.Reason != "time" && e.Reason != "ready":
			return fmt.Errorf("PlanningEnded for %q", e.Reason)
		}
	case MovePlayed:
		if err := s.inPlay(e.Seat); err != nil {
			return fmt.Errorf("MovePlayed %s: %w", e.UCI, err)
		}
		evs, after, err := s.decideMove(e.UCI)
		if err != nil {
			return fmt.Errorf("MovePlayed %s: %w", e.UCI, err)
		}
		return s.same(e, evs[0].Event, e.Stamp, after)
	case CardPlayed:
		if err := s.inPlay(e.Seat); err != nil {
			return fmt.Errorf("CardPlayed %s: %w", e.Card, err)
		}
		if e.Slot < 0 || e.Slot >= len(s.Hands[e.Seat]) || s.Hands[e.Seat][e.Slot] != e.Card {
			return fmt.Errorf("CardPlayed %s: slot %d of seat %d's hand does not hold it", e.Card, e.Slot, e.Seat)
		}
		evs, after, err := s.decideCard(e.Seat, cards.PlayCard{Slot: e.Slot, Targets: e.Targets})
		if err != nil {
			return fmt.Errorf("CardPlayed %s: %w", e.Card, err)
		}
		return s.same(e, evs[0].Event, e.Stamp, after)
	case CardAnnulled:
		n := len(s.Record)
		if n == 0 || !strings.HasPrefix(s.Record[n-1], "["+e.Card) || !strings.HasSuffix(s.Record[n-1], " annulled") || e.FEN != s.Pos.FEN() || e.Reason == "" {
			return fmt.Errorf("CardAnnulled %s does not follow the annulled card", e.Card)
		}
	case clock.FlagFell:
		if s.Phase != Play || s.Window != nil {
			return errors.New("FlagFell in the planning or in a reaction window")
		}
		return s.Clock.AuditFlag(s.toAct(), e)
	case ReactionWindowOpened, ReactionReadingEnded, ReactionPassed, ReactionPlayed, CardResolved:
		return s.auditWindow(e)
	}
	return nil
}

// auditReaction checks the reaction windows' length a match starts with: none in the
// classic mode, whole seconds from 1 to 60 in the advanced mode.
func auditReaction(g GameStarted) error {
	if g.Mode == Classic && g.ReactionMs != 0 || g.Mode == Advanced && (g.ReactionMs < 1000 || g.ReactionMs > 60_000 || g.ReactionMs%1000 != 0) {
		return fmt.Errorf("GameStarted: reaction windows of %d ms in the %s mode", g.ReactionMs, g.Mode)
	}
	return nil
}

// inPlay checks that seat may act in play now.
func (s State) inPlay(seat int) error {
	if s.Phase != Play {
		return errors.New("in the planning phase")
	}
	if _, over := s.outcome(); over {
		return errors.New("after the game ended")
	}
	if s.Window != nil || s.opening != nil {
		return errors.New("while a reaction window is open, or due")
	}
	if seat != s.toAct() {
		return fmt.Errorf("seat %d recorded, but seat %d was to act", seat, s.toAct())
	}
	return nil
}

// same compares a recorded action with the rules' record of it, field by field, and its
// clock's stamp (which Decide adds after deciding) with the clock's.
func (s State) same(recorded, want game.Event, st clock.Stamp, after State) error {
	if err := cardchess.Differs(recorded, want, "at", "leftMs"); err != nil {
		return err
	}
	if err := s.Clock.Audit(s.toAct(), st, after.toAct() != s.toAct()); err != nil {
		return fmt.Errorf("%s: %w", want.EventType(), err)
	}
	return nil
}
