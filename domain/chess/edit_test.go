package chess

import (
	"errors"
	"testing"
)

// The edits the card games make besides Put and Remove keep IDs, the hash and the rights
// consistent with the board.

func TestRelocateKeepsTheID(t *testing.T) {
	pos := StartingPosition()
	knight := id(t, pos, G1)
	if err := pos.Relocate(G1, E4); err != nil {
		t.Fatal(err)
	}
	if got := id(t, pos, E4); got != knight || pos.Turn() != White || pos.Hash() != pos.computeHash() {
		t.Errorf("relocated knight: id %d (want %d), turn %v, hash ok %v", got, knight, pos.Turn(), pos.Hash() == pos.computeHash())
	}
	if got := pos.FEN(); got != "rnbqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1" {
		t.Errorf("FEN %s", got)
	}
	if err := pos.Relocate(E4, E2); !errors.Is(err, ErrInvalidPosition) {
		t.Errorf("onto an occupied square: %v", err)
	}
	if err := pos.Relocate(E5, E6); !errors.Is(err, ErrInvalidPosition) {
		t.Errorf("from an empty square: %v", err)
	}
	// The h1 rook carried away: White can no longer castle short.
	pos = mustFEN(t, "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
	if err := pos.Relocate(H1, H4); err != nil || pos.Castling() != NoCastling || pos.Hash() != pos.computeHash() {
		t.Errorf("rook carried off h1: %v, castling %v", err, pos.Castling())
	}
}

func TestExchange(t *testing.T) {
	pos := StartingPosition()
	king, knight := id(t, pos, E1), id(t, pos, G1)
	if err := pos.Exchange(E1, G1); err != nil {
		t.Fatal(err)
	}
	if id(t, pos, G1) != king || id(t, pos, E1) != knight || pos.Hash() != pos.computeHash() {
		t.Errorf("exchanged: g1 %d e1 %d", id(t, pos, G1), id(t, pos, E1))
	}
	if pos.Castling() != BlackKingSide|BlackQueenSide {
		t.Errorf("the king left e1 but White keeps %v", pos.Castling())
	}
	if err := pos.Exchange(E1, E4); !errors.Is(err, ErrInvalidPosition) {
		t.Errorf("exchange with an empty square: %v", err)
	}
}

func TestSetColorAndSetRole(t *testing.T) {
	pos := mustFEN(t, "4k3/3p4/8/8/8/8/8/4K3 w - - 0 1")
	pawn := id(t, pos, D7)
	if err := pos.SetColor(D7, White); err != nil {
		t.Fatal(err)
	}
	if pc, _ := pos.PieceAt(D7); pc != (Piece{White, Pawn}) || id(t, pos, D7) != pawn || pos.Hash() != pos.computeHash() {
		t.Errorf("deserted pawn: %v id %d", pc, id(t, pos, D7))
	}
	if !has(pos, Restrictions{}, "d7d8q") {
		t.Error("the deserted pawn does not move as White's")
	}
	if err := pos.SetColor(E8, White); !errors.Is(err, ErrInvalidPosition) {
		t.Errorf("a king changed sides: %v", err)
	}
	if err := pos.SetRole(D7, Queen); err != nil {
		t.Fatal(err)
	}
	if pc, _ := pos.PieceAt(D7); pc != (Piece{White, Queen}) || id(t, pos, D7) != pawn || pos.Hash() != pos.computeHash() {
		t.Errorf("promoted by a card: %v id %d", pc, id(t, pos, D7))
	}
	if err := pos.SetRole(D7, King); !errors.Is(err, ErrInvalidPosition) {
		t.Errorf("a second king made: %v", err)
	}
	if err := pos.SetRole(E1, Queen); !errors.Is(err, ErrInvalidPosition) {
		t.Errorf("a king unmade: %v", err)
	}
}

func TestDropCastling(t *testing.T) {
	pos := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
	pos.DropCastling(BlackKingSide | BlackQueenSide)
	if pos.Castling() != WhiteKingSide|WhiteQueenSide || pos.Hash() != pos.computeHash() || has(pos, Restrictions{}, "e8g8") {
		t.Errorf("rights %v after dropping Black's", pos.Castling())
	}
}

func TestPassTurn(t *testing.T) {
	pos := mustFEN(t, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 7")
	pos.PassTurn()
	if got := pos.FEN(); got != "4k3/8/8/3pP3/8/8/8/4K3 b - - 1 7" || pos.Hash() != pos.computeHash() {
		t.Errorf("after a pass: %s", got)
	}
	pos.PassTurn()
	if got := pos.FEN(); got != "4k3/8/8/3pP3/8/8/8/4K3 w - - 2 8" || pos.Hash() != pos.computeHash() {
		t.Errorf("after two passes: %s", got)
	}
	if has(pos, Restrictions{}, "e5d6") {
		t.Error("en passant outlived the pass")
	}
}

func TestKingSquareAndAttacks(t *testing.T) {
	pos := StartingPosition()
	if s, ok := pos.KingSquare(Black); !ok || s != E8 {
		t.Errorf("black king on %v", s)
	}
	if Attacks(Knight, White, A1, 0) != BB(B3, C2) || Attacks(Rook, White, A1, BB(A3)) != BB(A2, A3, B1, C1, D1, E1, F1, G1, H1) {
		t.Error("attack patterns")
	}
	if Attacks(Pawn, Black, E5, 0) != BB(D4, F4) {
		t.Error("black pawn captures")
	}
}
