package unfair

import "github.com/arbiter-games/arbiter/domain/chess"

// The extra group: more in a turn: moves beyond the move, and the antidote, a card that
// adds to the move and lifts every status of one of its player's pieces.
var extraCards = map[string]plays{
	// The double move owes two moves (Turn.MovesDue); refusal holds its first to its terms.
	"double-move": untargeted(always, func(*fold, int) {}),
	"pawn-surge":  carrying(only(chess.Pawn), surge, "no pawn of yours can advance one square"),
	"gallop":      carrying(only(chess.Knight), gallop, "no knight of yours can jump onto an empty square"),
	"sidestep":    carrying(not(), sidestep, "no piece of yours can step left or right"),
	"cavalcade":   cavalcade,
	"antidote":    aiming(ours, carriesStatus, cure, "none of your pieces has a status"),
}

// surge: one square ahead onto an empty square, not the last rank.
func surge(s *State, from chess.Square, pc chess.Piece) chess.Bitboard {
	to, ok := offset(from, 0, ahead(pc.Color))
	if !ok || backRanks.Has(to) {
		return 0
	}
	return s.landing(chess.BB(to))
}

func gallop(s *State, from chess.Square, pc chess.Piece) chess.Bitboard {
	return s.landing(chess.Attacks(chess.Knight, pc.Color, from, 0))
}

func sidestep(s *State, from chess.Square, _ chess.Piece) chess.Bitboard {
	return s.landing(neighbours(from) & rankBB(from.Rank()))
}

// cavalcade: two knight's jumps, the first onto an empty square, the second onto an empty
// square (the one it started from included) or capturing. Targets: the knight, the square
// between, where it lands.
func cavalcade(s *State, seat int) ([]play, string) {
	var out []play
	for _, from := range s.pieces(colour(seat), only(chess.Knight)) {
		if !s.free(from) {
			continue
		}
		for _, mid := range gallop(s, from, chess.Piece{}).Squares() {
			to := s.reach(chess.Attacks(chess.Knight, chess.White, mid, 0) &^ chess.BB(from))
			if s.open(from) {
				to |= chess.BB(from)
			}
			for _, sq := range to.Squares() {
				out = append(out, play{targets: names(from, mid, sq), do: func(f *fold) {
					must(f.Pos.Relocate(from, mid))
					f.carry(mid, sq)
				}})
			}
		}
	}
	if len(out) == 0 {
		return nil, "no knight of yours can make two jumps"
	}
	return out, ""
}

func carriesStatus(s *State, sq chess.Square, _ chess.Piece) bool {
	id, _ := s.Pos.PieceID(sq)
	return len(s.statusesOf(id)) > 0
}

// cure lifts every status of the piece on sq, oldest first.
func cure(f *fold, _ int, sq chess.Square) {
	id, _ := f.Pos.PieceID(sq)
	for _, st := range f.statusesOf(id) {
		f.endStatus(st, "antidote")
	}
}
