package sovereign

import "testing"

func TestRoyaleTurnOrder(t *testing.T) {
	p := RoyaleStartPosition()
	if p.Players() != 4 || p.Owned(1) != Ash || p.Owned(2) != Slate {
		t.Fatalf("royale start: %s", p.Notation())
	}
	for i, want := range []Player{1, 2, 3, 0, 1} {
		m := p.LegalMoves(nil)[0]
		p.Play(m)
		if p.Turn() != want || p.Next(want) != (want+1)%4 {
			t.Errorf("after move %d: turn %d, want %d", i+1, p.Turn(), want)
		}
	}
}

const royaleKings = "aka9 skp8 bkh16 "

func TestRoyaleCheckIsAllowedAndKingsAreCaptured(t *testing.T) {
	// White may ignore the check of the rook b1 (no checkmate in Royale) ...
	p := pos(t, royaleKings+"wki1 brb1 wpe2 apb9 spo8", "1 w a s b - 0")
	expectMoves(t, p, "e2e3 i1h1", "")
	p = play(t, p, "e2e3")
	// ... the check is announced ...
	if c := p.Checked(); len(c) != 1 || c[0] != 0 {
		t.Errorf("checks to announce: %v", c)
	}
	// ... and a following opponent takes the king: White is in Interregnum, still moves.
	p = play(t, p, "b9c9", "o8n8", "b1i1")
	if _, ok := p.King(0); ok || p.Status().Standings[0] != Interregnum || p.RoyaleOver() {
		t.Fatalf("after b1i1: %s %+v", p.Notation(), p.Status())
	}
	expectMoves(t, p, "e3e4", "")
}

func TestRoyaleNewKingEndsInterregnum(t *testing.T) {
	p := pos(t, royaleKings+"wpg6", "1 w a s b - 0")
	if p.Status().Standings[0] != Interregnum {
		t.Fatalf("no king, not in Interregnum: %+v", p.Status())
	}
	p = play(t, p, "g6g7k")
	if k, ok := p.King(0); !ok || k != sq("g7") || p.Status().Standings[0] != Playing {
		t.Errorf("long live the king: %s %+v", p.Notation(), p.Status())
	}
}

func TestRoyaleEscape(t *testing.T) {
	// Not in check, and every move would leave the king in check: it escapes.
	p := pos(t, royaleKings+"wka1 brb8 brc2", "1 w a s b - 0")
	got := p.LegalMoves(nil)
	if len(got) != 1 || !got[0].IsEscape() || got[0].String() != "escape" {
		t.Fatalf("moves %v, want [escape]", got)
	}
	p = play(t, p, "escape")
	if _, ok := p.King(0); ok || !p.Escaped(0) || p.Status().Standings[0] != Escaped || p.Turn() != 1 {
		t.Errorf("after escape: %s %+v", p.Notation(), p.Status())
	}
	back, err := Parse(p.Notation())
	if err != nil || !back.Escaped(0) {
		t.Errorf("escape mark does not round-trip: %s %v", p.Notation(), err)
	}
	// An army without a king and without a move passes.
	p = pos(t, royaleKings, "1 w a s b - 0")
	if got := p.LegalMoves(nil); len(got) != 1 || !got[0].IsPass() {
		t.Errorf("moves %v, want [pass]", got)
	}
	// A king in check with no move at all does not escape (the rulebook's escape is for a
	// king not in check): the rulebook does not require addressing a check, so the
	// player passes, and the king stays to be captured. Its green neighbours are nobody's.
	p = pos(t, royaleKings+"wka1 gra2 grb1 grb2 anc2", "1 w a s b - 0")
	if got := p.LegalMoves(nil); !p.InCheck(0) || len(got) != 1 || !got[0].IsPass() {
		t.Errorf("in check without a move: %v, want [pass]", got)
	}
}

func TestRoyaleLastKingStanding(t *testing.T) {
	// White escaped earlier, Slate lost its king; Black takes Ash's king and is the last.
	p := pos(t, "aka9 bkh16 bra1 wpe2", "4 w* a s b - 0")
	if p.RoyaleOver() {
		t.Fatal("over with two kings")
	}
	p = play(t, p, "a1a9")
	st := p.Status()
	want := []Standing{Tied, Lost, Lost, Won}
	if st.Result != LastKingStanding || !st.HasWinner || st.Winner != 3 {
		t.Errorf("status %+v", st)
	}
	for pl, w := range want {
		if st.Standings[pl] != w {
			t.Errorf("player %d: %v, want %v", pl+1, st.Standings[pl], w)
		}
	}
	if len(p.LegalMoves(nil)) != 0 {
		t.Error("moves after the end")
	}
}

func TestRoyaleCastlingOutOfCheck(t *testing.T) {
	p := pos(t, royaleKings+"wki1 wrl1 bbm5", "1 w a s b L 0")
	expectMoves(t, p, "i1k1O i1j1O", "")
	// The same position with two players: not out of check.
	expectMoves(t, pos(t, "wki1 wrl1 bbm5 bkh16", "1 w b L 0"), "", "i1k1O i1j1O")
}

func TestRoyaleStartCastlingRights(t *testing.T) {
	// Ash's king on a9 castles along the a file with its rooks a5 and a12 once the way is clear.
	p := pos(t, "wki1 aka9 ara5 ara12 skp8 bkh16", "2 w a s b a5a12 0")
	expectMoves(t, p, "a9a10O a9a11O a9a8O a9a6O", "a9a12O")
}
