package magicchess

import (
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/chess"
)

// homes are the squares a castling right needs its king and its rook to have stayed on.
var homes = []struct {
	right      chess.CastlingRights
	king, rook chess.Square
}{
	{chess.WhiteKingSide, chess.E1, chess.H1},
	{chess.WhiteQueenSide, chess.E1, chess.A1},
	{chess.BlackKingSide, chess.E8, chess.H8},
	{chess.BlackQueenSide, chess.E8, chess.A8},
}

// pieceIDs maps each occupied square to the ID of the piece on it.
func pieceIDs(p chess.Position) map[chess.Square]chess.PieceID {
	ids, _ := p.IDs()
	out := map[chess.Square]chess.PieceID{}
	for sq := chess.Square(0); sq < chess.NoSquare; sq++ {
		if _, ok := p.PieceAt(sq); ok {
			out[sq], ids = ids[0], ids[1:]
		}
	}
	return out
}

// keptRightsUnmoved fails if after holds a castling right whose king or rook is not the
// very piece that stood on its home square in before: a right is lost for good once
// either has moved, by a move or by a card, whatever stands on the square now.
func keptRightsUnmoved(t *testing.T, what string, before, after chess.Position) {
	t.Helper()
	b, a := pieceIDs(before), pieceIDs(after)
	for _, h := range homes {
		if after.Castling()&h.right == 0 {
			continue
		}
		if before.Castling()&h.right == 0 {
			t.Fatalf("%s: castling right %v came back", what, h.right)
		}
		if a[h.king] != b[h.king] || a[h.rook] != b[h.rook] {
			t.Fatalf("%s: castling right %v kept though its king or rook was moved (%s)", what, h.right, after.FEN())
		}
	}
}

// TestACardThatMovesAKingOrRookTakesItsCastlingRight lays every play of every card, and
// on the sparse positions every pair of plays (a rook moved away and back, swapped twice),
// for both sides, and checks that no castling right outlives its king or rook having
// moved. Ajedrez Mágico never offers a swap of two pieces of one role (so two rooks never
// trade corners) nor a swap of a king but Sanctuary's, which takes the king off its
// square; and a right, once gone, never comes back: so the board alone is enough here,
// unlike UnfairChess before unfair-2026.3. This test pins that.
func TestACardThatMovesAKingOrRookTakesItsCastlingRight(t *testing.T) {
	for _, c := range []struct {
		fen   string
		twice bool
	}{
		{start, false},
		{"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", false},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true},
		{"rn2k1nr/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1", true},
	} {
		s := table(t, c.fen, nil, nil)
		laid := 0
		for seat := range 2 {
			everyPlay(s, seat, func(f State, what string) {
				laid++
				keptRightsUnmoved(t, c.fen+" "+what, s.Pos, f.Pos)
				if c.twice {
					everyPlay(f, seat, func(g State, then string) {
						keptRightsUnmoved(t, c.fen+" "+what+" then "+then, s.Pos, g.Pos)
					})
				}
			})
		}
		if laid == 0 {
			t.Fatalf("%s: no card could be laid, the test checks nothing", c.fen)
		}
	}
}

// everyPlay calls after with the state after each play, not annulled, of every card
// for seat from s, and what names the card and its targets.
func everyPlay(s State, seat int, after func(f State, what string)) {
	ids := make([]string, 0, len(effects))
	for id := range effects {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		all, _ := effects[id](&s, seat)
		for _, p := range all {
			f := s
			if o := p.do(&f, seat); o.result != Annulled {
				after(f, id+" "+strings.Join(p.targets, ","))
			}
		}
	}
}

// TestNoCardTradesTwoRooksCorners pins why the board alone judges castling here: Swap
// and Confusion trade two pieces of different roles only, so two rooks never trade
// corners (the UnfairChess audit's case) and each keeps its corner's right only while it
// has not moved.
func TestNoCardTradesTwoRooksCorners(t *testing.T) {
	const fen = "rn2k1nr/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1"
	refuseCard(t, solo(t, fen, "swap"), "swap", at("a1", "h1"), "not one of the choices")
	refuseCard(t, solo(t, fen, "confusion"), "confusion", at("a8", "h8"), "not one of the choices")
	refuseCard(t, solo(t, fen, "swap"), "swap", at("e1", "h1"), "not one of the choices")
}
