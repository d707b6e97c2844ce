package game

import (
	"slices"
	"time"
)

// Viewing is what a game may offer so that Arbiter can show its state. Every method is
// optional: a game implements the interfaces that fit it.

// Board is a board as the API shows it. Fields that a game has no use for stay empty.
type Board struct {
	FEN        string   // the position in the game's own notation
	InCheck    bool     // the side to act is in check
	LegalMoves []string // the legal moves of the side to act, in the notation of Move

	Marks       []Mark         // statuses on pieces, blocked squares...
	Colours     []SquareColour // squares of colour (Sovereign Chess)
	Armies      []Army         // each army's owner and controller (Sovereign Chess)
	Sides       []Side         // the sides the notation numbers, and their seats (Sovereign Chess)
	Checked     []int          // the seats whose king is in check (several in Royale)
	Interregnum []int          // the seats that have lost their king and may crown one
}

// Mark is something public on a square: a status on the piece there ("poison", "sleep",
// "shield", "dynamite"), a blocked square ("blocked"), a square forbidden to a seat.
type Mark struct {
	Square string
	Kind   string
	Seat   int    // the seat the mark concerns (who placed it, or who is barred); -1 for none
	Note   string // more detail, e.g. "until seat 1's turn ends"
}

// SquareColour is a square that has a colour of its own.
type SquareColour struct {
	Square string
	Colour string
}

// Army is one colour's pieces: the seat that owns it (its king's colour) and the seat
// that controls it now. -1 is nobody.
type Army struct {
	Colour     string
	Owner      int
	Controller int
}

// Side is a side of a game whose notation numbers sides rather than seats (Sovereign
// Chess: side 1 plays White's first move, and after the opening choice it may be any
// seat): its number in the notation, the seat that plays it, and the colour it owns (""
// once it has left play).
type Side struct {
	Side   int
	Seat   int
	Colour string
}

// Boarded games show a board as it truly is, to tools that see every secret (replay,
// digests). Clients never see it: they see a View, through the projections' redaction.
type Boarded interface {
	Board(st State) Board
}

// Viewpoint is who looks at a match, as a game is told it: the seats the viewer holds
// and their teams (none for a spectator), and whether the match is over, when every
// secret of it is revealed. Only the projections' redaction builds one.
type Viewpoint struct {
	Seats []int
	Teams []int
	Over  bool
}

// Holds reports whether the viewpoint holds seat n.
func (p Viewpoint) Holds(n int) bool { return slices.Contains(p.Seats, n) }

// InTeam reports whether the viewpoint holds a seat of team t.
func (p Viewpoint) InTeam(t int) bool { return slices.Contains(p.Teams, t) }

// Viewed is implemented by every game that shows its state to clients. View returns the
// state as p may see it, in the game's own view type: a plain exported struct, which the
// API shows as the game's state type. It holds nothing p may not see (an opponent's hand,
// a trap of the other team, an invisible fighter), and everything it lists as legal is
// computed from what p sees alone. Decide takes every play a view lists: a play that
// meets a hidden fact (a move onto an invisible fighter's square, a trap on the way)
// fails in the game, as events, never as a rejection, which would betray the fact. Its
// unexported fields, if any, are as public as the rest (a conformance suite reads them).
// View returns nil before the game is set up.
type Viewed interface {
	View(st State, p Viewpoint) View
}

// View is a game's state as one viewpoint sees it.
type View interface {
	// Plays lists what the viewpoint's own seats may do now, nothing for a spectator or
	// once the match is over.
	Plays() []Play
}

// Play is one action a seat may take now, as a view lists it for a player (the bot).
type Play struct {
	Seat int
	Do   any    // the action as Decide takes it (Action.Do): a Move, a card play, a Choose...
	Kind string // what a player calls it: KindMove, KindCard, KindChoice, or a game's own word
	// Of groups alternatives: the plays sharing a non-empty Of are one play on each of its
	// possible targets (one card, each way it may be aimed), of which a player takes one.
	Of string
	// Score is the game's hint of how good the play is for a player in a hurry, higher
	// first; 0 says nothing. The chess-like games score mates and captures (domain/tactic).
	Score int
}

// Kinds of plays shared by several games.
const (
	KindMove   = "move"   // a move in the game's notation
	KindCard   = "card"   // a card from the hand
	KindChoice = "choice" // an answer to a choice the rules put (Status.Choices)
)

// The API's Match fields from before per-game state types (board, moves) read a view
// through BoardView while they last (cards.View for hand and cards).

// BoardView is implemented by the view of a game with a board.
type BoardView interface {
	ShownBoard() Board
	ShownMoves() []string // the record, in the game's usual notation
}

// Recorded games list the moves played so far, in their usual notation.
type Recorded interface {
	MoveList(st State) []string
}

// Turn is one turn of a game's record: the side that played it and what it played, in
// the notation of MoveList (an UnfairChess turn may be a card and its move).
type Turn struct {
	Side  int // in the order a move number covers the sides: 0 plays first (White)
	Plays []string
}

// Turned is implemented by a game whose record reads by turns and sides, as a chess move
// number covers White's turn and Black's. Turns is the record grouped by turns, with the
// number of the first (a chess game set up from a position may start at move 12);
// SideOf is the side a seat plays, by index in that order and by name ("White"), ok
// false when the game has no two sides a score could name (Sovereign Chess Royale).
type Turned interface {
	Turns(st State) (first int, turns []Turn)
	SideOf(st State, seat int) (side int, name string, ok bool)
}

// Opener is implemented by a game that says itself when every seat of a match has made
// its first move, where counting its record's turns cannot: in Ajedrez Mágico's doubles
// two boards play at once, and the turns of one board would open the match for a seat of
// the other that never moved. The match layer asks it before Turned and Recorded
// (domain/match/abort.go).
type Opener interface {
	Opened(st State, seats int) bool
}

// Alternate makes a turn of each play of a two-sided game, the sides taking turns from
// side first.
func Alternate(first int, plays []string) []Turn {
	turns := make([]Turn, len(plays))
	for i, p := range plays {
		turns[i] = Turn{Side: (first + i) % 2, Plays: []string{p}}
	}
	return turns
}

// Shadowed is implemented by a private event that others may still learn something of:
// Shadow returns what a viewer who may not see the event sees instead (for example a
// CardDrawn without its card). An event without it is shown to such a viewer as its type
// alone. A shadow of another type than its event is shown under its own type, in the
// event's place: a game whose secret would be betrayed by its event's type alone (a
// Solwaris trap laid) shows one neutral type for all of them.
type Shadowed interface {
	Shadow() Event
}

// Covert is implemented by an event whose very existence is a secret of the seats or
// the team that may see it (a Solwaris trap laid, and the cast that lays it): a shadow
// would still tell the others that something happened, and when. The engine stores a
// covert event in its team's hidden stream (matchstream.Hidden), never in the match's
// public stream, so that the public stream's versions, hash chain, receipts and exports
// carry nothing of it; the match is folded from all its streams in store order. A covert
// event has team visibility, and a decision is either wholly covert (one team's) or
// wholly not: the engine refuses a mix, which it could not append atomically.
type Covert interface {
	Covert() bool
}

// IsCovert reports whether e is a covert event.
func IsCovert(e Event) bool {
	c, ok := e.(Covert)
	return ok && c.Covert()
}

// Covering is implemented by rules whose matches may hold covert events, when Covering
// says so of a match's plan: the engine, the read side and replay then read a hidden
// stream per team beside the match's own. It answers per match, since a game may have
// covert events in one form of play alone (a team's, in a match of teams). Other matches
// are read from their own stream alone, as before: a game whose events became covert in a
// new rules version keeps its older versions' matches so (their public positions shown as
// they were).
type Covering interface {
	Covering(p Plan) bool
}

// Record is what a game's export needs from the match around it.
type Record struct {
	MatchID string
	Game    string    // the game's name, e.g. "Chess"
	Players []string  // by seat; "" for a free seat
	Started time.Time // when the match was created
	Over    bool
	Outcome Outcome // when Over
	// Void says the match ended with no result at all (aborted before every seat moved,
	// or cancelled before it started): an export must not read its Outcome as a draw.
	Void bool
}

// Exporter games write a match in their standard interchange format (PGN for chess). The
// export is shown to every viewer: a game with hidden information exports only what is
// public until the match is over.
type Exporter interface {
	Export(st State, r Record) (string, error)
}

// Settling is implemented by a game whose state runs ahead of its stream within one
// command: Evolve of an action derives the facts it sets off (draws, statuses), which are
// recorded as the events right after it. Settled is false while some of those are still
// to come, so a view streamed event by event (matchUpdates) waits for a settled state
// instead of showing a version whose state already holds later events.
type Settling interface {
	Settled(st State) bool
}
