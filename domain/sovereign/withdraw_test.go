package sovereign

import (
	"slices"
	"testing"
)

// standings fails unless p's Status gives each player the standing of want.
func standings(t *testing.T, p Position, want ...Standing) {
	t.Helper()
	if got := p.Status().Standings; !slices.Equal(got, want) {
		t.Errorf("%s: standings %v, want %v", p.Notation(), got, want)
	}
}

func TestWithdrawAPlayerNotToMove(t *testing.T) {
	// Slate withdraws while White is to move: its king leaves, its army turns neutral.
	p := pos(t, royaleKings+"wki1 wpe2 spo8 sro3", "1 w a s b - 0")
	if !p.Withdraw(2) {
		t.Fatal("Slate could not withdraw")
	}
	if _, ok := p.King(2); ok || !p.Withdrawn(2) || p.Owned(2) != NoColour || p.Turn() != 0 || p.Ply() != 0 {
		t.Fatalf("after Slate withdrew: %s", p.Notation())
	}
	if p.PieceAt(sq("p8")) != 0 {
		t.Errorf("Slate's king is still on p8: %s", p.Notation())
	}
	if c, ok := p.Controller(Slate); ok {
		t.Errorf("player %d controls the neutral slate army", c+1)
	}
	standings(t, p, Playing, Playing, Withdrawn, Playing)
	if p.RoyaleOver() {
		t.Fatal("over with three kings")
	}
	// The turns skip Slate.
	p = play(t, p, "e2e3")
	if p.Turn() != 1 {
		t.Fatalf("after White: player %d to move", p.Turn()+1)
	}
	p = play(t, p, "a9a8")
	if p.Turn() != 3 {
		t.Fatalf("after Ash: player %d to move, want Black (Slate withdrew)", p.Turn()+1)
	}
	p = play(t, p, "h16h15")
	if p.Turn() != 0 {
		t.Fatalf("after Black: player %d to move", p.Turn()+1)
	}
	// The notation writes the withdrawn player "-", and reads it back.
	if got, want := p.Notation(), board("aka8 bkh15 wki1 wpe3 spo8 sro3")+" 1 w a - b - 3"; got != want {
		t.Errorf("notation %s, want %s", got, want)
	}
	back, err := Parse(p.Notation())
	if err != nil || back.Notation() != p.Notation() || !back.Withdrawn(2) {
		t.Errorf("the withdrawal does not round-trip: %s %v", p.Notation(), err)
	}
}

func TestWithdrawThePlayerToMove(t *testing.T) {
	p := pos(t, royaleKings+"wki1 wpe2", "2 w a s b - 7")
	p.Withdraw(1)
	if p.Turn() != 2 || p.Ply() != 7 {
		t.Errorf("Ash was to move and withdrew: player %d to move at ply %d, want Slate at 7", p.Turn()+1, p.Ply())
	}
	p.Withdraw(2)
	if p.Turn() != 3 {
		t.Errorf("Slate was to move and withdrew: player %d to move, want Black", p.Turn()+1)
	}
	// Two players and two kings are left: White and Black alternate.
	p = play(t, p, "h16h15", "e2e3")
	if p.Turn() != 3 || p.RoyaleOver() {
		t.Errorf("%s: player %d to move, over %v", p.Notation(), p.Turn()+1, p.RoyaleOver())
	}
	standings(t, p, Playing, Withdrawn, Withdrawn, Playing)
}

func TestWithdrawTheLastKingButOneEndsTheGame(t *testing.T) {
	// White escaped earlier, Slate lost its king: Ash withdraws, Black's is the last king.
	// A withdrawal is a loss, an escape a tie.
	p := pos(t, "aka9 bkh16 bra1 wpe2", "4 w* a s b - 0")
	if !p.Withdraw(1) || !p.RoyaleOver() {
		t.Fatalf("Ash withdrew: %s, over %v", p.Notation(), p.RoyaleOver())
	}
	st := p.Status()
	if st.Result != LastKingStanding || !st.HasWinner || st.Winner != 3 {
		t.Errorf("status %+v", st)
	}
	standings(t, p, Tied, Lost, Lost, Won)
	if len(p.LegalMoves(nil)) != 0 {
		t.Error("moves after the end")
	}
	// An escaped player who withdraws no longer ties.
	p = pos(t, "aka9 bkh16 bra1 wpe2", "4 w* a s b - 0")
	p.Withdraw(0)
	if p.Escaped(0) || p.RoyaleOver() {
		t.Errorf("White withdrew: %s", p.Notation())
	}
	standings(t, p, Withdrawn, Playing, Interregnum, Playing)
	p.Withdraw(3)
	standings(t, p, Lost, Won, Lost, Lost)
}

func TestWithdrawnArmyIsNeutral(t *testing.T) {
	// Ash's knight stands on h9, a white square: once White withdraws, white is a neutral
	// colour that Ash controls, and Ash moves White's rook.
	p := pos(t, royaleKings+"wki1 wrc3 anh9", "1 w a s b - 0")
	if c, _ := p.Controller(White); c != 0 {
		t.Fatalf("white is controlled by player %d before the withdrawal", c+1)
	}
	p.Withdraw(0)
	if c, ok := p.Controller(White); !ok || c != 1 || p.Turn() != 1 {
		t.Fatalf("after White withdrew: white controlled by %d (%v), player %d to move", c+1, ok, p.Turn()+1)
	}
	expectMoves(t, p, "c3c4 c3d3", "")
	if p.Owned(1) != Ash {
		t.Error("Ash's own army changed")
	}
	// Ash may defect to the neutral white army it controls.
	expectMoves(t, p, "=w", "")
}

func TestWithdrawRefused(t *testing.T) {
	two := pos(t, "wki1 bki16", "1 w b - 0")
	if two.Withdraw(1) || two.Withdrawn(1) {
		t.Error("a two-player game has no withdrawal")
	}
	p := pos(t, royaleKings+"wki1", "1 w a s b - 0")
	for pl := Player(0); pl < 3; pl++ {
		if !p.Withdraw(pl) {
			t.Fatalf("player %d could not withdraw", pl+1)
		}
	}
	before := p.Notation()
	if p.Withdraw(0) || p.Withdraw(3) || p.Withdraw(4) || p.Notation() != before {
		t.Errorf("a second withdrawal, the last player's or a player out of range changed %s into %s", before, p.Notation())
	}
	if p.Turn() != 3 || before != board("bkh16")+" 4 - - - b - 0" {
		t.Errorf("three withdrew: %s", before)
	}
}

func TestWithdrawnNotation(t *testing.T) {
	for _, tc := range []struct{ notation, field string }{
		{board("wki1 bki16") + " 1 w - - 0", "owned"},               // two players never withdraw
		{board("wki1 aka9 bkh16") + " 3 w a - b - 0", "turn"},       // a withdrawn player has no turn
		{board(royaleKings+"wki1") + " 1 w a -* b - 0", "owned"},    // nor an escaped king
		{board("wki1 aka9 bkh16") + " 1 w a - b - 0", ""},           // Slate withdrew
		{board("wki1 aka9 skp8 bkh16") + " 1 w a - b - 0", "owned"}, // a slate king nobody owns
	} {
		_, err := Parse(tc.notation)
		var field string
		if ne, ok := err.(*NotationError); ok {
			field = ne.Field
		}
		if field != tc.field || (err == nil) != (tc.field == "") {
			t.Errorf("%s: %v, want an error in field %q", tc.notation, err, tc.field)
		}
	}
}

func TestGameWithdraw(t *testing.T) {
	g := NewGame(mustParse(board(royaleKings+"wki1 wpe2")+" 1 w a s b - 0"), Opening{})
	for _, m := range []string{"i1i2", "a9a8", "p8p7", "h16h15", "i2i1", "a8a9", "p7p8", "h15h16"} {
		if _, err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if g.Repetitions() != 2 || g.quiet != 8 {
		t.Fatalf("repetitions %d, quiet %d", g.Repetitions(), g.quiet)
	}
	if !g.Withdraw(2) || g.Repetitions() != 1 || g.quiet != 0 || len(g.Moves()) != 8 {
		t.Errorf("after the withdrawal: repetitions %d, quiet %d, %d moves", g.Repetitions(), g.quiet, len(g.Moves()))
	}
	if g.Withdraw(2) {
		t.Error("Slate withdrew twice")
	}
	if pos := g.Position(); !pos.Withdrawn(2) || pos.Turn() != 0 {
		t.Errorf("the game's position: %s", pos.Notation())
	}
}
