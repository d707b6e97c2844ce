package chess

import (
	"errors"
	"testing"
)

func TestFENRoundTrip(t *testing.T) {
	for _, fen := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"8/8/8/8/8/8/8/K1k5 b - - 99 150",
	} {
		if got := mustFEN(t, fen).FEN(); got != fen {
			t.Errorf("ParseFEN(%q).FEN() = %q", fen, got)
		}
	}
}

func TestFENWithoutClocks(t *testing.T) {
	if got := mustFEN(t, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -").FEN(); got != "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1" {
		t.Errorf("got %q", got)
	}
}

// An en-passant square nobody can use is dropped, so that the position after 1. e4
// is the same whether the FEN said e3 or not.
func TestFENUselessEnPassantDropped(t *testing.T) {
	with := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	without := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	if with.FEN() != without.FEN() || with.Hash() != without.Hash() {
		t.Errorf("%q and %q differ", with.FEN(), without.FEN())
	}
	// dxe3 e.p. would take both pawns off the fourth rank and expose the h4 king to the
	// a4 rook: the capture is illegal, so the square is not kept.
	pinned := mustFEN(t, "8/8/8/8/R2pP2k/8/8/4K3 b - e3 0 1")
	if _, ok := pinned.EnPassant(); ok {
		t.Errorf("illegal en passant kept: %s", pinned.FEN())
	}
}

func TestFENErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct{ fen, field string }{
		{"", "fen"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -  0", "fen"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
		{"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
		{"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "board"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1", "board"},
		{"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "board"},
		{"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "board"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "turn"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", "castling"},
		{"rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "castling"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "en passant"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "en passant"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x", "fullmove"},
	} {
		_, err := ParseFEN(tc.fen)
		var fe *FENError
		if !errors.As(err, &fe) || fe.Field != tc.field || !errors.Is(err, ErrInvalidFEN) {
			t.Errorf("ParseFEN(%q) = %v, want a %q *FENError", tc.fen, err, tc.field)
		}
	}
}
