// Package game is the contract between Arbiter's engine and the rules of each game. A
// game is a pure decider: Setup deals the opening events of a match from its seats,
// options and seed; Decide turns one seat's action into events or a rejection; Evolve
// folds an event into the state; Status says who may act next, until when, and whether the
// match is over; View shows the state as one viewer may see it. No rules package does
// I/O, reads a clock or draws random numbers of its own: time arrives in each Action,
// randomness in the match seed, and every random outcome is recorded in an event. The
// engine, the API and the store know games only through this package and its Registry.
package game

import (
	"encoding/json"
	"time"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// Rules is what a game provides. Implementations are stateless values: all match state
// lives in State.
type Rules interface {
	// Info names the game and the version of its rules (pinned in each match's first event).
	Info() Info
	// Plan checks the options of a new match and says how many seats it has and their teams.
	Plan(opts Options) (Plan, error)
	// Setup returns the events that open play once every seat is taken. They are the
	// first game events of the match: the starting position, the shuffled decks...
	Setup(s Setup) ([]Emitted, error)
	// Decide validates one action and says what happened. It never changes st.
	// A rejection is an *Error; nothing is recorded.
	Decide(st State, a Action) ([]Emitted, error)
	// Evolve applies one event of this game to the state and returns the new state; it may
	// reuse st's memory. It never fails on an event Decide or Setup produced.
	Evolve(st State, e Event) State
	// Status tells who may act now, the phase, a deadline, and the outcome once over.
	Status(st State) Status
	// Events decodes stored payloads back into this game's events, upcasting old schemas.
	Events() *Codec
}

// Info describes a game.
type Info struct {
	ID           string // stable API name, e.g. "CHESS"
	Name         string // a person's name for it, e.g. "Chess"
	RulesVersion string // changes whenever a rule changes; replays use the version a match pinned
}

// Options are a match's game options, as the API received them (mode, time control...).
type Options map[string]string

// Plan is the seating of a match.
type Plan struct {
	Seats int   // how many seats, numbered from 0; seat 0 acts first unless the rules say otherwise
	Teams []int // Teams[seat] is the seat's team; seats of one team share hidden information
}

// Setup is what a game needs to deal the opening of a match.
type Setup struct {
	Plan    Plan
	Options Options
	Seed    []byte // the match's secret seed: derive every shuffle from it, deterministically
	// Fairness is the procedure to derive them by: fairness.V1 (draw every outcome
	// through package fairness from Seed, the match seed), or Legacy for a match recorded
	// before it (the game's own derivation of then, from the server's seed).
	Fairness fairness.Version
	At       time.Time // when play starts
	// Purses is, by seat, the most a Charging game may charge the seat (its funds beyond
	// the match's stake); nil in a match that moves no coins.
	Purses []int64
	// Stake is the coins each seat stakes on the result (the match's stake option, which
	// Options do not carry); zero in a match without a stake.
	Stake int64
}

// State is a game's own state value, opaque to the engine.
type State any

// Status is the situation after the last event.
type Status struct {
	ToAct    []int     // the seats that may act now (usually one; several in an auction)
	Phase    string    // "play", "placement", "bidding"...
	Deadline time.Time // zero when the turn is untimed; past it the engine submits Timeout
	// Out lists, while the game goes on, the seats out of play, in ascending order: those
	// the rules took out by their own decision (Sovereign Chess Royale: a seat whose flag
	// fell), and those they took out when asked (game.Withdrawing), if the game likes.
	// The match counts them out as it counts the seats that resigned: they no longer
	// offer, accept or block draws, nor make its lifecycle requests.
	Out []int
	// Choices are the options of a choice the rules put to the seats to act (game.Choose),
	// when the phase is one: Sovereign Chess's opening offers "keep" and "refuse". Empty
	// otherwise.
	Choices []string
	Over    bool
	Outcome Outcome
}

// Outcome is how a game ended.
type Outcome struct {
	Winners []int  // seats of the winning side; empty for a draw
	Reason  string // "checkmate", "stalemate", "fivefold repetition"...
}

// Event is one fact of a game. Its type name is stable: it is stored with the event.
type Event interface {
	EventType() string
}

// Emitted is an event together with who may see it.
type Emitted struct {
	Event      Event
	Visibility visibility.Visibility
}

// PublicEvents wraps events seen by everyone.
func PublicEvents(es ...Event) []Emitted {
	out := make([]Emitted, len(es))
	for i, e := range es {
		out[i] = Emitted{Event: e}
	}
	return out
}

// Encode returns an event's stored payload.
func Encode(e Event) ([]byte, error) { return AppendEncode(nil, e) }

// AppendEncode appends an event's stored payload to b: the engine encodes the events of
// each command into memory it reuses.
func AppendEncode(b []byte, e Event) ([]byte, error) {
	if fe, ok := e.(FastEncoder); ok {
		if out, ok := fe.AppendFast(b); ok {
			return out, nil
		}
	}
	payload, err := json.Marshal(e)
	if err != nil {
		return b, err
	}
	if b == nil {
		return payload, nil
	}
	return append(b, payload...), nil
}

// Withdrawing is implemented by a game that goes on when a seat resigns while several
// teams are left (Sovereign Chess Royale): Withdraw returns the events that take the seat
// out of play at at, so that the rules stop giving it turns. at is the time of the
// command that resigned (a forfeit's included), as an Action's At, for a game whose clock
// must know when the seat left. The match records the resignation first; if the withdrawal ends the game, the
// match ends with the game's outcome.
type Withdrawing interface {
	Withdraw(st State, seat int, at time.Time) []Emitted
}

// Random is implemented by a game whose events record random outcomes (a deck's order, a
// deal, a roll). Drawn names what e's outcomes were drawn for: the labels of the streams
// they came from (docs/fairness.md), nil for an event that records none. The fairness
// audit (`arbiter verify --fairness`) names them when it draws the outcomes again.
type Random interface {
	Drawn(e Event) []string
}

// Sighted is implemented by a game that can tell, from an event alone, who may see it.
// The verifier checks every stored game event's visibility against it: a secret stored
// public is a leak that neither the hash chain nor the rules' audit would catch.
type Sighted interface {
	Sight(e Event) visibility.Visibility
}
