package unfair

import "github.com/arbiter-games/arbiter/domain/chess"

// The teleports group: pieces that appear elsewhere, over anything, without capturing.
var teleportCards = map[string]plays{
	"teleport":    carrying(not(), teleport, "no piece of yours can teleport"),
	"swap":        swap,
	"royal-guard": royalGuard,
	"mirror":      carrying(not(), mirror, "no piece of yours has an empty mirror square"),
	"recall":      carrying(not(chess.Pawn), recall, "no piece of yours can come back to your first rank"),
	"push":        push,
	"king-flight": carrying(only(chess.King), kingFlight, "your king has no safe square two squares away"),
	"switch":      switchPlaces,
	"rank-jump":   carrying(not(), rankJump, "no piece of yours can jump along its rank"),
	"file-jump":   carrying(not(), fileJump, "no piece of yours can jump along its file"),
}

// standable is where pc may stand: anywhere, but a pawn never on a back rank.
func standable(pc chess.Piece) chess.Bitboard {
	if pc.Role == chess.Pawn {
		return ^backRanks
	}
	return ^chess.Bitboard(0)
}

func teleport(s *State, _ chess.Square, pc chess.Piece) chess.Bitboard {
	return s.landing(standable(pc))
}

func mirror(s *State, from chess.Square, _ chess.Piece) chess.Bitboard {
	return s.landing(chess.BB(chess.NewSquare(7-from.File(), from.Rank())))
}

func recall(s *State, _ chess.Square, pc chess.Piece) chess.Bitboard {
	return s.landing(rankBB(rankOf(pc.Color, 0)))
}

// kingFlight: the ring of squares exactly two squares away; the general law keeps only
// those where the king is not attacked.
func kingFlight(s *State, from chess.Square, _ chess.Piece) chess.Bitboard {
	var ring chess.Bitboard
	for df := -2; df <= 2; df++ {
		for dr := -2; dr <= 2; dr++ {
			if sq, ok := offset(from, df, dr); ok && max(df, -df, dr, -dr) == 2 {
				ring |= chess.BB(sq)
			}
		}
	}
	return s.landing(ring)
}

func rankJump(s *State, from chess.Square, _ chess.Piece) chess.Bitboard {
	return s.landing(rankBB(from.Rank()))
}

func fileJump(s *State, from chess.Square, pc chess.Piece) chess.Bitboard {
	return s.landing(fileBB(from.File()) & standable(pc))
}

// exchanging builds the plays of a card trading the places of a piece of seat's (free
// to move, accepted by pick) with a piece on one of the squares partners gives, each
// piece entering the other's square. Targets: seat's piece, then the other.
func exchanging(pick func(chess.Piece) bool, partners func(s *State, sq chess.Square) []chess.Square, none string) plays {
	return func(s *State, seat int) ([]play, string) {
		var out []play
		for _, a := range s.pieces(colour(seat), pick) {
			pa, _ := s.Pos.PieceAt(a)
			for _, b := range partners(s, a) {
				pb, _ := s.Pos.PieceAt(b)
				if !s.free(a) || !s.open(b) || !mayStand(pa, b) || !mayStand(pb, a) {
					continue
				}
				if pb.Color == pa.Color && (!s.free(b) || !s.open(a)) {
					continue
				}
				out = append(out, play{targets: names(a, b), do: func(f *fold) {
					must(f.Pos.Exchange(a, b))
					f.moved(a, b)
				}})
			}
		}
		if len(out) == 0 {
			return nil, none
		}
		return out, ""
	}
}

// swap: two pieces of yours, each pair once (the targets in either order).
var swap = exchanging(not(), func(s *State, a chess.Square) []chess.Square {
	var out []chess.Square
	for _, b := range s.pieces(s.Pos.Turn(), not()) {
		if b > a {
			out = append(out, b)
		}
	}
	return out
}, "you have no two pieces that may swap")

// royalGuard: your king and one of your pieces next to it.
var royalGuard = exchanging(only(chess.King), func(s *State, k chess.Square) []chess.Square {
	return adjacent(s, k, s.Pos.Turn())
}, "no piece of yours next to your king may trade places with it")

// switchPlaces: one of your pieces and an enemy piece next to it.
var switchPlaces = exchanging(not(), func(s *State, a chess.Square) []chess.Square {
	return adjacent(s, a, s.Pos.Turn().Other())
}, "no piece of yours stands next to an enemy piece it may trade places with")

// adjacent lists the pieces of c (not kings) next to sq.
func adjacent(s *State, sq chess.Square, c chess.Color) []chess.Square {
	var out []chess.Square
	for _, b := range (neighbours(sq) & s.side(c)).Squares() {
		if pc, _ := s.Pos.PieceAt(b); pc.Role != chess.King {
			out = append(out, b)
		}
	}
	return out
}

// push moves an enemy piece (not the king) one square onto an empty square. The enemy's
// restrictions are not the pusher's: a sleeping or shackled piece may be pushed.
func push(s *State, seat int) ([]play, string) {
	var out []play
	for _, from := range s.pieces(colour(seat).Other(), not()) {
		pc, _ := s.Pos.PieceAt(from)
		for _, to := range (neighbours(from) & s.empty() & standable(pc)).Squares() {
			out = append(out, play{targets: names(from, to), do: func(f *fold) { must(f.Pos.Relocate(from, to)) }})
		}
	}
	if len(out) == 0 {
		return nil, "no enemy piece can be pushed"
	}
	return out, ""
}

// homes are the castling rights a rook keeps only while it has never left its corner.
var homes = map[chess.Square]chess.CastlingRights{
	chess.A1: chess.WhiteQueenSide, chess.H1: chess.WhiteKingSide,
	chess.A8: chess.BlackQueenSide, chess.H8: chess.BlackKingSide,
}

// moved drops the castling rights of the corners among squares, whose pieces a card has
// just moved: "il faut que ni l'un ni l'autre n'ait encore bougé". The board alone cannot
// say so when two rooks trade places and a rook still stands in each corner. Under
// unfair-2026.1 and 2026.2 (variant.swapKeepsCastling) the rights followed the board.
func (f *fold) moved(squares ...chess.Square) {
	if f.v.swapKeepsCastling {
		return
	}
	for _, sq := range squares {
		f.Pos.DropCastling(homes[sq])
	}
}
