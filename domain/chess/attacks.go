package chess

// Attack tables, all computed at init from fixed rules and a fixed seed, so that every
// process builds the same tables. Sliding pieces use "fancy" magic bitboards: the
// relevant blockers of a square, multiplied by a magic number and shifted, index a
// per-square table of attack sets. The magic numbers are in magics.go, found by the
// deterministic search in magics_test.go (too slow to run at every start); init checks
// each one as it fills its table.

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard // pawnAttacks[c][s]: squares a c pawn on s attacks

	// between[a][b] holds the squares strictly between a and b when they share a rank,
	// file or diagonal, and is empty otherwise. line[a][b] is the whole line through both.
	between [64][64]Bitboard
	line    [64][64]Bitboard

	rookMagics   [64]magic
	bishopMagics [64]magic
)

type magic struct {
	mask    Bitboard   // relevant blockers (board edges excluded)
	factor  uint64     // the magic multiplier
	shift   uint8      // 64 - bits in mask
	attacks []Bitboard // indexed by ((occ & mask) * factor) >> shift
}

func (m *magic) index(occ Bitboard) uint64 {
	return (uint64(occ&m.mask) * m.factor) >> m.shift
}

func rookAttacks(s Square, occ Bitboard) Bitboard {
	m := &rookMagics[s]
	return m.attacks[m.index(occ)]
}

func bishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &bishopMagics[s]
	return m.attacks[m.index(occ)]
}

func queenAttacks(s Square, occ Bitboard) Bitboard {
	return rookAttacks(s, occ) | bishopAttacks(s, occ)
}

// attacksOf is the attack set of a piece of role r and color c on s; for pawns, captures.
func attacksOf(r Role, c Color, s Square, occ Bitboard) Bitboard {
	switch r {
	case Pawn:
		return pawnAttacks[c][s]
	case Knight:
		return knightAttacks[s]
	case Bishop:
		return bishopAttacks(s, occ)
	case Rook:
		return rookAttacks(s, occ)
	case Queen:
		return queenAttacks(s, occ)
	case King:
		return kingAttacks[s]
	}
	return 0
}

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// slide walks from s in each direction until it leaves the board or hits occ; it is the
// slow reference the magic tables are filled from.
func slide(s Square, occ Bitboard, dirs [4][2]int) Bitboard {
	var b Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			t := NewSquare(f, r)
			b |= t.bb()
			if occ.Has(t) {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return b
}

// jumps is the set of squares at the given offsets from s that are on the board.
func jumps(s Square, offsets [][2]int) Bitboard {
	var b Bitboard
	for _, o := range offsets {
		f, r := s.File()+o[0], s.Rank()+o[1]
		if f >= 0 && f < 8 && r >= 0 && r < 8 {
			b |= NewSquare(f, r).bb()
		}
	}
	return b
}

// splitmix64 is the deterministic generator behind the Zobrist keys and the magic search.
type splitmix64 uint64

func (x *splitmix64) next() uint64 {
	*x += 0x9e3779b97f4a7c15
	z := uint64(*x)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func init() {
	knightOffsets := [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	kingOffsets := [][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	for s := A1; s <= H8; s++ {
		knightAttacks[s] = jumps(s, knightOffsets)
		kingAttacks[s] = jumps(s, kingOffsets)
		pawnAttacks[White][s] = jumps(s, [][2]int{{-1, 1}, {1, 1}})
		pawnAttacks[Black][s] = jumps(s, [][2]int{{-1, -1}, {1, -1}})
	}
	for a := A1; a <= H8; a++ {
		for _, dirs := range [][4][2]int{rookDirs, bishopDirs} {
			rays := slide(a, 0, dirs)
			for b := A1; b <= H8; b++ {
				if a == b || !rays.Has(b) {
					continue
				}
				between[a][b] = slide(a, b.bb(), dirs) & slide(b, a.bb(), dirs)
				line[a][b] = (rays & slide(b, 0, dirs)) | a.bb() | b.bb()
			}
		}
	}
	for s := A1; s <= H8; s++ {
		if !fillMagic(&rookMagics[s], s, rookDirs, rookFactors[s]) ||
			!fillMagic(&bishopMagics[s], s, bishopDirs, bishopFactors[s]) {
			panic("chess: bad magic for " + s.String())
		}
	}
}

// fillMagic sets up the table of s for the multiplier factor and reports whether it
// works: two blocker subsets may share a slot only if their attacks agree.
func fillMagic(m *magic, s Square, dirs [4][2]int, factor uint64) bool {
	edges := ((Rank1 | Rank8) &^ rankOf(s)) | ((FileA | FileH) &^ fileOf(s))
	m.mask = slide(s, 0, dirs) &^ edges
	m.shift = uint8(64 - m.mask.Count())
	m.factor = factor
	m.attacks = make([]Bitboard, 1<<m.mask.Count())
	filled := make([]bool, len(m.attacks))
	// Carry-rippler: enumerate every subset of the mask.
	for sub := Bitboard(0); ; {
		idx, att := m.index(sub), slide(s, sub, dirs)
		if filled[idx] && m.attacks[idx] != att {
			return false
		}
		m.attacks[idx], filled[idx] = att, true
		if sub = (sub - m.mask) & m.mask; sub == 0 {
			return true
		}
	}
}

func rankOf(s Square) Bitboard { return Rank1 << (8 * s.Rank()) }
func fileOf(s Square) Bitboard { return FileA << s.File() }
