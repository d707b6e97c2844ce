package magicchess

import (
	"github.com/arbiter-games/arbiter/domain/chess"
)

// The movement cards (window "during"): the card, then a move in the same turn, which
// may use the card's gift. The closing cards (window "close"): the card, then a move,
// then the card acts as the turn closes, on what the move did.
var movementCards = map[string]plays{
	"knight-leap": granting(chess.Knight, notKing),
	"rook-path":   granting(chess.Rook, notKing),
	"bishop-path": granting(chess.Bishop, notKing),
	"royal-step":  granting(chess.King, notKing),
	"queen-pawn":  granting(chess.Queen, only(chess.Pawn)),
	"haste": func(*State, int) ([]play, string) {
		return []play{{targets: []string{}, do: func(s *State, _ int) outcome {
			s.Turn.MovesDue = 2
			return outcome{result: Pending}
		}}}, ""
	},
}

// granting builds the plays of a card that lends one of its player's pieces (that pick
// accepts and that may move) the movement of role as for the move that follows.
func granting(as chess.Role, pick func(chess.Piece) bool) plays {
	return func(s *State, seat int) ([]play, string) {
		var out []play
		for _, sq := range s.pieces(colour(seat), pick) {
			if !s.free(sq) {
				continue
			}
			out = append(out, play{targets: names(sq), do: func(s *State, _ int) outcome {
				id, _ := s.Pos.PieceID(sq)
				s.Turn.MovesDue, s.Turn.Grant = 1, chess.Grant{Piece: id, As: as}
				return outcome{result: Pending}
			}})
		}
		return out, "none of your pieces may move"
	}
}

var closeCards = map[string]plays{
	"sentinel": closer("sentinel"),
	"ambush":   closer("ambush"),
	"trail":    closer("trail"),
}

// closer is the one play of a closing card: the move is owed, and the card waits for the
// turn's close.
func closer(id string) plays {
	return func(*State, int) ([]play, string) {
		return []play{{targets: []string{}, do: func(s *State, _ int) outcome {
			s.Turn.MovesDue, s.Turn.Close = 1, id
			return outcome{result: Pending}
		}}}, ""
	}
}

// closeTurn is the closing card of the turn acting, after seat's move of the piece id
// from the square from: it stays face up with what it holds.
func (s *State) closeTurn(seat int, id chess.PieceID, from chess.Square) {
	switch s.Turn.Close {
	case "sentinel":
		s.last(seat, "sentinel", []chess.PieceID{id}, 0)
	case "ambush":
		var held []chess.PieceID
		if sq, ok := s.Pos.SquareOf(id); ok {
			for _, n := range (neighbours(sq) & s.side(colour(seat).Other())).Squares() {
				if pc, _ := s.Pos.PieceAt(n); pc.Role != chess.King {
					nid, _ := s.Pos.PieceID(n)
					held = append(held, nid)
				}
			}
		}
		s.last(seat, "ambush", held, 0)
	case "trail":
		s.last(seat, "trail", nil, chess.BB(from))
	}
}
