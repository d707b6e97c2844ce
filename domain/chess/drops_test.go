package chess

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Bughouse drops, shown on positions a player can set up: the pockets are the bracket in
// the FEN ("[N]": White holds a knight).

// drops lists, sorted, the UCI of the legal drops.
func drops(p Position) string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		if m.IsDrop() {
			out = append(out, m.UCI())
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func TestClassicPositionHasNoPockets(t *testing.T) {
	pos := StartingPosition()
	if pos.HasPockets() || pos.FEN() != StartFEN || drops(pos) != "" {
		t.Errorf("start: pockets %v, FEN %s, drops %q", pos.HasPockets(), pos.FEN(), drops(pos))
	}
	// The same board with (empty) pockets is the same chess position: same hash.
	zh := mustFEN(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1")
	if !zh.HasPockets() || zh.Hash() != pos.Hash() || len(zh.LegalMoves(nil)) != 20 {
		t.Errorf("empty pockets: hash %x vs %x, %d moves", zh.Hash(), pos.Hash(), len(zh.LegalMoves(nil)))
	}
}

func TestDropBlocksCheck(t *testing.T) {
	// The e8 rook checks the white king down the e-file; White holds a knight. The
	// knight may be dropped between rook and king (e2 to e7) and nowhere else.
	pos := mustFEN(t, "4r2k/8/8/8/8/8/8/4K3[N] w - - 0 1")
	if got := drops(pos); got != "N@e2 N@e3 N@e4 N@e5 N@e6 N@e7" {
		t.Errorf("drops in check: %s", got)
	}
	if _, err := pos.DropMove(Knight, A4); !errors.Is(err, ErrLeavesKingInCheck) || !errors.Is(err, ErrIllegalMove) {
		t.Errorf("N@a4 ignoring the check: %v", err)
	}
	m, err := pos.ParseMove("N@e2")
	if err != nil || m != Drop(Knight, E2) {
		t.Fatalf("N@e2: %v %v", m, err)
	}
	pos.Play(m)
	if pos.InCheck() || pos.Pocket(White) != (Pocket{}) || pos.Hash() != pos.computeHash() {
		t.Errorf("after N@e2: %s, hash ok %v", pos.FEN(), pos.Hash() == pos.computeHash())
	}
	if got := pos.FEN(); got != "4r2k/8/8/8/8/8/4N3/4K3[] b - - 1 1" {
		t.Errorf("FEN %s", got)
	}
}

func TestNoDropAgainstContactOrDoubleCheck(t *testing.T) {
	// A knight checks from f3: nothing stands between, so no drop helps.
	if got := drops(mustFEN(t, "4k3/8/8/8/8/5n2/8/4K3[QRBNP] w - - 0 1")); got != "" {
		t.Errorf("drops against a knight check: %s", got)
	}
	// Rook e8 and bishop b4 both check: only the king may move.
	pos := mustFEN(t, "k3r3/8/8/8/1b6/8/8/4K3[QRBNP] w - - 0 1")
	if got := drops(pos); got != "" {
		t.Errorf("drops in double check: %s", got)
	}
	if _, err := pos.ParseMove("Q@e4"); !errors.Is(err, ErrLeavesKingInCheck) {
		t.Errorf("Q@e4 in double check: %v", err)
	}
}

func TestPawnDropRanks(t *testing.T) {
	// Bare kings, White holds a pawn: every empty square of ranks 2 to 7 (48 of them).
	pos := mustFEN(t, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")
	n := 0
	for _, m := range pos.LegalMoves(nil) {
		if m.IsDrop() {
			if r := m.To().Rank(); r == 0 || r == 7 {
				t.Errorf("pawn dropped on %v", m.To())
			}
			n++
		}
	}
	if n != 48 {
		t.Errorf("%d pawn drops, want 48", n)
	}
	for _, tc := range []struct {
		drop string
		want error
	}{
		{"P@a8", ErrPawnDropRank}, {"P@h1", ErrPawnDropRank}, {"P@e1", ErrSquareOccupied},
		{"N@c3", ErrNotInHand}, {"K@c3", ErrNotInHand}, {"P@i3", ErrMalformedMove}, {"X@c3", ErrMalformedMove},
	} {
		var me *MoveError
		if _, err := pos.ParseMove(tc.drop); !errors.Is(err, tc.want) || !errors.As(err, &me) {
			t.Errorf("%s: %v, want %v", tc.drop, err, tc.want)
		}
	}
	// A pawn dropped on its second rank may advance two squares.
	pos.Play(Drop(Pawn, D2))
	pos.Play(mustMove(t, pos, "Kf8"))
	if _, err := pos.ParseMove("d4"); err != nil {
		t.Errorf("d2-d4 after P@d2: %v", err)
	}
	// Black's pawn drops keep off ranks 1 and 8 as well.
	black := mustFEN(t, "4k3/8/8/8/8/8/8/4K3[p] b - - 0 1")
	if _, err := black.ParseMove("P@c1"); !errors.Is(err, ErrPawnDropRank) {
		t.Errorf("black P@c1: %v", err)
	}
	if m, err := black.ParseMove("@c2"); err != nil || m != Drop(Pawn, C2) {
		t.Errorf("black @c2: %v %v", m, err)
	}
}

func mustMove(t testing.TB, p Position, s string) Move {
	t.Helper()
	m, err := p.ParseMove(s)
	if err != nil {
		t.Fatalf("%s in %s: %v", s, p.FEN(), err)
	}
	return m
}

func TestDropMates(t *testing.T) {
	for _, tc := range []struct{ name, fen, san string }{
		// Smothered: king h8 walled in by its rook and pawns, a knight from the hand.
		{"knight", "6rk/6pp/8/8/8/8/8/4K3[N] w - - 0 1", "N@f7#"},
		// A pawn drop mates too (the standard rules allow it): g7 is guarded by the king.
		{"pawn", "7k/5K1p/8/8/8/8/8/8[P] w - - 0 1", "P@g7#"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos := mustFEN(t, tc.fen)
			m := mustMove(t, pos, tc.san)
			if got := pos.SAN(m); got != tc.san {
				t.Errorf("SAN %s, want %s", got, tc.san)
			}
			g := NewGame(pos)
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
			if o := g.Outcome(); o != (Outcome{Over: true, Winner: White, Reason: Checkmate}) {
				t.Errorf("outcome %+v", o)
			}
		})
	}
	// The a2 bishop checks the g8 king from afar; Black holds a knight and may drop it
	// on any square between.
	pos := mustFEN(t, "6k1/6pp/8/8/8/8/B7/4K3[n] b - - 0 1")
	if got := drops(pos); got != "N@b3 N@c4 N@d5 N@e6 N@f7" {
		t.Errorf("blocking drops %q", got)
	}
	if !pos.DropCouldBlock() {
		t.Error("DropCouldBlock false against a bishop check from afar")
	}
}

func TestDropCheckSAN(t *testing.T) {
	pos := mustFEN(t, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")
	if got := pos.SAN(Drop(Queen, E4)); got != "Q@e4+" {
		t.Errorf("SAN %s", got)
	}
	if m := mustMove(t, pos, "Q@e4+"); m != Drop(Queen, E4) || m.UCI() != "Q@e4" || m.From() != NoSquare || m.DropRole() != Queen {
		t.Errorf("parsed %v", m)
	}
	if Drop(Queen, E4).Promotion() != NoRole || Drop(Queen, E4).IsCastling() || E2.String() == Drop(Pawn, E4).UCI() {
		t.Error("a drop read as another kind of move")
	}
}

func TestDroppedPieceGetsNewID(t *testing.T) {
	pos := mustFEN(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w KQkq - 0 1")
	pos.Play(mustMove(t, pos, "N@e4"))
	if got := id(t, pos, E4); got != 33 {
		t.Errorf("dropped knight has ID %d, want 33 (the 32 pieces have 1..32)", got)
	}
	pos.Play(mustMove(t, pos, "e6"))
	pos.Play(mustMove(t, pos, "Nf6+")) // the dropped knight moves on, keeping its ID
	if got := id(t, pos, F6); got != 33 {
		t.Errorf("the dropped knight's ID became %d", got)
	}
}

func TestDropRespectsForbiddenSquares(t *testing.T) {
	pos := mustFEN(t, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")
	r := Restrictions{Forbidden: BB(D4)}
	if has(pos, r, "N@d4") || !has(pos, r, "N@d5") {
		t.Error("a drop entered a forbidden square, or none was generated")
	}
	if _, err := pos.DropMoveWith(Knight, D4, r); !errors.Is(err, ErrIllegalMove) || errors.Is(err, ErrNotInHand) {
		t.Errorf("forbidden drop: %v", err)
	}
	if m, err := pos.DropMoveWith(Knight, D5, r); err != nil || m != Drop(Knight, D5) {
		t.Errorf("allowed drop: %v %v", m, err)
	}
}

func TestPromotedPieceCapturedGoesToPartnerAsPawn(t *testing.T) {
	// White promotes on a8 with check; Black's rook takes the new queen. In bughouse the
	// partner receives a (white) pawn, not a queen.
	pos := mustFEN(t, "4k3/P7/8/8/8/8/r7/4K3[] w - - 0 1")
	pos.Play(mustMove(t, pos, "a8=Q+"))
	if !pos.Promoted(A8) || pos.FEN() != "Q~3k3/8/8/8/8/8/r7/4K3[] b - - 0 1" {
		t.Errorf("after a8=Q: promoted %v, FEN %s", pos.Promoted(A8), pos.FEN())
	}
	takes := mustMove(t, pos, "Rxa8")
	if pc, ok := pos.CaptureToPartner(takes); !ok || pc != (Piece{White, Pawn}) {
		t.Errorf("captured promoted queen passes on as %v %v", pc, ok)
	}
	pos.Play(takes)
	if pos.Promoted(A8) {
		t.Error("the capturing rook inherited the promoted mark")
	}
	// A queen that was never a pawn passes on as a queen; an en-passant capture, a pawn.
	q := mustFEN(t, "Q3k3/8/8/8/8/8/r7/4K3[] b - - 0 1")
	if pc, ok := q.CaptureToPartner(mustMove(t, q, "Rxa8")); !ok || pc != (Piece{White, Queen}) {
		t.Errorf("captured queen passes on as %v %v", pc, ok)
	}
	ep := mustFEN(t, "4k3/8/8/3pP3/8/8/8/4K3[] w - d6 0 1")
	if pc, ok := ep.CaptureToPartner(mustMove(t, ep, "exd6")); !ok || pc != (Piece{Black, Pawn}) {
		t.Errorf("en passant passes on %v %v", pc, ok)
	}
	if _, ok := ep.CaptureToPartner(mustMove(t, ep, "Kd2")); ok {
		t.Error("a quiet move captured something")
	}
	// The promoted mark follows the piece and survives a FEN round trip.
	pos = mustFEN(t, "4k3/1Q~6/8/8/8/8/8/4K3[] w - - 0 1")
	pos.Play(mustMove(t, pos, "Qb5+"))
	if !pos.Promoted(B5) || pos.Promoted(B7) {
		t.Errorf("mark did not follow the queen: %s", pos.FEN())
	}
}

func TestPartnerReceivesCapturedPiece(t *testing.T) {
	// Board A: White (Alice) takes Black's knight; her partner Bob plays Black on board
	// B and receives it, then drops it there.
	a := mustFEN(t, "rnbqkb1r/pppppppp/8/8/4n3/3P4/PPP1PPPP/RNBQKBNR[] w KQkq - 0 1")
	b := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1")
	takes := mustMove(t, a, "dxe4")
	pc, ok := a.CaptureToPartner(takes)
	if !ok || pc != (Piece{Black, Knight}) {
		t.Fatalf("passes on %v %v", pc, ok)
	}
	before := b.Hash()
	if err := b.AddToPocket(pc); err != nil {
		t.Fatal(err)
	}
	if b.Pocket(Black) != (Pocket{Knight: 1}) || b.Hash() == before || b.Hash() != b.computeHash() {
		t.Errorf("pocket %v, hash changed %v", b.Pocket(Black), b.Hash() != before)
	}
	if got := b.FEN(); got != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[n] b KQkq - 0 1" {
		t.Errorf("FEN %s", got)
	}
	b.Play(mustMove(t, b, "N@d3+"))
	if !b.InCheck() || b.Pocket(Black).Len() != 0 {
		t.Errorf("after N@d3+: %s", b.FEN())
	}
	if err := b.AddToPocket(Piece{White, King}); !errors.Is(err, ErrInvalidPosition) {
		t.Errorf("a king in hand: %v", err)
	}
}

func TestPocketFEN(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", ""},
		{"r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[QRBNPPqrbnpp] b KQkq - 0 1", ""},
		// Any order in, queens first and White first out.
		{"2k5/8/8/8/8/8/8/4K3[pnPQ] w - - 0 1", "2k5/8/8/8/8/8/8/4K3[QPnp] w - - 0 1"},
		// The ninth-rank form, as in the shakmaty perft tables.
		{"4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1", "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1"},
		{"4k3/8/8/8/8/8/8/4K3/Nn w - -", "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1"},
	} {
		p := mustFEN(t, tc.in)
		want := tc.out
		if want == "" {
			want = tc.in
		}
		if got := p.FEN(); got != want {
			t.Errorf("%s: FEN %s, want %s", tc.in, got, want)
		}
		back := mustFEN(t, p.FEN())
		if back.FEN() != p.FEN() || back.Hash() != p.Hash() || p.Hash() != p.computeHash() {
			t.Errorf("%s does not round-trip", tc.in)
		}
	}
	for _, bad := range []string{
		"4k3/8/8/8/8/8/8/4K3[K] w - - 0 1",   // no king in hand
		"4k3/8/8/8/8/8/8/4K3[N w - - 0 1",    // unclosed
		"4k3/8/8/8/8/8/8/4K3[N]] w - - 0 1",  // twice
		"4k3/8/8/8/8/8/8/4K3[N]x w - - 0 1",  // text after
		"4k3/1Q~6/8/8/8/8/8/4K3 w - - 0 1",   // promoted mark without pockets
		"4k3/1P~6/8/8/8/8/8/4K3[] w - - 0 1", // a promoted pawn
		"4k3/8/8/8/8/8/8/4K3[" + strings.Repeat("P", 64) + "] w - - 0 1",
	} {
		var fe *FENError
		if _, err := ParseFEN(bad); !errors.As(err, &fe) {
			t.Errorf("%s accepted: %v", bad, err)
		}
	}
}

func TestPocketsInHash(t *testing.T) {
	a := mustFEN(t, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")
	b := mustFEN(t, "4k3/8/8/8/8/8/8/4K3[B] w - - 0 1")
	c := mustFEN(t, "4k3/8/8/8/8/8/8/4K3[n] w - - 0 1")
	if a.Hash() == b.Hash() || a.Hash() == c.Hash() {
		t.Error("different hands, same hash")
	}
	var h Pocket
	h[Bishop] = 1
	if err := a.SetPocket(White, h); err != nil || a.Hash() != b.Hash() || a.FEN() != b.FEN() {
		t.Errorf("SetPocket: %v, %s", err, a.FEN())
	}
	if c.InsufficientMaterial() || !mustFEN(t, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1").InsufficientMaterial() {
		t.Error("a knight in hand does not count as material")
	}
}

// The crazyhouse perft tables of shakmaty, the move generator behind lichess
// (github.com/niklasf/shakmaty, tests/crazyhouse.perft; the same 75353 for the first
// position is in the perft tests of the Dart package bishop). Crazyhouse is bughouse on
// one board: a capture goes to the capturer's own hand, in its own color; crazyhousePerft
// plays that rule on top of the hook, so the tables check drops, pockets, promoted pieces
// reverting to pawns, and that a drop is generated exactly where it is legal.
var crazyhousePerfts = []struct {
	name   string
	fen    string
	counts []uint64
}{
	{"zh-all-drop-types", "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - -", []uint64{301, 75353}},
	{"zh-drops", "2k5/8/8/8/8/8/8/4K3[Qn] w - -", []uint64{67, 3083, 88634, 932554}},
	{"zh-middlegame", "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq -", []uint64{42, 1347, 58057, 2083382}},
	{"zh-promoted", "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1", []uint64{20, 360, 5445, 132758}},
}

func TestCrazyhousePerft(t *testing.T) {
	for _, tc := range crazyhousePerfts {
		t.Run(tc.name, func(t *testing.T) {
			pos := mustFEN(t, tc.fen)
			for d, want := range tc.counts {
				if got := crazyhousePerft(t, pos, d+1); got != want {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
		})
	}
}

func crazyhousePerft(t testing.TB, p Position, depth int) uint64 {
	moves := p.LegalMoves(nil)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		c := p
		pc, captured := c.CaptureToPartner(m)
		c.Play(m)
		if captured {
			if err := c.AddToPocket(Piece{pc.Color.Other(), pc.Role}); err != nil {
				t.Fatal(err)
			}
		}
		n += crazyhousePerft(t, c, depth-1)
	}
	return n
}

func TestDropsInPGN(t *testing.T) {
	start := mustFEN(t, "6rk/6pp/8/8/8/8/8/4K3[NNr] b - - 0 1")
	var moves []Move
	pos := start
	for _, s := range []string{"R@e8+", "N@e2", "Rb8", "N@f7#"} {
		m := mustMove(t, pos, s)
		moves = append(moves, m)
		pos.Play(m)
	}
	pgn, err := WritePGN(Tags{}, start, moves)
	if err != nil || !strings.Contains(pgn, "1... R@e8+ 2. N@e2 Rb8 3. N@f7# 1-0") || !strings.Contains(pgn, `[FEN "6rk/6pp/8/8/8/8/8/4K3[NNr] b - - 0 1"]`) {
		t.Fatalf("PGN (%v):\n%s", err, pgn)
	}
	_, back, got, err := ParsePGN(pgn)
	if err != nil || back.FEN() != start.FEN() || !slices.Equal(got, moves) {
		t.Errorf("read back: %v %v (%v)", back.FEN(), got, err)
	}
}
