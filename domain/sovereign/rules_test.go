package sovereign

import (
	"errors"
	"slices"
	"testing"
)

// One test (or more) per rule of the issue and per decision of the board facts file,
// section 8. Positions are written in the notation, through board() for brevity.

func TestBoardArmiesAndIDs(t *testing.T) {
	p := StartPosition()
	ids, colours, kings := map[PieceID]bool{}, map[Colour]int{}, 0
	for s := 0; s < 256; s++ {
		if pc := p.PieceAt(Square(s)); pc != 0 {
			ids[p.PieceID(Square(s))] = true
			colours[pc.Colour()]++
			if pc.Role() == King {
				kings++
			}
		}
	}
	if len(ids) != 112 || len(colours) != 12 || kings != 2 || colours[White] != 16 || colours[Ash] != 8 || colours[Pink] != 8 {
		t.Errorf("start: %d pieces, colours %v, %d kings", len(ids), colours, kings)
	}
	if c, _ := p.Controller(White); c != 0 {
		t.Error("White is not player 1's")
	}
	if c, _ := p.Controller(Black); c != 1 {
		t.Error("Black is not player 2's")
	}
	if _, ok := p.Controller(Pink); ok {
		t.Error("pink is controlled at the start")
	}
	// A piece keeps its ID when it moves; a promoted pawn keeps its ID.
	e2, _ := ParseSquare("e2")
	id := p.PieceID(e2)
	p = play(t, p, "e2e4")
	if sq, ok := p.SquareOf(id); !ok || sq.String() != "e4" {
		t.Errorf("the e2 pawn's ID is on %v", sq)
	}
	q := pos(t, "wki1 bki16 wpg6", "1 w b - 0")
	g6, _ := ParseSquare("g6")
	id = q.PieceID(g6)
	q = play(t, q, "g6g7q")
	if sq, _ := q.SquareOf(id); sq.String() != "g7" || q.PieceAt(sq) != NewPiece(White, Queen) {
		t.Errorf("promoted pawn: ID on %v, piece %v", sq, q.PieceAt(sq))
	}
}

func TestRangeAndOwnColourSquares(t *testing.T) {
	// A rook on i4: eight squares at most (i12, a4), never stopping on a white square (i8),
	// passing over it and stopping on other colours' squares (i6 pink, i9 black, i11 violet).
	p := pos(t, "wki1 bki16 wri4", "1 w b - 0")
	expectMoves(t, p, "i4i5 i4i6 i4i7 i4i9 i4i10 i4i11 i4i12 i4a4 i4p4", "i4i8 i4i13")
	// A knight may not land on its own colour either: a black knight on g6 skips h8.
	p = pos(t, "wki1 bki16 bng6", "2 w b - 0")
	expectMoves(t, p, "g6i7 g6f8 g6e7", "g6h8")
}

func TestPawnDirections(t *testing.T) {
	for _, tc := range []struct {
		pieces, from string
		want         []string
	}{
		// Board facts, section 6: h3 only h4; k4 to j4 or k5; l4 captures k5, k3, m5, not m3.
		{"wph3", "h3", []string{"h3h4"}},
		{"wpk4", "k4", []string{"k4j4", "k4k5"}},
		{"wpl4 bpk5 bpk3 bpm5 bpm3", "l4", []string{"l4k3", "l4k4", "l4k5", "l4l5", "l4m5"}},
		// Rulebook figure 3: d9 moves e9, captures e10, e8 (green there; white here).
		{"wpd9 bpe10 bpe8 bpc10 bpc8", "d9", []string{"d9e10", "d9e8", "d9e9"}},
		// d5: moves d6, e5 (a navy square); captures c6, e6, e4.
		{"wpd5 bpc6 bpe6 bpe4 bpc4", "d5", []string{"d5c6", "d5d6", "d5e4", "d5e5", "d5e6"}},
		// e1 (reached by a capture): e2, e3 (two squares from ring 1), f1; captures d2, f2.
		{"wpe1 bpd2 bpf2", "e1", []string{"e1d2", "e1e2", "e1e3", "e1f1", "e1f2"}},
		// h2: h3, h4; captures g3, i3.
		{"wph2 bpg3 bpi3", "h2", []string{"h2g3", "h2h3", "h2h4", "h2i3"}},
		// Two squares from ring 2 away from the closest edge: b5 goes to d5.
		{"wpb5", "b5", []string{"b5b6", "b5c5", "b5d5"}},
		// A square as close to two edges (b2): both ways (our decision).
		{"wpb2", "b2", []string{"b2b3", "b2b4", "b2c2", "b2d2"}},
		// The two-square move needs the square passed over empty.
		{"wph2 bph3", "h2", nil},
	} {
		p := pos(t, "wki1 bki16 "+tc.pieces, "1 w b - 0")
		got := movesFrom(p, tc.from)
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: pawn on %s moves %v, want %v", tc.pieces, tc.from, got, tc.want)
		}
	}
}

func TestPawnNoEnPassant(t *testing.T) {
	p := pos(t, "wki1 bki16 wpe2 bpd4", "1 w b - 0")
	p = play(t, p, "e2e4")
	expectMoves(t, p, "d4d5", "d4e3")
}

func TestPawnPromotion(t *testing.T) {
	// h6 (a violet square) to h7, and captures on g7 (ash) and i7: all promote, to a
	// queen, rook, bishop, knight or king of the pawn's colour; never stay a pawn.
	p := pos(t, "wki1 bki16 wph6 bng7 bni7", "1 w b - 0")
	expectMoves(t, p, "h6h7q h6h7r h6h7b h6h7n h6h7k h6g7q h6i7k", "h6h7")
	for s, want := range map[string]error{"h6h7": ErrIllegalMove, "h6h7p": ErrMalformedMove} {
		var me *MoveError
		if _, err := p.ParseMove(s); !errors.As(err, &me) || !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", s, err, want)
		}
	}
	// A pink pawn (White controls pink through i6) promotes to a pink piece.
	p = pos(t, "wki1 bki16 wpi6 ppg6", "1 w b - 0")
	p = play(t, p, "g6g7r")
	if g7, _ := ParseSquare("g7"); p.PieceAt(g7) != NewPiece(Pink, Rook) {
		t.Errorf("g7: %v", p.PieceAt(g7))
	}
}

func TestControlFigure4(t *testing.T) {
	// Rulebook figure 4: White controls navy (pawn e5), pink (pawn i6) and cyan (the pink
	// pawn on k9); Black controls red (pawn e12) and green (the red pawn on k11); the black
	// bishop on h9 gives Black nothing (White owns white); the violet queen on k8 (an
	// orange square) is neutral.
	p := pos(t, "wki1 bki16 wpe5 wpi6 ppk9 bpe12 rpk11 bbh9 vqk8 wne7 wrk2", "1 w b - 0")
	want := map[Colour]int{White: 0, Navy: 0, Pink: 0, Cyan: 0, Black: 1, Red: 1, Green: 1,
		Violet: -1, Orange: -1, Ash: -1, Slate: -1, Yellow: -1}
	for c, w := range want {
		got := -1
		if pl, ok := p.Controller(c); ok {
			got = int(pl)
		}
		if got != w {
			t.Errorf("%v: controller %d, want %d", c, got, w)
		}
	}
	// The twins of occupied squares are closed (f9 by the violet queen on k8); the neutral
	// queen cannot be captured.
	expectMoves(t, p, "e7d9 k2k7", "e7f9 k2k8")
	// Leaving the square gives the colour up: the pawn e5 steps off, navy is nobody's.
	p = play(t, p, "e5f5")
	if _, ok := p.Controller(Navy); ok {
		t.Error("navy still controlled after e5f5")
	}
}

func TestControlChainsAndCaptureRule(t *testing.T) {
	// Only pieces the opponent controls may be captured: the neutral pink pawn on d2
	// blocks the white knight and the bishop; the black pawn on f3 can be taken.
	p := pos(t, "wki1 bki16 wnf1 ppd2 bpf3 wbc1", "1 w b - 0")
	expectMoves(t, p, "c1b2", "f1d2 c1d2")
	p = pos(t, "wki1 bki16 wbe2 bpf3", "1 w b - 0")
	expectMoves(t, p, "e2f3", "")
	// A neutral piece on a square of colour blocks its twin and cannot move: the navy
	// knight on f6 (green) is nobody's, and nobody may go to k11.
	p = pos(t, "wki1 bki16 nnf6 wrk4", "1 w b - 0")
	expectMoves(t, p, "k4k10 k4k12", "k4k11")
	if len(movesFrom(p, "f6")) != 0 {
		t.Error("the neutral knight moves")
	}
}

func TestControlCycle(t *testing.T) {
	// A pink knight on a yellow square and a yellow knight on a pink square: a cycle that
	// reaches no owned colour controls nothing (decisions 8: cycles guarded).
	p := pos(t, "wki1 bki16 pnf11 yni6", "1 w b - 0")
	for _, c := range []Colour{Pink, Yellow} {
		if pl, ok := p.Controller(c); ok {
			t.Errorf("%v controlled by %d", c, pl)
		}
	}
	if len(movesFrom(p, "f11")) != 0 || len(movesFrom(p, "i6")) != 0 {
		t.Error("a neutral knight moves")
	}
}

func TestMoveToTwinSquare(t *testing.T) {
	// Decision: a piece on a square of colour may go straight to its twin (queen l5 to
	// e12, both red); any other piece may not, while l5 is occupied.
	p := pos(t, "wki1 bki16 wql5 wre4", "1 w b - 0")
	expectMoves(t, p, "l5e12 e4e11", "e4e12")
}

func TestRegimeChange(t *testing.T) {
	// Coup d'état: an owned pawn crowns a king; the old king leaves; White still owns white.
	p := play(t, pos(t, "wki1 bki16 wpg6", "1 w b - 0"), "g6g7k")
	if k, _ := p.King(0); k.String() != "g7" || p.PieceAt(sq("i1")) != 0 || p.Owned(0) != White {
		t.Errorf("coup: %s", p.Notation())
	}
	// Overthrow: a controlled (navy) pawn crowns a navy king; White's army turns neutral.
	p = play(t, pos(t, "wki1 bki16 wpe5 npg6 wrl1", "1 w b - 0"), "g6g7k")
	if p.Owned(0) != Navy || p.PieceAt(sq("g7")) != NewPiece(Navy, King) || p.PieceAt(sq("i1")) != 0 {
		t.Errorf("overthrow: %s", p.Notation())
	}
	if _, ok := p.Controller(White); ok {
		t.Error("overthrow: white is still controlled")
	}
	// Defection is a move: the king turns navy, nothing else moves.
	p = pos(t, "wki1 bki16 wpe5", "1 w b - 0")
	p = play(t, p, "=n")
	if p.Owned(0) != Navy || p.PieceAt(sq("i1")) != NewPiece(Navy, King) || p.Turn() != 1 {
		t.Errorf("defection: %s", p.Notation())
	}
	// A king standing on a square of its new colour must move off it in the same turn.
	p = pos(t, "wke5 bki16", "1 w b - 0")
	expectMoves(t, p, "=ne5e4 =ne5f6", "=n")
	// ... and if it cannot, there is no defection: after it, the white pawns around are
	// neutral (not capturable) and the black rook covers f6.
	p = pos(t, "wke5 wpd4 wpd5 wpd6 wpe4 wpe6 wpf4 wpf5 brf13 bki16", "1 w b - 0")
	for m := range legalSet(p) {
		if m[0] == '=' {
			t.Errorf("defection %s with the king boxed in", m)
		}
	}
}

// Two players capture no king, not even with the move a defection forces: the slate
// king on k6 (a yellow square, so it controls yellow) defects to yellow and must leave
// k6; the black king on j7 stood safe from slate on a slate square, but a yellow king
// could take it. Every other way off k6 stays legal.
func TestDefectionNeverCapturesTheKing(t *testing.T) {
	p := pos(t, "bpa10 bkj7 skk6 spa3", "2 b s - 0")
	expectMoves(t, p, "=yk6j5 =yk6k5 =yk6l5 =yk6l6 =yk6l7", "=yk6j7")
	if _, err := p.ParseMove("=yk6j7"); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("=yk6j7: %v, want an illegal move", err)
	}
}

// The generator of before rulebook-2017.3, kept to replay the matches recorded then
// (KingTakes), still takes that king.
func TestDefectionTookTheKingBefore20173(t *testing.T) {
	p := pos(t, "bpa10 bkj7 skk6 spa3", "2 b s - 0").KingTakes()
	expectMoves(t, p, "=yk6j5 =yk6j7 =yk6k5 =yk6l5 =yk6l6 =yk6l7", "")
}

func TestRegimeChangeAndCheck(t *testing.T) {
	// A regime change may escape check: the rook a1 checks i1; crowning a king on g7
	// removes the checked king.
	p := pos(t, "wki1 bra1 wpg6 bki16", "1 w b - 0")
	expectMoves(t, p, "g6g7k", "g6g7q")
	// It may not create one: g7 is on the black bishop's diagonal (over e5 and f6).
	p = pos(t, "wki1 bbd4 wpg6 bki16", "1 w b - 0")
	expectMoves(t, p, "g6g7q", "g6g7k")
	// Defecting to navy gives up white; the black bishop on h9 then gives Black the
	// white army, whose rook on a1 would check the king.
	expectMoves(t, pos(t, "wki1 wra1 wpe5 bki16", "1 w b - 0"), "=n", "")
	expectMoves(t, pos(t, "wki1 wra1 wpe5 bbh9 bki16", "1 w b - 0"), "", "=n")
}

func TestCheckEscapes(t *testing.T) {
	for _, tc := range []struct {
		name, pieces, want, not string
	}{
		{"out of the line", "wka1 bra8", "a1b1", "a1a2"},
		{"out of range", "wka2 bra10", "a2a1", "a2a3"},
		{"onto the checker's colour", "wkh7 brh2", "h7h8", "h7h6"},
		{"block", "wka1 bra8 wrc4", "c4a4", "c4c5"},
		{"capture", "wka1 bra8 wrc8", "c8a8", "c8c7"},
		// The red rook is Black's through the pawn on e12; taking that pawn gives White red.
		{"control by capture", "wka1 rra8 bpe12 wnd10", "d10e12", "d10c12"},
		{"coup d'état", "wki1 bra1 wpg6", "g6g7k", "g6g7q g6g7n"},
	} {
		p := pos(t, tc.pieces+" bkp16", "1 w b - 0")
		if !p.InCheck(0) {
			t.Errorf("%s: not in check", tc.name)
		}
		t.Run(tc.name, func(t *testing.T) { expectMoves(t, p, tc.want, tc.not) })
	}
}

func TestCheckmateAndStalemate(t *testing.T) {
	p := pos(t, "wka1 bra8 brb8 bkp16", "1 w b - 0")
	if st := p.Status(); st.Result != Checkmate || !st.HasWinner || st.Winner != 1 || st.Standings[0] != Lost {
		t.Errorf("mate: %+v", st)
	}
	p = pos(t, "wka1 brb8 brc2 bkp16", "1 w b - 0")
	if st := p.Status(); st.Result != Stalemate || st.HasWinner || st.Standings[1] != Tied {
		t.Errorf("stalemate: %+v", st)
	}
	// Regime changes count as moves: a stuck pawn on f11 gives White yellow, so "=y" is a
	// move and the game goes on.
	p = pos(t, "wka1 brb8 brc2 bkp16 wpf11 bnf10 bng11", "1 w b - 0")
	if got := p.LegalMoves(nil); len(got) != 1 || got[0].String() != "=y" || p.Status().Result != Ongoing {
		t.Errorf("moves %v, status %+v", got, p.Status())
	}
}

func TestCastling(t *testing.T) {
	p := pos(t, "wki1 wre1 wrl1 bki16", "1 w b EL 0")
	expectMoves(t, p, "i1j1O i1k1O i1h1O i1g1O i1f1O i1j1 i1h1", "i1l1O i1e1O")
	after := play(t, p, "i1f1O")
	if after.PieceAt(sq("f1")).Role() != King || after.PieceAt(sq("g1")) != NewPiece(White, Rook) || after.PieceAt(sq("e1")) != 0 {
		t.Errorf("i1f1O: %s", after.Notation())
	}
	if after.castlingField() != "-" {
		t.Errorf("rights after castling: %s", after.castlingField())
	}
	// Not through check (j1 attacked by the rook on j9), not into it, not out of it.
	expectMoves(t, pos(t, "wki1 wre1 wrl1 bki16 brj9", "1 w b EL 0"), "i1h1O", "i1j1O i1k1O")
	expectMoves(t, pos(t, "wki1 wre1 wrl1 bki16 bbm5", "1 w b EL 0"), "", "i1h1O i1k1O")
	// A moved rook no longer castles.
	p = play(t, p, "l1l2", "i16j16", "l2l1", "j16i16")
	expectMoves(t, p, "i1h1O", "i1k1O")
	// With a rook of another colour only while controlling it (pink, through i6).
	expectMoves(t, pos(t, "wki1 prc1 bki16", "1 w b C 0"), "", "i1d1O")
	p = pos(t, "wki1 prc1 wpi6 bki16", "1 w b C 0")
	expectMoves(t, p, "i1d1O i1h1O", "")
	if q := play(t, p, "i1d1O"); q.PieceAt(sq("e1")) != NewPiece(Pink, Rook) || q.PieceAt(sq("d1")).Role() != King {
		t.Errorf("i1d1O: %s", q.Notation())
	}
	// A king that has only defected may still castle.
	p = play(t, p, "=p", "i16j16")
	expectMoves(t, p, "i1f1O", "")
}

// "A player may castle with their king and a rook that they either own or control, as
// long as neither piece has moved during the game" (rulebook, Castling). The white
// king's move off a1 moves neither Black's king nor its rook: the rook on a16 shares
// file a with a1, but it is Black's king on p16, on its own edge, that castles with it.
// Under rulebook-2017.5 the white king's move took that right away (ClearsSharedEdges).
// Found by the independent model of domain/games/sovereignchess (TestModelPlayouts).
func TestAKingsMoveKeepsTheRightsOfAnotherKingsRook(t *testing.T) {
	p := pos(t, "wka1 wrp1 wpe2 bkp16 bra16 bpe15", "1 w b Pa 0")
	expectMoves(t, p, "a1i1O", "a1h1O a1j1O")
	p = play(t, p, "a1a2")
	expectMoves(t, p, "p16h16O", "p16i16O p16g16O")
	old := play(t, pos(t, "wka1 wrp1 wpe2 bkp16 bra16 bpe15", "1 w b Pa 0").ClearsSharedEdges(), "a1a2")
	expectMoves(t, old, "", "p16h16O")
	// Another unmoved king's own right stays too: two kings on rank 1.
	p = play(t, pos(t, "wki1 wrp1 bka1 brc1 wpe2 bpe15", "1 w b CP 0"), "i1i2")
	expectMoves(t, p, "a1b1O", "")
}

func TestParseMoveErrors(t *testing.T) {
	p := StartPosition()
	for s, want := range map[string]error{
		"": ErrMalformedMove, "e2": ErrMalformedMove, "e2e4x": ErrMalformedMove, "=z": ErrMalformedMove,
		"a17a18": ErrMalformedMove, "e2e2": ErrMalformedMove, "=ye2e4q": ErrMalformedMove,
		"e2e5": ErrIllegalMove, "=y": ErrIllegalMove, "d2d3": ErrIllegalMove, "i1j1O": ErrIllegalMove, "escape": ErrIllegalMove,
	} {
		var me *MoveError
		if _, err := p.ParseMove(s); !errors.As(err, &me) || !errors.Is(err, want) {
			t.Errorf("%q: %v, want %v", s, err, want)
		}
	}
}

func sq(s string) Square {
	q, ok := ParseSquare(s)
	if !ok {
		panic(s)
	}
	return q
}
