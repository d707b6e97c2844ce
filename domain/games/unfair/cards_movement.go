package unfair

import "github.com/arbiter-games/arbiter/domain/chess"

// The movement group: a card and a move in one, a piece of yours moving as it otherwise
// could not. The targets are the piece's square, then where it lands.
var movementCards = map[string]plays{
	"knight-leap":  granted(chess.Knight, chess.Knight),
	"bishop-glide": granted(chess.Bishop, chess.Bishop, chess.Queen),
	"rook-charge":  granted(chess.Rook, chess.Rook, chess.Queen),
	"royal-step":   granted(chess.King),
	"queen-breath": granted(chess.Queen, chess.Queen),
	"retreat":      carrying(only(chess.Pawn), retreat, "no pawn of yours can step back"),
	"pawn-rush":    carrying(only(chess.Pawn), rush, "no pawn of yours can advance two squares"),
	"leapfrog":     carrying(not(), leapfrog, "no piece of yours can jump over a neighbour"),
	"free-castle":  freeCastle,
	"bridge":       carrying(only(chess.Rook), bridge, "no rook of yours can jump over a piece"),
	"long-leap":    carrying(only(chess.Knight), longLeap, "no knight of yours can make a long leap"),
	"breakthrough": carrying(only(chess.Pawn), breakthrough, "no pawn of yours faces an enemy piece it may take"),
}

// granted is a card letting a piece (not a king, not of the roles except) move as role as
// for one move, through the move generator's Grant: pins, checks and restrictions are the
// generator's. Only the moves the borrowed pattern allows count (the piece's own moves are
// not the card's), without castling or en passant; a pawn that lands on the last rank
// becomes a queen (carry).
func granted(as chess.Role, except ...chess.Role) plays {
	return carrying(not(except...), func(s *State, from chess.Square, pc chess.Piece) chess.Bitboard {
		return s.grantedReach(s.restrictions(), from, pc, as)
	}, "no piece of yours can move that way")
}

// grantedReach is where the piece pc on from may go by the movement of role as granted
// to it under the restrictions r. Only the piece's own moves count, and only onto squares
// reach accepts, never a king's: which is why the generator's fix of magic-2026.3 (a
// grant gave the king the granted squares too, and could take a king:
// chess.Restrictions.GrantToKing) changed nothing here (TestAGrantNeverTookAKing).
func (s *State) grantedReach(r chess.Restrictions, from chess.Square, pc chess.Piece, as chess.Role) chess.Bitboard {
	id, _ := s.Pos.PieceID(from)
	r.Grant = chess.Grant{Piece: id, As: as}
	pattern := chess.Attacks(as, pc.Color, from, s.Pos.Occupied())
	var b chess.Bitboard
	for _, m := range s.Pos.LegalMovesWith(nil, r) {
		if m.From() == from && pattern.Has(m.To()) && !m.IsCastling() && !m.IsEnPassant() {
			b |= chess.BB(m.To())
		}
	}
	return s.reach(b)
}

// retreat: one square straight back, never onto the pawn's first rank.
func retreat(s *State, from chess.Square, pc chess.Piece) chess.Bitboard {
	to, ok := offset(from, 0, -ahead(pc.Color))
	if !ok || to.Rank() == rankOf(pc.Color, 0) {
		return 0
	}
	return s.landing(chess.BB(to))
}

// rush: two squares straight ahead from any rank, both empty.
func rush(s *State, from chess.Square, pc chess.Piece) chess.Bitboard {
	one, ok1 := offset(from, 0, ahead(pc.Color))
	two, ok2 := offset(from, 0, 2*ahead(pc.Color))
	if !ok1 || !ok2 || !s.empty().Has(one) {
		return 0
	}
	return s.landing(chess.BB(two))
}

// directions are the eight lines from a square: files, ranks, diagonals.
var directions = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// leapfrog: over an adjacent piece of either side onto the empty square behind it.
func leapfrog(s *State, from chess.Square, pc chess.Piece) chess.Bitboard {
	var b chess.Bitboard
	for _, d := range directions {
		over, ok1 := offset(from, d[0], d[1])
		to, ok2 := offset(from, 2*d[0], 2*d[1])
		if ok1 && ok2 && !s.empty().Has(over) && mayStand(pc, to) {
			b |= chess.BB(to)
		}
	}
	return s.landing(b)
}

// bridge: along a rank or file over exactly one piece, then on over empty squares, up to
// the first piece beyond, which it may capture.
func bridge(s *State, from chess.Square, _ chess.Piece) chess.Bitboard {
	var b chess.Bitboard
	for _, d := range directions[:4] {
		jumped := false
		for sq, ok := offset(from, d[0], d[1]); ok; sq, ok = offset(sq, d[0], d[1]) {
			switch {
			case s.empty().Has(sq):
				if jumped {
					b |= chess.BB(sq)
				}
				continue
			case !jumped:
				jumped = true
				continue
			}
			b |= chess.BB(sq) // the first piece beyond the bridge: reach says if it may be taken
			break
		}
	}
	return s.reach(b)
}

// longLeap: the camel's jump, three squares one way and one the other.
func longLeap(s *State, from chess.Square, _ chess.Piece) chess.Bitboard {
	var b chess.Bitboard
	for _, d := range [8][2]int{{1, 3}, {3, 1}, {3, -1}, {1, -3}, {-1, -3}, {-3, -1}, {-3, 1}, {-1, 3}} {
		if to, ok := offset(from, d[0], d[1]); ok {
			b |= chess.BB(to)
		}
	}
	return s.reach(b)
}

// breakthrough: the enemy piece right in front of the pawn.
func breakthrough(s *State, from chess.Square, pc chess.Piece) chess.Bitboard {
	front, ok := offset(from, 0, ahead(pc.Color))
	if !ok || s.empty().Has(front) {
		return 0
	}
	return s.reach(chess.BB(front))
}

// freeCastle castles whatever the king and rook did before: king on its starting square,
// its rook in the corner, nothing between them, the king not in check and neither
// crossing nor landing on an attacked square, as castling wants. Targets: the king's
// square and where it lands (g1, c1, g8, c8).
func freeCastle(s *State, seat int) ([]play, string) {
	c := colour(seat)
	rank := rankOf(c, 0)
	king := chess.NewSquare(4, rank)
	switch ks, _ := s.Pos.KingSquare(c); {
	case ks != king:
		return nil, "your king is not on its starting square"
	case !s.free(king):
		return nil, "your king may not move this turn"
	case s.kingAttacked(seat):
		return nil, "a king in check cannot castle"
	}
	var out []play
	for _, w := range [2]struct{ rook, kingTo, rookTo int }{{7, 6, 5}, {0, 2, 3}} {
		rook, kingTo, rookTo := chess.NewSquare(w.rook, rank), chess.NewSquare(w.kingTo, rank), chess.NewSquare(w.rookTo, rank)
		if pc, ok := s.Pos.PieceAt(rook); !ok || pc != (chess.Piece{Color: c, Role: chess.Rook}) || !s.free(rook) {
			continue
		}
		lo, hi := min(w.rook, 4), max(w.rook, 4)
		clear := true
		for f := lo + 1; f < hi; f++ {
			clear = clear && s.empty().Has(chess.NewSquare(f, rank))
		}
		step := (w.kingTo - 4) / 2
		for _, sq := range []chess.Square{chess.NewSquare(4+step, rank), kingTo} {
			clear = clear && !s.Pos.Attacked(sq, c.Other()) && s.open(sq)
		}
		if !clear || !s.open(rookTo) {
			continue
		}
		out = append(out, play{targets: names(king, kingTo), do: func(f *fold) {
			must(f.Pos.Relocate(king, kingTo))
			must(f.Pos.Relocate(rook, rookTo))
		}})
	}
	if len(out) == 0 {
		return nil, "no rook of yours can castle with your king"
	}
	return out, ""
}
