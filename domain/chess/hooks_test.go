package chess

import (
	"errors"
	"testing"
)

// The card games' hooks, each shown working with the one generator.

func TestAsleepPieceDoesNotMove(t *testing.T) {
	pos := StartingPosition()
	var r Restrictions
	r.Freeze(pos, id(t, pos, G1)) // the g1 knight falls asleep
	if got := movesFrom(pos, r, G1); got != "" {
		t.Errorf("asleep knight moves: %s", got)
	}
	if n := len(pos.LegalMovesWith(nil, r)); n != 18 {
		t.Errorf("%d moves with the g1 knight asleep, want 18", n)
	}
}

func TestAsleepPieceStillGivesCheck(t *testing.T) {
	// The black bishop on b4 is asleep but still checks the white king: the c1 knight
	// cannot block on c3 or d2, so the king must step aside.
	pos := mustFEN(t, "4k3/8/8/8/1b6/8/8/2N1K3 w - - 0 1")
	r := Restrictions{Frozen: BB(B4)}
	if !pos.InCheck() {
		t.Fatal("no check from the b4 bishop")
	}
	if got := movesFrom(pos, r, C1); got != "" {
		t.Errorf("knight moves not resolving the check: %s", got)
	}
	if got := movesFrom(pos, r, E1); got != "e1d1 e1e2 e1f1 e1f2" {
		t.Errorf("king moves %q", got)
	}
}

func TestAsleepKingOrRookCannotCastle(t *testing.T) {
	pos := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	if !has(pos, Restrictions{}, "e1g1") || !has(pos, Restrictions{}, "e1c1") {
		t.Fatal("castling missing without restrictions")
	}
	if r := (Restrictions{Frozen: BB(E1)}); has(pos, r, "e1g1") || has(pos, r, "e1c1") || movesFrom(pos, r, E1) != "" {
		t.Error("an asleep king moved or castled")
	}
	if r := (Restrictions{Frozen: BB(H1)}); has(pos, r, "e1g1") || !has(pos, r, "e1c1") {
		t.Error("castling with an asleep h1 rook")
	}
}

func TestShieldedPieceCannotBeCaptured(t *testing.T) {
	// The black queen on d2 checks; shielded, she cannot be taken: Kf1 is the only move.
	pos := mustFEN(t, "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1")
	if got := movesFrom(pos, Restrictions{}, E1); got != "e1d2 e1f1" {
		t.Fatalf("king moves %q", got)
	}
	r := Restrictions{Shielded: BB(D2)}
	if got := movesFrom(pos, r, E1); got != "e1f1" {
		t.Errorf("king moves with the queen shielded: %q, want e1f1", got)
	}
}

func TestShieldedPawnCannotBeTakenEnPassant(t *testing.T) {
	pos := mustFEN(t, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
	if !has(pos, Restrictions{}, "e5d6") {
		t.Fatal("exd6 e.p. missing")
	}
	if has(pos, Restrictions{Shielded: BB(D5)}, "e5d6") {
		t.Error("en passant took a shielded pawn")
	}
}

func TestForbiddenSquaresCannotBeEntered(t *testing.T) {
	pos := StartingPosition()
	r := Restrictions{Forbidden: BB(E4, F3)}
	if has(pos, r, "e2e4") || has(pos, r, "g1f3") || !has(pos, r, "e2e3") {
		t.Error("a move entered a forbidden square")
	}
	// Castling crosses f1: forbidden there, the king may not castle or step to f1.
	pos = mustFEN(t, "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
	r = Restrictions{Forbidden: BB(F1)}
	if has(pos, r, "e1g1") || has(pos, r, "e1f1") || has(pos, r, "h1f1") || !has(pos, r, "h1g1") {
		t.Errorf("moves through f1: %v", pos.LegalMovesWith(nil, r))
	}
}

func TestGrantedMovement(t *testing.T) {
	// The b1 knight moves as a queen for one move, on top of its own jumps.
	pos := mustFEN(t, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1")
	r := Restrictions{Grant: Grant{Piece: id(t, pos, B1), As: Queen}}
	for _, uci := range []string{"b1a3", "b1d2", "b1b8", "b1h7", "b1a1", "b1d1"} {
		if !has(pos, r, uci) {
			t.Errorf("granted knight cannot play %s", uci)
		}
	}
	if has(pos, r, "b1e1") || has(pos, r, "b1f1") {
		t.Error("granted knight went onto or through its own king")
	}
	if has(pos, Restrictions{}, "b1b8") {
		t.Error("the grant outlived its move")
	}
	m, err := pos.ParseMoveWith("Nh7", r)
	if err != nil || m.UCI() != "b1h7" || pos.SANWith(m, r) != "Nh7" {
		t.Errorf("granted move in SAN: %v %v", m, err)
	}
}

func TestGrantStillForbidsLeavingTheKingInCheck(t *testing.T) {
	// The e2 knight is pinned by the e7 rook. Granted a rook's movement it may slide
	// along the pin, up to taking the pinner, but never off the e-file.
	pos := mustFEN(t, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")
	r := Restrictions{Grant: Grant{Piece: id(t, pos, E2), As: Rook}}
	if got := movesFrom(pos, r, E2); got != "e2e3 e2e4 e2e5 e2e6 e2e7" {
		t.Errorf("pinned granted knight: %q", got)
	}
	if got := movesFrom(pos, Restrictions{}, E2); got != "" {
		t.Errorf("pinned knight moves: %q", got)
	}
	// A king granted a knight's jump still may not land on an attacked square.
	pos = mustFEN(t, "3rk3/8/8/8/8/8/8/4K3 w - - 0 1")
	r = Restrictions{Grant: Grant{Piece: id(t, pos, E1), As: Knight}}
	if got := movesFrom(pos, r, E1); got != "e1c2 e1e2 e1f1 e1f2 e1f3 e1g2" {
		t.Errorf("granted king: %q", got)
	}
	if !pos.IsLegalWith(newMove(E1, G2, kindNormal), r) || pos.IsLegal(newMove(E1, G2, kindNormal)) {
		t.Error("IsLegalWith does not see the grant")
	}
}

// A grant is its piece's alone: the king does not gain the squares another piece was
// granted (it once did, and a king could jump to a square a knight-leaping bishop
// reached, even onto the enemy king); and no granted movement takes a king, though it may
// reach one that nothing in the position attacks.
func TestAGrantIsItsPiecesAloneAndTakesNoKing(t *testing.T) {
	pos := mustFEN(t, "6k1/4B3/8/8/8/8/8/4K3 w - - 0 1")
	r := Restrictions{Grant: Grant{Piece: id(t, pos, E7), As: Knight}}
	if got, want := movesFrom(pos, r, E1), movesFrom(pos, Restrictions{}, E1); got != want {
		t.Errorf("the king with the bishop's grant: %q, without it %q", got, want)
	}
	if has(pos, r, "e7g8") || has(pos, r, "e1g8") {
		t.Errorf("a granted move takes the king: %v", pos.LegalMovesWith(nil, r))
	}
	if !has(pos, r, "e7g6") || !has(pos, r, "e7c8") {
		t.Errorf("the bishop's knight leaps: %v", pos.LegalMovesWith(nil, r))
	}
	// A king granted a rook's movement may not take the enemy king down an open file.
	pos = mustFEN(t, "6k1/8/8/8/8/8/8/6K1 w - - 0 1")
	r = Restrictions{Grant: Grant{Piece: id(t, pos, G1), As: Rook}}
	if has(pos, r, "g1g8") || !has(pos, r, "g1g6") {
		t.Errorf("the granted king: %v", pos.LegalMovesWith(nil, r))
	}
	// The generator of before the fix, kept for replays (GrantToKing), still gives them.
	pos = mustFEN(t, "6k1/4B3/8/8/8/8/8/4K3 w - - 0 1")
	r = Restrictions{Grant: Grant{Piece: id(t, pos, E7), As: Knight}, GrantToKing: true}
	if !has(pos, r, "e1c6") || !has(pos, r, "e7g8") {
		t.Errorf("the old generator: %v", pos.LegalMovesWith(nil, r))
	}
}

func TestGrantedPawnPromotes(t *testing.T) {
	// A b6 pawn granted a knight's jump reaches a8 and c8: it must promote there.
	pos := mustFEN(t, "4k3/8/1P6/8/8/8/8/4K3 w - - 0 1")
	r := Restrictions{Grant: Grant{Piece: id(t, pos, B6), As: Knight}}
	want := "b6a4 b6a8b b6a8n b6a8q b6a8r b6b7 b6c4 b6c8b b6c8n b6c8q b6c8r b6d5 b6d7"
	if got := movesFrom(pos, r, B6); got != want {
		t.Errorf("granted pawn: %q\nwant %q", got, want)
	}
	m, err := pos.ParseMoveWith("b6a8q", r)
	if err != nil {
		t.Fatal(err)
	}
	pawn := id(t, pos, B6)
	pos.Play(m)
	if pc, _ := pos.PieceAt(A8); pc != (Piece{White, Queen}) || id(t, pos, A8) != pawn {
		t.Errorf("a8 holds %v with ID %d, want the pawn's ID %d as a queen", pc, id(t, pos, A8), pawn)
	}
}

func TestPutAndRemove(t *testing.T) {
	pos := StartingPosition()
	qid, err := pos.Put(D4, Piece{White, Queen}) // a queen is summoned
	if err != nil {
		t.Fatal(err)
	}
	if qid != 33 || pos.Hash() != pos.computeHash() || !has(pos, Restrictions{}, "d4d7") {
		t.Errorf("summoned queen: id %d, hash ok %v", qid, pos.Hash() == pos.computeHash())
	}
	if _, err := pos.Put(D4, Piece{Black, Pawn}); !errors.Is(err, ErrInvalidPosition) {
		t.Errorf("Put on an occupied square: %v", err)
	}
	if _, err := pos.Put(D5, Piece{White, King}); !errors.Is(err, ErrInvalidPosition) {
		t.Errorf("Put of a second king: %v", err)
	}
	if pc, got, ok := pos.Remove(D4); !ok || got != qid || pc.Role != Queen {
		t.Errorf("Remove(d4) = %v %d %v", pc, got, ok)
	}
	if again, _ := pos.Put(D4, Piece{White, Queen}); again == qid {
		t.Error("a removed piece's ID was given again")
	}
	pos.Remove(H1) // banish the h1 rook: White loses O-O
	if pos.Castling() != WhiteQueenSide|BlackKingSide|BlackQueenSide || pos.Hash() != pos.computeHash() {
		t.Errorf("castling after removing h1: %v", pos.Castling())
	}
	if err := pos.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	pos.Remove(E8)
	if err := pos.Validate(); !errors.Is(err, ErrInvalidPosition) {
		t.Errorf("Validate without a black king: %v", err)
	}
	// White to move with the black king attacked is not a position.
	pos = mustFEN(t, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
	pos.Put(E5, Piece{White, Rook})
	var pe *PositionError
	if err := pos.Validate(); !errors.As(err, &pe) {
		t.Errorf("Validate with the side not to move in check: %v", err)
	}
}
