package sovereign

import (
	"errors"
	"testing"
)

func TestOpeningKeepOrRefuse(t *testing.T) {
	for _, keep := range []bool{true, false} {
		g := NewGame(StartPosition(), NewOpening(1))
		if g.Opening.FirstMover != 1 || g.Opening.Chooser() != 0 {
			t.Fatalf("opening %+v", g.Opening)
		}
		if _, err := g.Play("e2e4"); err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play("e15e13"); !errors.Is(err, ErrChoicePending) || !g.ChoicePending() {
			t.Fatalf("Black moved before the choice: %v", err)
		}
		g.Opening.Choose(keep)
		white, _ := g.Opening.SeatOf(0)
		black, _ := g.Opening.SeatOf(1)
		want := Seat(1) // refused: the first mover plays White
		if keep {
			want = 0 // kept: the chooser plays White
		}
		if white != want || black != 1-want {
			t.Errorf("keep=%v: White seat %d, Black seat %d", keep, white, black)
		}
		_, err := g.Play("e15e13")
		if p := g.Position(); err != nil || p.Turn() != 0 {
			t.Errorf("keep=%v: Black's move after the choice: %v", keep, err)
		}
	}
	if _, ok := NewOpening(0).SeatOf(0); ok {
		t.Error("seats known before the choice")
	}
}

func TestGameRepetition(t *testing.T) {
	g := NewGame(StartPosition(), Opening{Decided: true, Kept: true})
	for i := 0; i < 2; i++ {
		for _, m := range []string{"f1e3", "f16e14", "e3f1", "e14f16"} {
			if _, err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if g.Repetitions() != 3 || !g.ClaimableDraw() || g.AutomaticDraw() {
		t.Errorf("repetitions %d, claimable %v, automatic %v", g.Repetitions(), g.ClaimableDraw(), g.AutomaticDraw())
	}
	if len(g.Moves()) != 8 || g.Start().Notation() != StartNotation {
		t.Error("history lost")
	}
	var me *MoveError
	if _, err := g.Play("e2e5"); !errors.As(err, &me) {
		t.Errorf("illegal move: %v", err)
	}
}

// "All rules of traditional chess apply": the fifty-move rule is fifty moves by each
// player without a capture or a pawn move. With four players that is 200 plies, not the
// 100 of two players; a withdrawal starts the count again, and from then on each round
// has one ply fewer. (The whole claim, played: TestRoyaleFiftyMoveClaimIsFiftyMovesEach.)
func TestFiftyMovesAreFiftyByEachPlayer(t *testing.T) {
	two := NewGame(StartPosition(), Opening{Decided: true})
	royale := NewGame(RoyaleStartPosition(), Opening{})
	if two.FiftyMovePlies() != 100 || royale.FiftyMovePlies() != 200 {
		t.Errorf("fifty moves each: %d plies with two players, %d in Royale", two.FiftyMovePlies(), royale.FiftyMovePlies())
	}
	if !royale.Withdraw(2) || royale.FiftyMovePlies() != 150 || royale.QuietPlies() != 0 {
		t.Errorf("after Slate withdrew: %d plies, %d quiet", royale.FiftyMovePlies(), royale.QuietPlies())
	}
}
