package chess

import (
	"errors"
	"strings"
	"testing"
)

func TestSAN(t *testing.T) {
	for _, tc := range []struct{ fen, uci, san string }{
		{StartFEN, "e2e4", "e4"},
		{StartFEN, "g1f3", "Nf3"},
		{"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "f3e5", "Nxe5"},
		{"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1", "Rad1"},                               // file tells them apart
		{"4k3/R7/8/8/8/8/8/R3K3 w - - 0 1", "a1a4", "R1a4"},                               // rank does
		{"7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "a4b3", "Qa4b3"},                             // both needed
		{"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "Ra8+"},                                // check
		{"3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O+"},                              // castling gives check
		{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O"},                                 // castling
		{"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#"}, // fool's mate
		{"8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8q", "a8=Q"},
		{"1r5k/P7/8/8/8/8/8/K7 w - - 0 1", "a7b8n", "axb8=N"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6"}, // en passant
	} {
		pos := mustFEN(t, tc.fen)
		m, err := pos.ParseMove(tc.uci)
		if err != nil {
			t.Errorf("%s: %v", tc.fen, err)
			continue
		}
		if got := pos.SAN(m); got != tc.san {
			t.Errorf("%s %s: SAN %q, want %q", tc.fen, tc.uci, got, tc.san)
		}
		if back, err := pos.ParseMove(tc.san); err != nil || back != m {
			t.Errorf("%s: ParseMove(%q) = %v, %v", tc.fen, tc.san, back, err)
		}
	}
}

func TestParseMoveIsLenient(t *testing.T) {
	for _, tc := range []struct{ fen, in, uci string }{
		{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "0-0", "e1g1"},
		{StartFEN, "Nf3!?", "g1f3"},
		{StartFEN, "Ng1f3", "g1f3"},
		{"8/P6k/8/8/8/8/8/K7 w - - 0 1", "a8Q", "a7a8q"},
		{"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "Ne5", "f3e5"},
	} {
		if m, err := mustFEN(t, tc.fen).ParseMove(tc.in); err != nil || m.UCI() != tc.uci {
			t.Errorf("ParseMove(%q) = %v, %v; want %s", tc.in, m, err, tc.uci)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	for _, tc := range []struct {
		fen, in string
		want    error
	}{
		{StartFEN, "", ErrMalformedMove},
		{StartFEN, "e9", ErrMalformedMove},
		{StartFEN, "Zf3", ErrMalformedMove},
		{StartFEN, "Nf3f3f3", ErrMalformedMove},
		{StartFEN, "e2e5", ErrIllegalMove},
		{StartFEN, "Nf6", ErrIllegalMove},
		{StartFEN, "O-O", ErrIllegalMove},
		{StartFEN, "0000", ErrIllegalMove},
		{"8/P6k/8/8/8/8/8/K7 w - - 0 1", "a8", ErrIllegalMove}, // promotion is compulsory
		{"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rd1", ErrAmbiguousMove},
	} {
		_, err := mustFEN(t, tc.fen).ParseMove(tc.in)
		var me *MoveError
		if !errors.As(err, &me) || !errors.Is(err, tc.want) || me.Input != tc.in {
			t.Errorf("ParseMove(%q) = %v, want %v", tc.in, err, tc.want)
		}
	}
}

// AppendSAN and AppendFEN append to what a buffer holds exactly what SAN and FEN write.
func TestAppendSANAndFENAppend(t *testing.T) {
	g := NewGame(StartingPosition())
	for _, s := range strings.Fields("e4 d5 exd5 Qxd5 Nc3 Qa5 d4 c6 Nf3 Bg4 Bf4 e6 h3 Bxf3 Qxf3 Bb4 Be2 Nd7 a3 O-O-O") {
		pos := g.Position()
		for _, m := range pos.LegalMoves(nil) {
			if got, want := string(pos.AppendSAN([]byte("1. "), m)), "1. "+pos.SAN(m); got != want {
				t.Fatalf("%s: AppendSAN wrote %q, want %q", pos.FEN(), got, want)
			}
		}
		if got, want := string(pos.AppendFEN([]byte("fen "))), "fen "+pos.FEN(); got != want {
			t.Fatalf("AppendFEN wrote %q, want %q", got, want)
		}
		play(t, g, s)
	}
}
