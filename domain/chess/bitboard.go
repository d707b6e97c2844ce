package chess

import "math/bits"

// Bitboard is a set of squares, bit i for square i. The card-game hooks are bitboards
// too, so restricting the generator costs one AND.
type Bitboard uint64

// Files and ranks used by the generator.
const (
	FileA Bitboard = 0x0101010101010101
	FileH Bitboard = FileA << 7
	Rank1 Bitboard = 0xff
	Rank2 Bitboard = Rank1 << 8
	Rank3 Bitboard = Rank1 << 16
	Rank6 Bitboard = Rank1 << 40
	Rank7 Bitboard = Rank1 << 48
	Rank8 Bitboard = Rank1 << 56
)

// Light squares (a1 is dark).
const lightSquares Bitboard = 0x55aa55aa55aa55aa

// BB is the set holding only s (empty for NoSquare).
func BB(squares ...Square) Bitboard {
	var b Bitboard
	for _, s := range squares {
		if s < NoSquare {
			b |= 1 << s
		}
	}
	return b
}

func (s Square) bb() Bitboard { return 1 << (s & 63) }

// Has reports whether s is in b.
func (b Bitboard) Has(s Square) bool { return s < NoSquare && b&(1<<s) != 0 }

// Count is the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// first is the lowest square of a non-empty b.
func (b Bitboard) first() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// more reports whether b has more than one square.
func (b Bitboard) more() bool { return b&(b-1) != 0 }

// Squares lists the squares of b in ascending order.
func (b Bitboard) Squares() []Square {
	out := make([]Square, 0, b.Count())
	for ; b != 0; b &= b - 1 {
		out = append(out, b.first())
	}
	return out
}
