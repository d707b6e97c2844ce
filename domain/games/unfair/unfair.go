// Package unfair is UnfairChess as an Arbiter game: classic chess (domain/chess) where
// each seat also holds four cards from its own deck, shuffled from the match's seed, that
// move, summon, shield, poison, blow up and bind pieces (the 58 cards, with their French
// and English texts, are in catalog.json). Statuses, restrictions, turns and each group
// of cards have a file of their own. The facts an action sets off (draws, discards,
// statuses, suspensions) are events of their own, recorded right after it: Evolve derives
// them again from the action and Audit checks each one. docs/games/unfairchess.md says
// what the server enforces, and every choice made where the rules are silent.
package unfair

import (
	"fmt"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/cardchess"
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// ID is the game's name in the API.
const ID = "UNFAIR_CHESS"

// RulesVersion changes whenever a rule of this package or a card of catalog.json changes.
// Matches recorded under an older version are played by the rules of that version
// (Under, versions.go).
const RulesVersion = "unfair-2026.4"

// Rules is UnfairChess: under the current rules version, or under an older one for the
// matches recorded then (Under).
type Rules struct {
	pinned string // an older rules version (a key of variants); "" is RulesVersion
}

var (
	_ game.Rules    = Rules{}
	_ cards.Carded  = Rules{}
	_ game.Boarded  = Rules{}
	_ game.Recorded = Rules{}
	_ game.Turned   = Rules{}
	_ game.Auditor  = Rules{}
	_ game.Sighted  = Rules{}
	_ game.Settling = Rules{}
)

// Info names the game.
func (r Rules) Info() game.Info {
	v := RulesVersion
	if r.pinned != "" {
		v = r.pinned
	}
	return game.Info{ID: ID, Name: "UnfairChess", RulesVersion: v}
}

// Plan: two seats, each its own team. UnfairChess takes one option, clock.
func (Rules) Plan(opts game.Options) (game.Plan, error) {
	for k := range opts {
		if k != clock.Option {
			return game.Plan{}, game.Reject(game.BadInput, "UnfairChess has no option %q (known: clock)", k)
		}
	}
	if _, err := clock.FromOptions(opts); err != nil {
		return game.Plan{}, err
	}
	return game.Plan{Seats: 2, Teams: []int{0, 1}}, nil
}

// Setup places the pieces, shuffles both decks from the seed and deals four cards to each
// seat: GameStarted, then for each seat its DeckShuffled (server-only) and its CardDrawn.
func (r Rules) Setup(g game.Setup) ([]game.Emitted, error) {
	if _, err := r.Plan(g.Options); err != nil {
		return nil, err
	}
	start := GameStarted{FEN: chess.StartFEN, HandSize: HandSize, DeckSize: len(deck)}
	if c, _ := clock.FromOptions(g.Options); c != nil {
		start.Clock, start.At = c, g.At
	}
	out := game.PublicEvents(start)
	st := r.Evolve(nil, start)
	for seat := range 2 {
		shuffled := DeckShuffled{Seat: seat, Cards: shuffle(g.Fairness, g.Seed, seat)}
		s := r.Evolve(st, shuffled).(State)
		out = append(out, game.Emitted{Event: shuffled, Visibility: r.Sight(shuffled)})
		out = append(out, s.pending...)
		s.pending = nil
		st = s
	}
	return out, nil
}

// Decide checks a move (game.Move, UCI or SAN) or a card (cards.PlayCard) of the seat to
// act, and with a clock the engine's timeout (game.Timeout): an action or a timeout that
// finds the seat's deadline passed is its flag falling (clock.FlagFell).
func (Rules) Decide(st game.State, a game.Action) ([]game.Emitted, error) {
	s, ok := st.(State)
	if !ok || !s.started {
		return nil, game.Reject(game.Conflict, "the game has not started")
	}
	_, timeout := a.Do.(game.Timeout)
	switch a.Do.(type) {
	case game.Move, cards.PlayCard:
	default:
		if !timeout || !s.Clock.On {
			return nil, game.Unsupported("UnfairChess", a.Do, "a move or a card")
		}
	}
	if _, over := s.outcome(); over {
		return nil, game.Reject(game.IllegalMove, "the game is over")
	}
	seat := s.toAct()
	if a.Seat != seat && !timeout {
		return nil, game.Reject(game.NotYourTurn, "it is seat %d's turn", seat)
	}
	if fell, err := s.Clock.Flag(seat, a); err != nil {
		return nil, err
	} else if fell {
		return game.PublicEvents(s.Clock.Fell(seat)), nil
	}
	var evs []game.Emitted
	var after State
	var err error
	switch do := a.Do.(type) {
	case game.Move:
		evs, after, err = s.decideMove(do.Notation)
	case cards.PlayCard:
		evs, after, err = s.decideCard(a.Seat, do)
	}
	if err != nil {
		return nil, err
	}
	return s.stamped(evs, after, a.At), nil
}

// stamped puts the clock's stamp on the actions among evs, which the seat to act plays at
// at and which leave the state after (cardchess.Stamp).
func (s State) stamped(evs []game.Emitted, after State, at time.Time) []game.Emitted {
	return cardchess.Stamp(evs, s.Clock, s.toAct(), at, after.toAct() != s.toAct())
}

// decideMove is the seat to act playing notation: the events, and the state they give.
func (s State) decideMove(notation string) ([]game.Emitted, State, error) {
	m, err := s.parseMove(notation)
	if err != nil {
		return nil, s, err
	}
	id, _ := s.Pos.PieceID(m.From())
	played := MovePlayed{Seat: s.toAct(), UCI: m.UCI(), Piece: int(id)}
	f := s.fork()
	played.SAN = f.move(m)
	played.FEN = f.Pos.FEN()
	return append(game.PublicEvents(played), f.facts...), *f.State, nil
}

// parseMove reads a move of the seat to act, legal under this turn's restrictions.
func (s *State) parseMove(notation string) (chess.Move, error) {
	m, err := cardchess.ParseMove(s.Pos, notation, s.restrictions(), "is barred this turn (a sleeping or shackled piece, a barred square, a shield or a truce)")
	if err != nil {
		return 0, err
	}
	if why := s.refusal(m); why != "" {
		return 0, game.Reject(game.IllegalMove, "%s: %s", m.UCI(), why)
	}
	return m, nil
}

// decideCard is seat playing a card: the events (with the move that comes with it, if
// any) and the state they give.
func (s State) decideCard(seat int, pc cards.PlayCard) ([]game.Emitted, State, error) {
	if s.Turn.Card != "" {
		return nil, s, game.Reject(game.IllegalMove, "you have already played a card this turn (%s): play your move", s.Turn.Card)
	}
	hand := s.Sides[seat].Hand
	slot, err := pc.SlotIn(hand[:], "UnfairChess", func(id string) bool { return defs[id] != nil })
	if err != nil {
		return nil, s, err
	}
	d := defs[hand[slot]]
	if err := d.checkTargets(pc.Targets); err != nil {
		return nil, s, err
	}
	if pc.Move != "" && d.Cost != AddsToMove {
		return nil, s, game.Reject(game.BadInput, "%s replaces the move: no move goes with it", d.ID)
	}
	lifted, legal, why := s.options(seat, slot)
	if len(legal) == 0 {
		return nil, s, game.Reject(game.IllegalMove, "%s cannot be played now: %s", d.ID, why)
	}
	p, ok := d.find(legal, pc.Targets)
	if !ok {
		why = "it is not one of the choices listed with your hand"
		if all, _ := d.plays(&lifted, seat); len(all) > 0 {
			if q, found := d.find(all, pc.Targets); found {
				why = lifted.try(seat, d, q)
			}
		}
		return nil, s, game.Reject(game.IllegalMove, "%s cannot be aimed at %v: %s", d.ID, pc.Targets, why)
	}
	f := lifted.fork()
	f.playCard(seat, d, p)
	played := CardPlayed{Seat: seat, Card: d.ID, Slot: slot, Targets: p.targets, FEN: f.Pos.FEN()}
	out, after := append(game.PublicEvents(played), f.facts...), *f.State
	if pc.Move != "" {
		more, next, err := after.decideMove(pc.Move)
		if err != nil {
			return nil, s, err
		}
		out, after = append(out, more...), next
	}
	return out, after, nil
}

// Evolve applies an event. A move or a card is played again from the state before it,
// with everything it sets off; the events of those facts then only check in: each takes
// its place off the list of facts pending (a stored stream replays the same way, and
// Audit compares each fact with what the rules derived). Between an action and its last
// fact, the state is already the one after them all.
func (r Rules) Evolve(st game.State, e game.Event) game.State {
	if e, ok := e.(GameStarted); ok {
		pos, err := chess.ParseFEN(e.FEN)
		if err != nil {
			panic(fmt.Sprintf("unfair: a stored GameStarted has a bad FEN: %v", err))
		}
		return State{Pos: pos, started: true, Clock: clock.Start(e.Clock, 2, e.At), v: variants[r.pinned]}
	}
	s, ok := st.(State)
	if !ok {
		return st
	}
	switch e := e.(type) {
	case DeckShuffled:
		f := s.fork()
		f.Sides[e.Seat].Deck = slices.Clip(e.Cards)
		f.refill(e.Seat)
		return f.settle()
	case MovePlayed:
		m, err := s.Pos.ParseMoveWith(e.UCI, s.restrictions())
		if err != nil {
			panic(fmt.Sprintf("unfair: a stored move %s does not replay: %v", e.UCI, err))
		}
		f := s.fork()
		f.move(m)
		f.clockTurn(e.Seat, e.Stamp)
		return f.settle()
	case CardPlayed:
		d := defs[e.Card]
		if d == nil || e.Slot < 0 || e.Slot >= HandSize || s.Sides[e.Seat].Hand[e.Slot] != e.Card {
			panic(fmt.Sprintf("unfair: a stored card %s in slot %d is not in seat %d's hand", e.Card, e.Slot, e.Seat))
		}
		f := s.fork()
		f.leaveHand(e.Seat, e.Slot)
		all, _ := d.plays(f.State, e.Seat)
		p, ok := d.find(all, e.Targets)
		if !ok {
			panic(fmt.Sprintf("unfair: a stored card %s has targets %v the rules do not know", e.Card, e.Targets))
		}
		f.playCard(e.Seat, d, p)
		f.clockTurn(e.Seat, e.Stamp)
		return f.settle()
	case clock.FlagFell:
		s.Flag = &e
		return s
	}
	if len(s.pending) > 0 {
		s.pending = s.pending[1:]
	}
	return s
}

// clockTurn stops seat's clock as st records, when its turn has ended.
func (f *fold) clockTurn(seat int, st clock.Stamp) {
	if f.toAct() != seat {
		f.Clock = f.Clock.Ended(seat, st)
	}
}

// settle is the state after a fold, with its facts pending until their events are folded.
func (f *fold) settle() State {
	s := *f.State
	s.pending = f.facts
	return s
}

// Clock is the clock of the state (clock.Timed); the zero Clock without a time control.
func (Rules) Clock(st game.State) clock.Clock {
	s, _ := st.(State)
	return s.Clock
}

// Status: whose turn, the phase ("play", "check", "move-after-card"), the outcome.
func (Rules) Status(st game.State) game.Status {
	s, ok := st.(State)
	if !ok || !s.started {
		return game.Status{}
	}
	if len(s.pending) == 0 {
		if o, over := s.outcome(); over {
			return game.Status{Phase: "over", Over: true, Outcome: o}
		}
	}
	phase := "play"
	switch {
	case s.Turn.MovesDue > 0:
		phase = "move-after-card"
	case s.Pos.InCheck():
		phase = "check"
	}
	return game.Status{ToAct: []int{s.toAct()}, Phase: phase, Deadline: s.Clock.Deadline(s.toAct())}
}

// Events decodes UnfairChess events.
func (Rules) Events() *game.Codec { return codec }
