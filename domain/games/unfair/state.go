package unfair

import (
	"slices"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// HandSize is how many cards a hand holds when the deck allows.
const HandSize = 4

// The four statuses a card may put on a piece.
const (
	Poison   = "poison"
	Sleep    = "sleep"
	Shield   = "shield"
	Dynamite = "dynamite"
)

// State is an UnfairChess game. It is a value: every slice in it is shared between
// states and never written in place (a change makes a new slice, see with), so copying a
// State forks it. Evolve and Decide rely on that to never touch the state they are given.
type State struct {
	Pos      chess.Position
	Sides    [2]Side       // by seat
	Statuses []PieceStatus // in the order they were put on
	Bars     [2]Bars       // Bars[seat]: what binds seat during its coming turn
	Turn     Turn          // what the seat to act has done in this turn
	// Suspended is set when the restrictions binding the seat to act would leave it
	// without a legal move: it plays this turn without them.
	Suspended bool
	Record    []string        // the moves in SAN and the cards played, for MoveList
	Players   []int           // by Record entry: the seat that played it, for Turns
	Clock     clock.Clock     // zero without a time control
	Flag      *clock.FlagFell // the flag that fell, if any: its seat lost

	started bool
	v       variant // how the match's rules version differs from RulesVersion (versions.go)
	// pending are the facts that the last action set off, which Decide recorded right after
	// it: its Evolve already applied them, so their own events only check in (see Evolve).
	pending []game.Emitted
}

// Side is one seat's cards and losses.
type Side struct {
	Deck    []string         // top first
	Hand    [HandSize]string // by slot; "" is an empty slot
	Discard []string         // oldest first: cards played and cards discarded
	Played  []string         // the cards this seat played, in order
	Taken   []Taken          // its pieces that left the board, oldest first
}

// Taken is a piece that left the board, by capture, poison, explosion or card.
type Taken struct {
	Piece chess.PieceID
	Role  chess.Role // its role when it left (a promoted pawn left as a queen)
}

// PieceStatus is a status on one piece, named by the piece's ID so that it follows the
// piece wherever it goes. By is the seat whose card put it there.
type PieceStatus struct {
	Piece chess.PieceID
	Kind  string
	By    int
}

// Bars are the restrictions a board card puts on the opponent for their next turn.
type Bars struct {
	Card    string          // the card that placed them; "" for none
	Squares chess.Bitboard  // squares that may not be entered
	Pieces  []chess.PieceID // pieces that may not move (shackles)
	Pawns   bool            // no pawn may move (frost)
	Truce   bool            // nothing may be captured or destroyed
}

// Turn is the progress of the seat to act through its turn.
type Turn struct {
	Card string // the card played this turn; "" before one is
	// MovesDue is how many moves a card that adds to the move still owes: 1, or 2 for
	// the double move (its first move may not give check); 0 when the turn is open.
	MovesDue int
	// Brought is the pawn that the card of this turn brought beside the enemy pawn that
	// just advanced two squares (0 for none): it may not take it en passant, which only a
	// pawn the enemy pawn came beside may (« vient se coller au tien »; from unfair-2026.4).
	Brought chess.PieceID
}

// colour is the side a seat plays: seat 0 White, seat 1 Black.
func colour(seat int) chess.Color { return chess.Color(seat) }

// seatOf is the seat that plays c.
func seatOf(c chess.Color) int { return int(c) }

// toAct is the seat whose turn it is.
func (s *State) toAct() int { return seatOf(s.Pos.Turn()) }

// with returns xs followed by x in a new array, leaving xs and whatever shares it as they
// were: the one way State's slices grow.
func with[T any](xs []T, x ...T) []T { return append(xs[:len(xs):len(xs)], x...) }

// without returns xs less its i-th element, in a new array.
func without[T any](xs []T, i int) []T { return slices.Delete(slices.Clone(xs), i, i+1) }

// kingAttacked reports whether the king of seat is attacked.
func (s *State) kingAttacked(seat int) bool {
	c := colour(seat)
	k, ok := s.Pos.KingSquare(c)
	return ok && s.Pos.Attacked(k, c.Other())
}

// kingsAttacked is kingAttacked for both seats.
func (s *State) kingsAttacked() [2]bool { return [2]bool{s.kingAttacked(0), s.kingAttacked(1)} }

// fold is a State being changed by one action, and the facts the action records besides
// itself, in order. Decide folds a copy and emits the facts; Evolve folds the same action
// again and keeps them as pending.
type fold struct {
	*State
	facts []game.Emitted
}

// fork starts a fold on a copy of s.
func (s State) fork() *fold { return &fold{State: &s} }

// emit records a fact, visible to whom Sight says.
func (f *fold) emit(e game.Event) {
	f.facts = append(f.facts, game.Emitted{Event: e, Visibility: Rules{}.Sight(e)})
}

// must stops on an edit that the rules checked before making it: failing would be a bug
// here, not a player's mistake.
func must(err error) {
	if err != nil {
		panic("unfair: " + err.Error())
	}
}
