package magicchess

import (
	"errors"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/domain/cardchess"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// How a card is laid. Each implemented card lists the ways it can be aimed (plays), each
// with its effect; the rules then keep the plays that obey rule 1: a card that is the
// turn must leave its player's king out of check (so in check, only a card that saves the
// king may be laid), and a card that a move follows must leave a legal move to play. A
// card with no play left is not playable, and the hand says why.
//
// Unless a card says otherwise: "piece" is not the king, and no card removes a king; a
// card moves only pieces free to move and onto squares its player may enter; it removes
// only pieces its player may capture; a pawn never lands on its first or last rank.

// ErrUnimplemented is wrapped by the rejection of a card the server does not play yet
// (its rules are in the catalog, its effect is not): the card stays in the hand.
var ErrUnimplemented = errors.New("card not implemented")

// play is one way to aim a card: its targets and what it does to the state, the card
// already out of the hand.
type play struct {
	targets []string
	do      func(s *State, seat int) outcome
}

// outcome is what became of a laid card: a result of CardPlayed, and why when annulled.
type outcome struct {
	result string
	why    string
}

// plays lists every way seat may aim a card; reason says why there is none.
type plays func(s *State, seat int) (out []play, reason string)

// effects are the implemented cards, by ID.
var effects = map[string]plays{}

func init() {
	for _, group := range []map[string]plays{boardCards, lastingCards, movementCards, closeCards, saveCards} {
		for id, p := range group {
			if _, ok := byID[id]; !ok {
				panic("magicchess: an effect for a card the catalog does not have: " + id)
			}
			effects[id] = p
		}
	}
	for id := range reactionCards {
		if byID[id].Window != Reaction {
			panic("magicchess: a reaction for a card the catalog does not list as one: " + id)
		}
	}
}

// Implemented reports whether the server plays card id (the others are refused with
// ErrUnimplemented).
func Implemented(id string) bool { return effects[id] != nil || reactionCards[id] != nil }

// unimplemented is the typed rejection of a card the server does not play yet.
func unimplemented(id string) error {
	e := byID[id]
	why := "its effect is not implemented yet"
	if e.Window == Reaction {
		why = "a reaction, for the advanced mode, which is not implemented yet"
	}
	return &game.Error{Code: game.IllegalMove, Reason: id + " cannot be laid: " + why, Err: ErrUnimplemented}
}

// options are the legal plays of the card in seat's slot, with the state it leaves by
// being laid (out of the hand) on which they apply, or why there are none.
func (s *State) options(seat, slot int) (lifted State, legal []play, reason string) {
	id := s.Hands[seat][slot]
	if byID[id].Window == Reaction {
		return s.reactionOptions(seat, slot)
	}
	f := *s
	if s.Window != nil {
		return f, nil, "only a reaction card is laid in a reaction window"
	}
	f.lay(seat, slot)
	p := effects[id]
	if p == nil {
		return f, nil, unimplemented(id).(*game.Error).Reason
	}
	all, why := p(&f, seat)
	for _, q := range all {
		if w := f.try(seat, byID[id], q); w != "" {
			why = w
		} else {
			legal = append(legal, q)
		}
	}
	return f, legal, why
}

// try says why play p of card e breaks rule 1, or "".
func (s *State) try(seat int, e Entry, p play) string {
	f := *s
	o := f.apply(seat, e, p)
	switch {
	case o.result == Annulled:
		return ""
	case e.Window == Before && f.kingAttacked(seat):
		if s.kingAttacked(seat) {
			return "your king is in check and this does not save it"
		}
		return "it would leave your king in check"
	case e.Window != Before && len(f.moves()) == 0:
		return "no legal move would follow it"
	}
	return ""
}

// apply is seat laying card e with play p, on the state it left by leaving the hand: the
// effect, then the turn's close for a card that is the turn; for a card that a move
// follows, the turn waits for the move. An annulled card leaves the state as it was
// before the card, its card on the discard pile.
func (s *State) apply(seat int, e Entry, p play) outcome {
	before := *s
	o := p.do(s, seat)
	if o.result == Annulled {
		*s = before
		s.Discard = with(s.Discard, e.ID)
		s.Turn.Card = ""
		return o
	}
	// A lasting card stays face up until it runs out (endTurn); so does a closing card,
	// which waits in the turn for the move and then lasts (closeTurn), but for the rules
	// before magic-2026.5, which discarded it here too.
	if o.result != Lasts && (e.Window != Close || s.discardClosing) {
		s.Discard = with(s.Discard, e.ID)
	}
	s.Laid = with(s.Laid, Laid{Seat: seat, Card: e.ID, Targets: p.targets})
	if e.Window == Before {
		s.Pos.PassTurn()
		s.endTurn(seat)
	}
	return o
}

// find is the play of plays aimed at targets.
func find(plays []play, targets []string) (play, bool) {
	for _, p := range plays {
		if slices.Equal(p.targets, targets) {
			return p, true
		}
	}
	return play{}, false
}

// notation is a card laid as MoveList writes it: "[teleport b1 e4]", "[truce]".
func notation(id string, targets []string) string {
	return "[" + strings.Join(append([]string{id}, targets...), " ") + "]"
}

// Helpers for the effects.

// The board's shapes a card measures, shared with the other chess card game
// (domain/cardchess).
var (
	names      = cardchess.Names
	offset     = cardchess.Offset
	ahead      = cardchess.Ahead
	rankOf     = cardchess.RankOf
	rankBB     = cardchess.RankBB
	mayStand   = cardchess.MayStand
	neighbours = cardchess.Neighbours
)

// landing is the empty squares of b that the seat to act may enter.
func (s *State) landing(b chess.Bitboard) chess.Bitboard {
	var out chess.Bitboard
	for _, sq := range (b &^ s.Pos.Occupied()).Squares() {
		if s.open(sq) {
			out |= chess.BB(sq)
		}
	}
	return out
}

// pieces lists the squares of c's pieces that pick accepts, in board order.
func (s *State) pieces(c chess.Color, pick func(chess.Piece) bool) []chess.Square {
	var out []chess.Square
	for _, sq := range s.side(c).Squares() {
		if pc, _ := s.Pos.PieceAt(sq); pick(pc) {
			out = append(out, sq)
		}
	}
	return out
}

// notKing accepts every piece but a king; only accepts the pieces of the given roles.
func notKing(pc chess.Piece) bool { return pc.Role != chess.King }

func only(roles ...chess.Role) func(chess.Piece) bool {
	return func(pc chess.Piece) bool { return slices.Contains(roles, pc.Role) }
}

// resolved is the outcome of a card that acted.
var resolved = outcome{result: Resolved}

// must stops on an edit that the rules checked before making it: failing would be a bug
// here, not a player's mistake.
func must(err error) {
	if err != nil {
		panic("magicchess: " + err.Error())
	}
}

// none is the reason a card has no target.
func none(why string) ([]play, string) { return nil, why }

// checkers are the squares of the pieces that attack seat's king.
func (s *State) checkers(seat int) []chess.Square {
	c := colour(seat)
	k, ok := s.Pos.KingSquare(c)
	if !ok {
		return nil
	}
	var out []chess.Square
	occ := s.Pos.Occupied()
	for _, sq := range s.side(c.Other()).Squares() {
		pc, _ := s.Pos.PieceAt(sq)
		if chess.Attacks(pc.Role, pc.Color, sq, occ).Has(k) {
			out = append(out, sq)
		}
	}
	return out
}
