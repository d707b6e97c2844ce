package unfair

import "github.com/arbiter-games/arbiter/domain/chess"

// The board group: most of these cards bind the opponent for their next turn only (Bars,
// shown as board marks); desertion, trench and ambush change the board for good.
var boardCards = map[string]plays{
	"wall": barring(func(s *State, sq chess.Square) chess.Bitboard {
		if !s.empty().Has(sq) {
			return 0
		}
		return chess.BB(sq)
	}),
	"barricade": barring(func(_ *State, sq chess.Square) chess.Bitboard {
		return chess.BB(sq) | neighbours(sq)&rankBB(sq.Rank())
	}),
	"no-mans-land": barring(func(_ *State, sq chess.Square) chess.Bitboard {
		return chess.BB(sq) | neighbours(sq)
	}),
	"shackles": aiming(theirs, notKing, func(f *fold, seat int, sq chess.Square) {
		id, _ := f.Pos.PieceID(sq)
		f.bar(seat, Bars{Pieces: []chess.PieceID{id}})
	}, "the opponent has no piece but the king"),
	"royal-shackles": aiming(theirs, isKing, func(f *fold, seat int, sq chess.Square) {
		id, _ := f.Pos.PieceID(sq)
		f.bar(seat, Bars{Pieces: []chess.PieceID{id}})
	}, "the opponent has no king"),
	"desertion": aiming(theirs, isPawn, func(f *fold, seat int, sq chess.Square) {
		must(f.Pos.SetColor(sq, colour(seat)))
	}, "the opponent has no pawn"),
	"trench": untargeted(func(s *State, seat int) string {
		if s.Pos.Castling()&rights(colour(seat).Other()) == 0 {
			return "the opponent has no castling right left"
		}
		return ""
	}, func(f *fold, seat int) { f.Pos.DropCastling(rights(colour(seat).Other())) }),
	"ambush": aiming(theirs, func(s *State, sq chess.Square, pc chess.Piece) bool {
		return pc.Role == chess.Pawn && halfOf(pc.Color.Other()).Has(sq) && s.takable(sq)
	}, func(f *fold, _ int, sq chess.Square) { f.remove(sq) }, "no enemy pawn you may destroy stands in your half"),
	"frost": untargeted(func(s *State, seat int) string {
		if s.Pos.Pieces(colour(seat).Other(), chess.Pawn) == 0 {
			return "the opponent has no pawn"
		}
		return ""
	}, func(f *fold, seat int) { f.bar(seat, Bars{Pawns: true}) }),
	"truce":  untargeted(always, func(f *fold, seat int) { f.bar(seat, Bars{Truce: true}) }),
	"border": untargeted(always, func(f *fold, seat int) { f.bar(seat, Bars{Squares: halfOf(colour(seat))}) }),
}

// bar binds seat's opponent with b during its coming turn.
func (f *fold) bar(seat int, b Bars) {
	b.Card = f.Turn.Card
	f.Bars[1-seat] = b
}

// barring is a card barring the squares area gives for the square aimed at (none when
// the square may not be aimed at).
func barring(area func(s *State, sq chess.Square) chess.Bitboard) plays {
	return func(s *State, seat int) ([]play, string) {
		var out []play
		for sq := chess.A1; sq <= chess.H8; sq++ {
			if b := area(s, sq); b != 0 {
				out = append(out, play{targets: names(sq), do: func(f *fold) { f.bar(seat, Bars{Squares: b}) }})
			}
		}
		return out, "there is no square to bar"
	}
}

// rights are the castling rights of side c.
func rights(c chess.Color) chess.CastlingRights {
	if c == chess.White {
		return chess.WhiteKingSide | chess.WhiteQueenSide
	}
	return chess.BlackKingSide | chess.BlackQueenSide
}

func notKing(_ *State, _ chess.Square, pc chess.Piece) bool { return pc.Role != chess.King }
func isKing(_ *State, _ chess.Square, pc chess.Piece) bool  { return pc.Role == chess.King }
func isPawn(_ *State, _ chess.Square, pc chess.Piece) bool  { return pc.Role == chess.Pawn }
