package magicchess

import (
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/cardchess"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
)

// The phases of a match, as Status names them.
const (
	Planning = "planning" // the cards are dealt; nobody moves (rule 2)
	Play     = "play"
	// Over is the phase of a game that is over: by the game's own end (mate, a flag...)
	// or by the match's (a resignation, an abort, an agreed draw), which the game's state
	// does not hold and a view learns from its viewpoint (game.Viewpoint.Over).
	Over = "over"
)

// State is a match of Ajedrez Mágico on one board. It is a value: every slice in it is
// shared between states and never written in place (a change makes a new slice, see
// with), so copying a State forks it; Decide relies on that to never touch the state it
// is given.
type State struct {
	Pos       chess.Position
	Mode      string
	Phase     string
	PlanEnds  time.Time   // the planning's deadline
	PlanEnded time.Time   // when the planning ended, and White's clock started
	Done      [2]bool     // the seats that ended the planning early
	HandSize  int         // the deal's size
	Hands     [2][]string // by seat, by slot; "" is a slot whose card was laid
	Deck      []string    // the table's deck after the deal, top first
	Discard   []string    // the table's discard pile, oldest first
	Played    [2][]string // the cards each seat laid, in order
	Laid      []Laid      // every card laid that resolved, in order (what Echo repeats)
	Lasting   []Lasting   // the cards face up while they last, in the order laid
	Turn      Turn        // what the seat to act has done in this turn
	Record    []string    // the moves in SAN and the cards laid, for MoveList
	Players   []int       // by Record entry: the seat that played it
	Clock     clock.Clock
	Flag      *clock.FlagFell
	Window    *Window   // the reaction window open (advanced mode), nil when none is
	Held      *HeldCard // the card laid that waits for its window to close (advanced mode)

	control  *clock.Setup  // the time control, started when the planning ends
	reaction time.Duration // a reaction window's length (advanced mode)
	opening  *Window       // the window the last action opens, until its event opens it
	shuffled []string      // the deck as shuffled, before the deal (for the audit of the deal)
	started  bool
	expired  []string // the cards that ran out at the close of the last turn (for the events)
	// oldGrants: the match is of a rules version before magic-2026.3, whose move generator
	// gave the king the squares granted to another piece (chess.Restrictions.GrantToKing).
	oldGrants bool
	// discardClosing: the match is of a rules version before magic-2026.5, which put a
	// closing card (Sentinel, Ambush, Trail) on the discard pile when it was laid as well
	// as when it ran out. It is not stored: the stored form's rules version gives it.
	discardClosing bool
	// endAtMove: the match is of a rules version before magic-2026.6, under which a move
	// that opens a reaction window and leaves the opponent stalemated, or reaches the
	// 75-move rule, ended the game at once, with no window; from magic-2026.6 the end is
	// judged after the window (rule 19), as a mate's always was. Not stored either.
	endAtMove bool
	// rewoundRanOut: the match is of a rules version before magic-2026.6, under which
	// Rewind put back face up a card that the move taken back had run out, and left it on
	// the discard pile as well, so that it was there twice once it ran out again. Not
	// stored either.
	rewoundRanOut bool
	// shuffledRanOut: the match is of a rules version before magic-2026.7, under which a
	// doubles reshuffle took into the deck the cards that ran out at a move an open R2
	// window could still take back, which a Rewind then put back face up as well
	// (State.reshuffled). Not stored either.
	shuffledRanOut bool
}

// Laid is a card that was laid and resolved: who laid it, on what.
type Laid struct {
	Seat    int
	Card    string
	Targets []string
}

// Lasting is a card face up on the table: its owner, the owner's turns it has left
// (counted at the end of each), and what it holds: the pieces it binds or protects, by
// ID, and the squares it closes.
type Lasting struct {
	Card    string // the card on the table (Echo, when it repeats another)
	Effect  string // the card whose effect it is
	Seat    int
	Left    int
	Pieces  []chess.PieceID
	Squares chess.Bitboard
}

// Turn is the progress of the seat to act through its turn, after a card that a move
// follows.
type Turn struct {
	Card     string      // the card laid this turn; "" before one is
	MovesDue int         // moves still owed: 1, or 2 for Haste; 0 when the turn is open
	Grant    chess.Grant // a movement card's gift for this move
	Close    string      // a card that acts when the turn closes
}

// colour is the side a seat plays: seat 0 White, seat 1 Black.
func colour(seat int) chess.Color { return chess.Color(seat) }

// toAct is the seat whose turn it is.
func (s *State) toAct() int { return int(s.Pos.Turn()) }

// with returns xs followed by x in a new array, leaving xs and whatever shares it as they
// were: the one way State's slices grow.
func with[T any](xs []T, x ...T) []T { return append(xs[:len(xs):len(xs)], x...) }

// kingAttacked reports whether the king of seat is attacked.
func (s *State) kingAttacked(seat int) bool {
	c := colour(seat)
	k, ok := s.Pos.KingSquare(c)
	return ok && s.Pos.Attacked(k, c.Other())
}

// side is every square holding a piece of colour c.
func (s *State) side(c chess.Color) chess.Bitboard { return cardchess.Side(s.Pos, c) }

// halfOf is c's half of the board.
var halfOf = cardchess.HalfOf

// restrictions are what binds the seat to act now: the lasting cards of its opponent,
// and the gift of a movement card it laid this turn.
func (s *State) restrictions() chess.Restrictions {
	seat := s.toAct()
	us := colour(seat)
	var r chess.Restrictions
	for _, l := range s.Lasting {
		if l.Seat == seat || l.Left <= 0 {
			continue
		}
		owner := colour(l.Seat)
		switch l.Effect {
		case "freeze", "ambush":
			r.Frozen |= s.Pos.SquaresOf(l.Pieces...)
		case "wall", "swamp", "trail":
			r.Forbidden |= l.Squares
		case "shield", "sentinel":
			r.Shielded |= s.Pos.SquaresOf(l.Pieces...)
		case "truce":
			r.Shielded |= s.side(owner)
		case "fortress":
			r.Shielded |= s.side(owner) & halfOf(owner)
		case "frost":
			r.Frozen |= s.Pos.Pieces(us, chess.Pawn)
		case "paralysis":
			r.Frozen |= s.Pos.Pieces(us, chess.Queen)
		}
	}
	r.Grant, r.GrantToKing = s.Turn.Grant, s.oldGrants
	return r
}

// The questions cards ask of the restrictions, for the seat to act.

// free reports whether the seat to act may move its piece on sq.
func (s *State) free(sq chess.Square) bool { return !s.restrictions().Frozen.Has(sq) }

// open reports whether the seat to act may bring a piece onto sq.
func (s *State) open(sq chess.Square) bool { return !s.restrictions().Forbidden.Has(sq) }

// takable reports whether the seat to act may capture or remove the piece on sq: an
// enemy piece, not a king, not protected by a card.
func (s *State) takable(sq chess.Square) bool {
	pc, ok := s.Pos.PieceAt(sq)
	return ok && pc.Color != s.Pos.Turn() && pc.Role != chess.King && !s.restrictions().Shielded.Has(sq)
}

// endTurn closes seat's turn: each of its lasting cards counts the turn, and those that
// have none left go to the discard pile; the next turn starts open.
func (s *State) endTurn(seat int) {
	s.expired = nil
	var keep []Lasting
	for _, l := range s.Lasting {
		if l.Seat == seat {
			l.Left--
			if l.Left <= 0 {
				s.expired = append(s.expired, l.Card)
				s.Discard = with(s.Discard, l.Card)
				continue
			}
		}
		keep = append(keep, l)
	}
	s.Lasting = keep
	s.Turn = Turn{}
}

// lay takes the card in seat's slot out of the hand as it is laid.
func (s *State) lay(seat, slot int) {
	h := slices.Clone(s.Hands[seat])
	card := h[slot]
	h[slot] = ""
	s.Hands[seat] = h
	s.Played[seat] = with(s.Played[seat], card)
	s.Turn.Card = card
}
