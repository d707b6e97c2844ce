package chess

// CastlingRights is the set of castlings still allowed by the history of the game
// (whether one is possible now also depends on the board).
type CastlingRights uint8

// The four castling rights.
const (
	WhiteKingSide CastlingRights = 1 << iota
	WhiteQueenSide
	BlackKingSide
	BlackQueenSide
	NoCastling CastlingRights = 0
)

// castleLoss[s] is the set of rights kept when a move leaves or enters s: moving the king
// or a rook, or capturing a rook on its home square, loses the matching rights.
var castleLoss = func() (t [64]CastlingRights) {
	for s := range t {
		t[s] = 15
	}
	t[E1] &^= WhiteKingSide | WhiteQueenSide
	t[H1] &^= WhiteKingSide
	t[A1] &^= WhiteQueenSide
	t[E8] &^= BlackKingSide | BlackQueenSide
	t[H8] &^= BlackKingSide
	t[A8] &^= BlackQueenSide
	return t
}()

// Position is a chess position: a value, cheap to copy (a few hundred bytes), so trying
// a move is a copy followed by Play. It holds bitboards, a mailbox of roles and piece
// IDs, the side to move, castling rights, the en-passant square, the move clocks and an
// incrementally kept Zobrist hash; for bughouse, the pieces in hand ([Pocket]).
type Position struct {
	byColor  [2]Bitboard
	byRole   [7]Bitboard // index NoRole unused
	roles    [64]Role
	ids      [64]PieceID
	hash     uint64
	nextID   PieceID
	ep       Square // NoSquare unless an en-passant capture is legal
	turn     Color
	castling CastlingRights
	halfmove int32 // plies since the last capture or pawn move
	fullmove int32 // starts at 1, incremented after Black's move
	// hands and promoted serve bughouse (drops.go) and stay zero in classic chess: the
	// pieces in hand packed six bits per role and side, and the promoted pieces.
	hands    uint64
	promoted Bitboard
}

// StartingPosition is the initial position of a game of chess, IDs 1..32 from a1 to h8.
func StartingPosition() Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic(err)
	}
	return p
}

// StartFEN is the FEN of the starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Turn is the side to move.
func (p Position) Turn() Color { return p.turn }

// Hash is the Zobrist hash, kept incrementally by Play, Put and Remove.
func (p Position) Hash() uint64 { return p.hash }

// Castling is the set of castling rights.
func (p Position) Castling() CastlingRights { return p.castling }

// EnPassant is the square a pawn may capture en passant on this move, if any.
func (p Position) EnPassant() (Square, bool) { return p.ep, p.ep != NoSquare }

// HalfmoveClock is the number of plies since the last capture or pawn move.
func (p Position) HalfmoveClock() int { return int(p.halfmove) }

// FullmoveNumber is the move number, starting at 1.
func (p Position) FullmoveNumber() int { return int(p.fullmove) }

// Occupied is the set of occupied squares.
func (p Position) Occupied() Bitboard { return p.occupied() }

// Pieces is the set of squares holding pieces of color c and role r.
func (p Position) Pieces(c Color, r Role) Bitboard {
	if c > Black || r > King {
		return 0
	}
	return p.byColor[c] & p.byRole[r]
}

// PieceAt is the piece on s, if any.
func (p Position) PieceAt(s Square) (Piece, bool) {
	if s >= NoSquare || p.roles[s] == NoRole {
		return Piece{}, false
	}
	return Piece{Color: p.colorAt(s), Role: p.roles[s]}, true
}

// PieceID is the identity of the piece on s, if any.
func (p Position) PieceID(s Square) (PieceID, bool) {
	if s >= NoSquare || p.roles[s] == NoRole {
		return 0, false
	}
	return p.ids[s], true
}

// SquareOf is where the piece id stands, if it is on the board.
func (p Position) SquareOf(id PieceID) (Square, bool) {
	if id == 0 {
		return NoSquare, false
	}
	for b := p.occupied(); b != 0; b &= b - 1 {
		if s := b.first(); p.ids[s] == id {
			return s, true
		}
	}
	return NoSquare, false
}

// SquaresOf is the set of squares of the given pieces that are on the board: the way
// card effects naming pieces by ID become Restrictions masks.
func (p Position) SquaresOf(ids ...PieceID) Bitboard {
	var b Bitboard
	for _, id := range ids {
		if s, ok := p.SquareOf(id); ok {
			b |= s.bb()
		}
	}
	return b
}

// InCheck reports whether the side to move is in check.
func (p Position) InCheck() bool { return p.checkers() != 0 }

// Attacked reports whether a piece of color by attacks s.
func (p Position) Attacked(s Square, by Color) bool {
	return s < NoSquare && by <= Black && p.attackersTo(s, p.occupied())&p.byColor[by] != 0
}

func (p *Position) occupied() Bitboard { return p.byColor[White] | p.byColor[Black] }

func (p *Position) colorAt(s Square) Color {
	if p.byColor[Black].Has(s) {
		return Black
	}
	return White
}

func (p *Position) kingSquare(c Color) Square {
	k := p.byColor[c] & p.byRole[King]
	if k == 0 {
		return NoSquare
	}
	return k.first()
}

// attackersTo is every piece, of either color, attacking s given occupancy occ.
func (p *Position) attackersTo(s Square, occ Bitboard) Bitboard {
	return pawnAttacks[White][s]&p.byColor[Black]&p.byRole[Pawn] |
		pawnAttacks[Black][s]&p.byColor[White]&p.byRole[Pawn] |
		knightAttacks[s]&p.byRole[Knight] |
		kingAttacks[s]&p.byRole[King] |
		bishopAttacks(s, occ)&(p.byRole[Bishop]|p.byRole[Queen]) |
		rookAttacks(s, occ)&(p.byRole[Rook]|p.byRole[Queen])
}

// checkers is the set of enemy pieces giving check to the side to move.
func (p *Position) checkers() Bitboard {
	k := p.kingSquare(p.turn)
	if k == NoSquare {
		return 0
	}
	return p.attackersTo(k, p.occupied()) & p.byColor[p.turn^1]
}

// place and lift change the board and the hash; they know nothing of rules.
func (p *Position) place(s Square, c Color, r Role, id PieceID) {
	b := s.bb()
	p.byColor[c] |= b
	p.byRole[r] |= b
	p.roles[s] = r
	p.ids[s] = id
	p.hash ^= zPiece[c][r][s]
}

func (p *Position) lift(s Square, c Color, r Role) {
	b := s.bb()
	p.byColor[c] &^= b
	p.byRole[r] &^= b
	p.roles[s] = NoRole
	p.ids[s] = 0
	p.hash ^= zPiece[c][r][s]
}
