package magicchess

import (
	"github.com/arbiter-games/arbiter/domain/chess"
)

// The lasting cards: each is the turn, and stays face up for its duration in its
// owner's turns. The turn it is laid in does not count: the count starts with the
// owner's next turn, so a card "for 1 turn" binds the opponent's next turn and lasts
// until the end of its owner's next one.
var lastingCards = map[string]plays{
	"freeze": func(s *State, seat int) ([]play, string) {
		var out []play
		for _, sq := range s.pieces(colour(seat).Other(), notKing) {
			out = append(out, holding("freeze", sq))
		}
		return out, "the opponent has no piece but its king"
	},
	"shield": func(s *State, seat int) ([]play, string) {
		var out []play
		for _, sq := range s.pieces(colour(seat), notKing) {
			out = append(out, holding("shield", sq))
		}
		return out, "you have no piece but your king"
	},
	"wall": func(s *State, seat int) ([]play, string) {
		var out []play
		for _, sq := range (^s.Pos.Occupied()).Squares() {
			out = append(out, closing("wall", sq, chess.BB(sq)))
		}
		return out, "no square is empty"
	},
	"swamp": func(s *State, seat int) ([]play, string) {
		var out []play
		empty := ^s.Pos.Occupied()
		for _, sq := range empty.Squares() {
			out = append(out, closing("swamp", sq, (chess.BB(sq)|neighbours(sq))&empty))
		}
		return out, "no square is empty"
	},
	"truce":     untargeted("truce"),
	"frost":     untargeted("frost"),
	"fortress":  untargeted("fortress"),
	"paralysis": untargeted("paralysis"),
}

// last puts the card laid this turn face up with effect, for its duration, holding
// pieces and squares.
func (s *State) last(seat int, effect string, pieces []chess.PieceID, squares chess.Bitboard) outcome {
	card := s.Turn.Card
	if card == "" {
		card = effect
	}
	// The turn the card is laid in ends at once and counts off one: the duration counts
	// the owner's turns after it.
	s.Lasting = with(s.Lasting, Lasting{Card: card, Effect: effect, Seat: seat, Left: byID[effect].Duration + 1, Pieces: pieces, Squares: squares})
	return outcome{result: Lasts}
}

// holding is the play of a lasting card on the piece on sq.
func holding(effect string, sq chess.Square) play {
	return play{targets: names(sq), do: func(s *State, seat int) outcome {
		id, _ := s.Pos.PieceID(sq)
		return s.last(seat, effect, []chess.PieceID{id}, 0)
	}}
}

// closing is the play of a lasting card aimed at sq, closing squares.
func closing(effect string, sq chess.Square, squares chess.Bitboard) play {
	return play{targets: names(sq), do: func(s *State, seat int) outcome {
		return s.last(seat, effect, nil, squares)
	}}
}

// untargeted is the one play of a lasting card without targets.
func untargeted(effect string) plays {
	return func(*State, int) ([]play, string) {
		return []play{{targets: []string{}, do: func(s *State, seat int) outcome { return s.last(seat, effect, nil, 0) }}}, ""
	}
}
