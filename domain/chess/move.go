package chess

// Move is a move of the side to move, packed in 16 bits: from (6), to (6), kind (4).
// Castling is written as the king's move (e1g1), as in UCI. A drop (a piece put from the
// hand onto the board, in bughouse) keeps the dropped role where a move keeps its origin.
// The zero Move is the null move "0000", which is never legal.
type Move uint16

type moveKind uint16

const (
	kindNormal    moveKind = 0
	kindCastle    moveKind = 1
	kindEnPassant moveKind = 2
	kindPromotion moveKind = 4 // | promotion role - Knight: 4 knight, 5 bishop, 6 rook, 7 queen
	kindDrop      moveKind = 8 // the from field holds the dropped role
)

func newMove(from, to Square, kind moveKind) Move {
	return Move(uint16(from) | uint16(to)<<6 | uint16(kind)<<12)
}

func newPromotion(from, to Square, r Role) Move {
	return newMove(from, to, kindPromotion|moveKind(r-Knight))
}

// Drop is the move that puts a piece of role r from the hand of the side to move on to
// (written "N@f3" in UCI and SAN). Whether it is legal is the position's to say.
func Drop(r Role, to Square) Move { return newMove(Square(r), to, kindDrop) }

// From is the square the moving piece leaves (the king's, for castling); NoSquare for a
// drop, whose piece comes from the hand.
func (m Move) From() Square {
	if m.kind() == kindDrop {
		return NoSquare
	}
	return m.from()
}

// from is the raw origin field: the dropped role, for a drop.
func (m Move) from() Square { return Square(m & 63) }

// IsDrop reports whether m puts a piece from the hand on the board.
func (m Move) IsDrop() bool { return m.kind() == kindDrop }

// DropRole is the role m drops, or NoRole if m is not a drop.
func (m Move) DropRole() Role {
	if m.kind() != kindDrop {
		return NoRole
	}
	return Role(m & 63)
}

// To is the square the moving piece reaches (the king's, for castling).
func (m Move) To() Square { return Square(m >> 6 & 63) }

func (m Move) kind() moveKind { return moveKind(m >> 12) }

// Promotion is the role a pawn promotes to, or NoRole.
func (m Move) Promotion() Role {
	if k := m.kind(); k&kindPromotion != 0 {
		return Knight + Role(k&3)
	}
	return NoRole
}

// IsCastling reports whether m is a castling (the rook moves too).
func (m Move) IsCastling() bool { return m.kind() == kindCastle }

// IsEnPassant reports whether m is an en-passant capture.
func (m Move) IsEnPassant() bool { return m.kind() == kindEnPassant }

// UCI is the move in UCI long algebraic notation: "e2e4", "e7e8q", "e1g1", "0000", and
// for a drop the role letter, "@" and the square: "P@e4", "N@f3" (as lichess and
// Fairy-Stockfish write them, the letter in upper case for either side).
func (m Move) UCI() string {
	var buf [5]byte
	return string(m.AppendUCI(buf[:0]))
}

// AppendUCI appends the move's UCI notation (see UCI) to b, for a caller that has the
// text already or writes it into a buffer of its own.
func (m Move) AppendUCI(b []byte) []byte {
	if m == 0 {
		return append(b, "0000"...)
	}
	if r := m.DropRole(); r != NoRole {
		return append(append(append(b, r.letter()), '@'), m.To().String()...)
	}
	b = append(b, m.From().String()...)
	b = append(b, m.To().String()...)
	if r := m.Promotion(); r != NoRole {
		b = append(b, r.letter()|0x20)
	}
	return b
}

func (m Move) String() string { return m.UCI() }
