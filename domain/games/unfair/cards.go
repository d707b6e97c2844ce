package unfair

import (
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/domain/cardchess"
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// How a card is played. Each card lists the ways it can be aimed (plays), each with its
// effect on the board, the statuses and the piles; the rules then keep the plays that
// obey the general law: a card that replaces the move must leave its player's king
// unattacked, a card that adds to the move must leave a legal move to play. A card with
// no play left is not playable, and Hand says why.
//
// The effects live in one file per group (cards_*.go); effects maps them by group and
// ID, and the catalog is checked against it when the package loads.
//
// Unless a card says otherwise: "piece" is not the king; a card moves only pieces free
// to move (not asleep, not shackled, not frozen) and onto squares its player may enter;
// it captures or destroys only pieces its player may capture (never a king, nor a shielded
// piece, nor anything under a truce); a pawn never lands on its first or last rank,
// except where the card says that it becomes a queen there. A capture by a card sets off
// poison and dynamite as a move's does.

// def is a card of the catalog with its effect.
type def struct {
	cards.Card
	plays plays
}

// plays lists every way seat may aim the card, on the state where the card has already
// left the hand, each with its effect; reason says why there is none.
type plays func(s *State, seat int) (out []play, reason string)

// play is one way to aim a card: its targets and what it does.
type play struct {
	targets []string
	do      func(f *fold)
}

// effects are the cards' effects, by group and card ID.
var effects = map[string]map[string]plays{
	"statuses":  statusCards,
	"movement":  movementCards,
	"teleports": teleportCards,
	"returns":   returnCards,
	"board":     boardCards,
	"hand":      handCards,
	"extra":     extraCards,
}

// unordered are the cards whose two targets are a pair: either order names the same play.
var unordered = map[string]bool{"swap": true, "levy": true}

// movesOwed is how many moves a card that adds to the move leaves to play.
func (d *def) movesOwed() int {
	if d.ID == "double-move" {
		return 2
	}
	return 1
}

// closed says why seat may play no card now, or "".
func (s *State) closed(seat int) string {
	switch {
	case seat != s.toAct():
		return "it is not your turn"
	case s.Turn.Card != "":
		return "you have already played a card this turn"
	}
	if _, over := s.outcome(); over {
		return "the game is over"
	}
	return ""
}

// options are the legal plays of the card in seat's hand slot, with the state the card
// leaves by being played (out of the hand, on the discard pile) on which they apply, or
// why there are none. The caller has checked that seat may play a card now.
func (s *State) options(seat, slot int) (lifted State, legal []play, reason string) {
	d := defs[s.Sides[seat].Hand[slot]]
	f := s.fork()
	f.leaveHand(seat, slot)
	all, why := d.plays(f.State, seat)
	for _, p := range all {
		if w := f.try(seat, d, p); w != "" {
			why = w
		} else {
			legal = append(legal, p)
		}
	}
	return *f.State, legal, why
}

// try says why play p of card d breaks the general law, or "". In check, a card is
// playable only if it takes the king out of check itself ("seules les cartes qui t'en
// sortent restent jouables"): a card that adds to the move must save the king before
// its move, not leave the saving to that move.
func (s *State) try(seat int, d *def, p play) string {
	f := s.fork()
	p.do(f)
	if d.Cost == AddsToMove {
		if f.kingAttacked(seat) && s.kingAttacked(seat) && !s.v.moveSavesAfterCard {
			return "your king is in check and this does not save it"
		}
		f.Turn.MovesDue = d.movesOwed()
		if len(f.moves()) == 0 {
			return "no legal move would follow it"
		}
		return ""
	}
	if f.kingAttacked(seat) {
		if s.kingAttacked(seat) {
			return "your king is in check and this does not save it"
		}
		return "it would leave your king in check"
	}
	return ""
}

// find is the play of plays aimed at targets.
func (d *def) find(plays []play, targets []string) (play, bool) {
	for _, p := range plays {
		if slices.Equal(p.targets, targets) ||
			unordered[d.ID] && len(targets) == 2 && slices.Equal(p.targets, []string{targets[1], targets[0]}) {
			return p, true
		}
	}
	return play{}, false
}

// checkTargets refuses targets that do not have the card's shape: one per word of its
// Targets, a slot "0".."3" for a hand slot and a square for anything else.
func (d *def) checkTargets(targets []string) error {
	words := targetWords(d.Card)
	if len(targets) != len(words) {
		return game.Reject(game.BadInput, "%s takes %d target(s) (%s), not %d", d.ID, len(words), d.Targets, len(targets))
	}
	for i, t := range targets {
		if strings.HasSuffix(words[i], "-slot") {
			if n, err := strconv.Atoi(t); err != nil || n < 0 || n >= HandSize || t != strconv.Itoa(n) {
				return game.Reject(game.BadInput, "target %d of %s is a hand slot, 0 to %d: %q", i+1, d.ID, HandSize-1, t)
			}
		} else if _, ok := chess.ParseSquare(t); !ok {
			return game.Reject(game.BadInput, "target %d of %s is a square such as e4: %q", i+1, d.ID, t)
		}
	}
	return nil
}

// notation is a card played as MoveList writes it: "[teleport b1→e4]", "[wall e5]",
// "[truce]".
func (d *def) notation(targets []string) string {
	if len(targets) == 0 {
		return "[" + d.ID + "]"
	}
	sep := " "
	if w := targetWords(d.Card); len(w) >= 2 && w[0] != "square" && w[1] == "square" {
		sep = "→"
	}
	return "[" + d.ID + " " + strings.Join(targets, sep) + "]"
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
	fileBB     = cardchess.FileBB
	halfOf     = cardchess.HalfOf
	mayStand   = cardchess.MayStand
	neighbours = cardchess.Neighbours
)

// backRanks are the two ranks where no pawn stands.
const backRanks = cardchess.BackRanks

// empty is every empty square.
func (s *State) empty() chess.Bitboard { return ^s.Pos.Occupied() }

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

// not accepts the pieces that are neither a king nor of the given roles.
func not(roles ...chess.Role) func(chess.Piece) bool {
	return func(pc chess.Piece) bool { return pc.Role != chess.King && !slices.Contains(roles, pc.Role) }
}

// only accepts the pieces of the given roles.
func only(roles ...chess.Role) func(chess.Piece) bool {
	return func(pc chess.Piece) bool { return slices.Contains(roles, pc.Role) }
}

// reach is the squares of b that a piece of the seat to act may end on by a card: empty,
// or holding a piece it may take, and open to it.
func (s *State) reach(b chess.Bitboard) chess.Bitboard {
	var out chess.Bitboard
	for _, sq := range b.Squares() {
		if _, occupied := s.Pos.PieceAt(sq); (!occupied || s.takable(sq)) && s.open(sq) {
			out |= chess.BB(sq)
		}
	}
	return out
}

// landing is the empty squares of b that the seat to act may enter.
func (s *State) landing(b chess.Bitboard) chess.Bitboard {
	return s.reach(b & s.empty())
}

// carrying builds the plays of a card that carries one of seat's pieces that pick
// accepts (and that may move) to the squares dests gives for it, capturing there when an
// enemy piece stands on one. none is the reason when there is no play.
func carrying(pick func(chess.Piece) bool, dests func(s *State, from chess.Square, pc chess.Piece) chess.Bitboard, none string) plays {
	return func(s *State, seat int) ([]play, string) {
		var out []play
		for _, from := range s.pieces(colour(seat), pick) {
			if !s.free(from) {
				continue
			}
			pc, _ := s.Pos.PieceAt(from)
			for _, to := range dests(s, from, pc).Squares() {
				out = append(out, play{targets: names(from, to), do: func(f *fold) { f.carry(from, to) }})
			}
		}
		if len(out) == 0 {
			return nil, none
		}
		return out, ""
	}
}

// Whose pieces a card may aim at, as its player sees them.
const (
	ours = 1 << iota
	theirs
	anyones = ours | theirs
)

// aiming builds the plays of a card aimed at one piece of whose that pick accepts, doing
// do to it. none is the reason when there is none.
func aiming(whose int, pick func(s *State, sq chess.Square, pc chess.Piece) bool, do func(f *fold, seat int, sq chess.Square), none string) plays {
	return func(s *State, seat int) ([]play, string) {
		var b chess.Bitboard
		if whose&ours != 0 {
			b |= s.side(colour(seat))
		}
		if whose&theirs != 0 {
			b |= s.side(colour(seat).Other())
		}
		var out []play
		for _, sq := range b.Squares() {
			if pc, _ := s.Pos.PieceAt(sq); pick(s, sq, pc) {
				out = append(out, play{targets: names(sq), do: func(f *fold) { do(f, seat, sq) }})
			}
		}
		if len(out) == 0 {
			return nil, none
		}
		return out, ""
	}
}

// untargeted is the one play of a card without targets, when ok says it may be played.
func untargeted(ok func(s *State, seat int) string, do func(f *fold, seat int)) plays {
	return func(s *State, seat int) ([]play, string) {
		if why := ok(s, seat); why != "" {
			return nil, why
		}
		return []play{{targets: []string{}, do: func(f *fold) { do(f, seat) }}}, ""
	}
}

// always lets a card without condition be played.
func always(*State, int) string { return "" }
