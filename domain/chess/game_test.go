package chess

import (
	"errors"
	"strings"
	"testing"
)

// play plays a line of SAN or UCI moves, failing the test on the first bad one.
func play(t *testing.T, g *Game, line string) {
	t.Helper()
	for _, s := range strings.Fields(line) {
		m, err := g.Position().ParseMove(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// playFrom starts a game at fen and plays line.
func playFrom(t *testing.T, fen, line string) *Game {
	t.Helper()
	g := NewGame(mustFEN(t, fen))
	play(t, g, line)
	return g
}

func wantDraw(t *testing.T, g *Game, why Reason) {
	t.Helper()
	if got := g.Outcome(); got != (Outcome{Over: true, Winner: NoColor, Reason: why}) {
		t.Errorf("outcome %+v, want a draw by %v", got, why)
	}
}

func TestFoolsMate(t *testing.T) {
	g := NewGame(StartingPosition())
	play(t, g, "f3 e5 g4 Qh4")
	want := Outcome{Over: true, Winner: Black, Reason: Checkmate}
	if got := g.Outcome(); got != want {
		t.Errorf("outcome %+v, want %+v", got, want)
	}
	if err := g.Play(newMove(E2, E4, kindNormal)); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("a move after mate: %v", err)
	}
	if len(g.Moves()) != 4 || g.Start().FEN() != StartFEN {
		t.Error("history lost")
	}
}

func TestStalemate(t *testing.T) {
	wantDraw(t, playFrom(t, "7k/8/6K1/5Q2/8/8/8/8 w - - 0 1", "Qf7"), Stalemate)
}

func TestIllegalMoveRejected(t *testing.T) {
	g := NewGame(StartingPosition())
	err := g.Play(newMove(E2, E5, kindNormal))
	var me *MoveError
	if !errors.As(err, &me) || !errors.Is(err, ErrIllegalMove) || len(g.Moves()) != 0 {
		t.Errorf("e2e5: %v", err)
	}
}

func TestRepetition(t *testing.T) {
	g := NewGame(StartingPosition())
	// The rooks go out and back: the pieces stand as at the start but the castling
	// rights are gone, so this is not a repetition of the starting position.
	play(t, g, "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8")
	if r, ok := g.ClaimableDraw(); ok {
		t.Fatalf("claim %v after losing castling rights", r)
	}
	play(t, g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8") // third occurrence
	if r, ok := g.ClaimableDraw(); !ok || r != ThreefoldRepetition || g.Outcome().Over {
		t.Fatalf("after a threefold repetition: claim %v %v, outcome %+v", r, ok, g.Outcome())
	}
	play(t, g, "Nf3 Nf6 Ng1 Ng8") // fourth
	if g.Outcome().Over {
		t.Fatal("over before the fifth occurrence")
	}
	// With both knights out and White to move for the fifth time (the first was after
	// Rh8), the game is drawn.
	play(t, g, "Nf3 Nf6")
	wantDraw(t, g, FivefoldRepetition)
}

func TestFiftyAndSeventyFiveMoves(t *testing.T) {
	if _, ok := NewGame(mustFEN(t, "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80")).ClaimableDraw(); ok {
		t.Fatal("claim at 99 plies")
	}
	g := playFrom(t, "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80", "Ra2")
	if r, ok := g.ClaimableDraw(); !ok || r != FiftyMoves {
		t.Errorf("claim at 100 plies: %v %v", r, ok)
	}
	wantDraw(t, playFrom(t, "4k3/8/8/8/8/8/4P3/R3K3 w - - 149 120", "Ra2"), SeventyFiveMoves)
	// A pawn move resets the count.
	g = playFrom(t, "4k3/8/8/8/8/8/4P3/R3K3 w - - 149 120", "e4")
	if g.Outcome().Over || g.Position().HalfmoveClock() != 0 {
		t.Error("a pawn move did not reset the clock")
	}
	// Mate on the 150th ply is mate (FIDE 9.6.2).
	g = playFrom(t, "6k1/5ppp/8/8/8/8/8/R3K3 w - - 149 120", "Ra8")
	if got := g.Outcome(); got.Reason != Checkmate || got.Winner != White {
		t.Errorf("mate on the 150th ply: %+v", got)
	}
}

func TestInsufficientMaterial(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		dead bool
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},      // K v K
		{"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true},    // K+B v K
		{"4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", true},    // K+N v K
		{"2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false}, // bishops on opposite colors
		{"3bk3/8/8/8/8/8/8/2B1K3 w - - 0 1", true},   // bishops on one color
		{"4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", false},  // K+N+N v K: mate is possible
		{"1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false}, // K+B v K+N
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false},
	} {
		if got := mustFEN(t, tc.fen).InsufficientMaterial(); got != tc.dead {
			t.Errorf("%s: insufficient %v, want %v", tc.fen, got, tc.dead)
		}
	}
	wantDraw(t, playFrom(t, "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", "Kxd2"), InsufficientMaterial)
}

func TestPieceIdentity(t *testing.T) {
	g := NewGame(StartingPosition())
	start := g.Position()
	knight, pawn := id(t, start, G1), id(t, start, E2)
	blackPawn := id(t, start, D7)
	play(t, g, "e4 d5 exd5 Nf6 Nf3")
	pos := g.Position()
	if id(t, pos, F3) != knight || id(t, pos, D5) != pawn {
		t.Error("moving pieces changed IDs")
	}
	if _, ok := pos.SquareOf(blackPawn); ok {
		t.Error("the captured d7 pawn is still on the board")
	}
	if s, ok := pos.SquareOf(pawn); !ok || s != D5 {
		t.Errorf("SquareOf(e-pawn) = %v, %v", s, ok)
	}
	// En passant: the capturing pawn keeps its ID, the captured one's disappears.
	g = NewGame(mustFEN(t, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"))
	pos = g.Position()
	capturer, victim := id(t, pos, E5), id(t, pos, D7)
	play(t, g, "d5 exd6")
	pos = g.Position()
	if id(t, pos, D6) != capturer {
		t.Error("en passant changed the capturer's ID")
	}
	if _, ok := pos.SquareOf(victim); ok {
		t.Error("the pawn taken en passant is still there")
	}
}

func TestReplayEqualsPlay(t *testing.T) {
	played, replayed := NewGame(StartingPosition()), NewGame(StartingPosition())
	for _, san := range []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"} {
		m, err := played.Position().ParseMove(san)
		if err != nil {
			t.Fatal(err)
		}
		if err := played.Play(m); err != nil {
			t.Fatal(err)
		}
		replayed.Replay(m)
	}
	if played.Position().FEN() != replayed.Position().FEN() || played.Position().Hash() != replayed.Position().Hash() || len(replayed.Moves()) != 7 {
		t.Fatalf("Replay and Play differ: %s vs %s", played.Position().FEN(), replayed.Position().FEN())
	}
}

// OutcomeAfter is the outcome a clone gives once the move is played, for every legal move
// of every position of the lines below (mates, a fivefold repetition, the 75-move rule,
// dead positions), and leaves the game as it was.
func TestOutcomeAfterIsTheOutcomeOfTheMovePlayed(t *testing.T) {
	seen := map[Reason]bool{}
	for _, tc := range []struct{ fen, line string }{
		{StartFEN, "f3 e5 g4"},
		{StartFEN, "e4 e5 Qh5 Nc6 Bc4 Nf6"},
		{StartFEN, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"},
		{"4k3/8/8/8/8/8/4P3/R3K3 w - - 148 120", "Ra2"},
		{"k7/8/8/2Q5/8/8/8/7K w - - 0 1", ""},
		{"8/8/8/4k3/8/8/3q4/4K3 w - - 0 1", ""},
	} {
		g := NewGame(mustFEN(t, tc.fen))
		check := func() {
			t.Helper()
			before, moves := g.Position(), len(g.Moves())
			for _, m := range before.LegalMoves(nil) {
				want := g.Clone()
				want.Replay(m)
				seen[want.Outcome().Reason] = true
				if got := g.OutcomeAfter(m); got != want.Outcome() {
					t.Errorf("%s, %s then %s: OutcomeAfter %+v, played %+v", tc.fen, tc.line, m.UCI(), got, want.Outcome())
				}
				if g.Position() != before || len(g.Moves()) != moves {
					t.Fatalf("%s, %s: OutcomeAfter(%s) changed the game", tc.fen, tc.line, m.UCI())
				}
			}
		}
		check()
		for _, s := range strings.Fields(tc.line) {
			play(t, g, s)
			check()
		}
	}
	for r := Checkmate; r <= InsufficientMaterial; r++ {
		if !seen[r] {
			t.Errorf("no move tried ends the game by %v", r)
		}
	}
}
