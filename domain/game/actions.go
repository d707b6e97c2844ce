package game

import (
	"fmt"
	"time"
)

// The actions below are the ones the engine submits itself (Timeout) or that more than one
// game takes in the same sense (a move in the game's notation, a choice's answer, a draw
// claimed on demand). An action only one game takes (Sovereign Chess's defection) belongs
// to that game's package; one that several games share but the engine does not (playing a
// card) to a kit such as domain/cards.

// Action is one seat's request to the rules.
type Action struct {
	Seat int       // who acts; System for the engine's own actions (timeouts)
	At   time.Time // the server's receive time
	Do   any       // the game's action value, e.g. Move
}

// System is the seat of actions that the engine submits on its own, such as timeouts.
const System = -1

// Move is the action of moving a piece, shared by every board game: the notation is the
// game's own (UCI or SAN in chess).
type Move struct {
	Notation string
}

// ClaimDraw is the action of claiming a draw that the rules grant on demand (in chess:
// threefold repetition, the fifty-move rule).
type ClaimDraw struct{}

// Timeout is submitted by the engine's scheduler when Status's deadline has passed.
type Timeout struct {
	Deadline time.Time
}

// Choose answers a choice the rules put to a seat, by the option's name (Sovereign
// Chess's opening: "keep" or "refuse" the first move).
type Choose struct {
	Option string
}

// Aside is implemented by an action that is never a turn: a seated player may send it
// at any time, its turn or not (a team signal of Ajedrez Mágico's doubles). The match
// passes it to the game whatever Status.ToAct says, and the game alone decides whether
// it is taken; it answers no draw offer. An action is Aside by its kind, never by the
// moment it comes, so that no seat learns from the match layer whether it was its turn.
type Aside interface {
	Aside()
}

// IsAside reports whether do is an action of a kind any seated player may send at any
// time (Aside).
func IsAside(do any) bool {
	_, ok := do.(Aside)
	return ok
}

// Named is implemented by an action value, so that a game that does not take it can say
// what it was. ActionName completes "Chess has no ...": "cards", "defections". Each game
// names the actions it owns; an action without a name is named by its Go type.
type Named interface {
	ActionName() string
}

// ActionName implements Named.
func (Move) ActionName() string { return "moves" }

// ActionName implements Named.
func (Choose) ActionName() string { return "choice to make here" }

// ActionName implements Named.
func (ClaimDraw) ActionName() string { return "draw to claim on demand" }

// ActionName implements Named.
func (Timeout) ActionName() string { return "timeouts" }

// Unsupported is the rejection of an action a game does not take, named as a player
// would say it, with what the game takes instead.
func Unsupported(gameName string, do any, takes string) *Error {
	name := fmt.Sprintf("action %T", do)
	if n, ok := do.(Named); ok {
		name = n.ActionName()
	}
	return Reject(BadInput, "%s has no %s: it takes %s", gameName, name, takes)
}
