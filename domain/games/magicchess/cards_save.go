package magicchess

import (
	"github.com/arbiter-games/arbiter/domain/chess"
)

// The mate saves ("salvamento de mate"): cards laid only when their player's king is in
// check, that take it out of check by themselves (rule 1 keeps only the plays that do).
// A king with no legal move is mated only when no card of its hand saves it.
var saveCards = map[string]plays{
	"escape": inCheck(func(s *State, seat int) []play {
		k, _ := s.Pos.KingSquare(colour(seat))
		var out []play
		near := neighbours(k)
		for _, n := range near.Squares() {
			near |= neighbours(n)
		}
		for _, to := range s.landing(near).Squares() {
			out = append(out, relocation(k, to))
		}
		return out
	}),
	"interpose": inCheck(func(s *State, seat int) []play {
		checkers := s.checkers(seat)
		if len(checkers) != 1 {
			return nil
		}
		k, _ := s.Pos.KingSquare(colour(seat))
		between := s.landing(line(k, checkers[0]))
		var out []play
		for _, from := range s.pieces(colour(seat), notKing) {
			if !s.free(from) {
				continue
			}
			pc, _ := s.Pos.PieceAt(from)
			for _, to := range between.Squares() {
				if mayStand(pc, to) {
					out = append(out, relocation(from, to))
				}
			}
		}
		return out
	}),
	"exorcism": inCheck(func(s *State, seat int) []play {
		checkers := s.checkers(seat)
		if len(checkers) != 1 {
			return nil
		}
		sq := checkers[0]
		if pc, _ := s.Pos.PieceAt(sq); (pc.Role != chess.Knight && pc.Role != chess.Pawn) || !s.takable(sq) {
			return nil
		}
		return []play{{targets: names(sq), do: func(s *State, _ int) outcome { s.Pos.Remove(sq); return resolved }}}
	}),
	"sanctuary": inCheck(func(s *State, seat int) []play {
		k, _ := s.Pos.KingSquare(colour(seat))
		var out []play
		for _, sq := range s.pieces(colour(seat), only(chess.Rook)) {
			out = append(out, play{targets: names(sq), do: func(s *State, _ int) outcome {
				must(s.Pos.Exchange(k, sq))
				return resolved
			}})
		}
		return out
	}),
}

// inCheck builds the plays of a mate save: none unless seat's king is in check.
func inCheck(list func(s *State, seat int) []play) plays {
	return func(s *State, seat int) ([]play, string) {
		if !s.kingAttacked(seat) {
			return none("a mate save is laid only when your king is in check")
		}
		return list(s, seat), "nothing this card may do saves your king"
	}
}

// line is the squares strictly between a and b when they share a rank, file or
// diagonal; empty otherwise (a knight or a pawn next to the king has no line).
func line(a, b chess.Square) chess.Bitboard {
	df, dr := b.File()-a.File(), b.Rank()-a.Rank()
	if df != 0 && dr != 0 && df != dr && df != -dr {
		return 0
	}
	step := func(d int) int {
		switch {
		case d > 0:
			return 1
		case d < 0:
			return -1
		}
		return 0
	}
	sf, sr := step(df), step(dr)
	var out chess.Bitboard
	for sq, ok := offset(a, sf, sr); ok && sq != b; sq, ok = offset(sq, sf, sr) {
		out |= chess.BB(sq)
	}
	return out
}
