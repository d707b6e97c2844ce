package game

import "time"

// Viewing is what a game may offer so that Arbiter can show its state. Every method is
// optional: a game implements the interfaces that fit it.

// Board is a board as the API shows it. Fields that a game has no use for stay empty.
type Board struct {
	FEN        string   // the position in the game's own notation
	InCheck    bool     // the side to act is in check
	LegalMoves []string // the legal moves of the side to act, in the notation of Move
}

// Boarded games show a board.
type Boarded interface {
	Board(st State) Board
}

// Recorded games list the moves played so far, in their usual notation.
type Recorded interface {
	MoveList(st State) []string
}

// Shadowed is implemented by a private event that others may still learn something of:
// Shadow returns what a viewer who may not see the event sees instead (for example a
// CardDrawn without its card). An event without it is shown to such a viewer as its type
// alone.
type Shadowed interface {
	Shadow() Event
}

// Record is what a game's export needs from the match around it.
type Record struct {
	MatchID string
	Game    string    // the game's name, e.g. "Chess"
	Players []string  // by seat; "" for a free seat
	Started time.Time // when the match was created
	Over    bool
	Outcome Outcome // when Over
}

// Exporter games write a match in their standard interchange format (PGN for chess). The
// export is shown to every viewer: a game with hidden information exports only what is
// public until the match is over.
type Exporter interface {
	Export(st State, r Record) (string, error)
}
