package chess

// Zobrist keys, drawn at init from a fixed-seed splitmix64 so that every process (and
// every replay of an event stream) computes the same hashes. The hash covers what makes
// two positions "the same" under the repetition rule: pieces on squares, side to move,
// castling rights and the en-passant square (kept only when a capture is legal), and in
// bughouse the pieces in hand.
var (
	zPiece    [2][7][64]uint64
	zCastling [16]uint64
	zEnPass   [8]uint64
	zBlack    uint64
	// zHand[c][r][n] stands for n pieces of role r in c's hand; n = 0 is 0, so a
	// position without pockets hashes as it did before drops existed.
	zHand [2][King][MaxInHand + 1]uint64
)

func init() {
	rng := splitmix64(0x5a6f627269737421) // "Zobrist!"
	for c := range zPiece {
		for r := Pawn; r <= King; r++ {
			for s := range zPiece[c][r] {
				zPiece[c][r][s] = rng.next()
			}
		}
	}
	// Castling keys are XOR-combinations of four per-right keys so that losing one right
	// changes the hash by that right's key alone.
	var rights [4]uint64
	for i := range rights {
		rights[i] = rng.next()
	}
	for cr := range zCastling {
		for i := range rights {
			if cr&(1<<i) != 0 {
				zCastling[cr] ^= rights[i]
			}
		}
	}
	for f := range zEnPass {
		zEnPass[f] = rng.next()
	}
	zBlack = rng.next()
	// Drawn last, so that the keys above stay what they were.
	for c := range zHand {
		for r := Pawn; r <= Queen; r++ {
			for n := 1; n <= MaxInHand; n++ {
				zHand[c][r][n] = rng.next()
			}
		}
	}
}

// computeHash is the hash from scratch; Play keeps it incrementally and the tests
// check the two agree.
func (p *Position) computeHash() uint64 {
	var h uint64
	for b := p.occupied(); b != 0; b &= b - 1 {
		s := b.first()
		h ^= zPiece[p.colorAt(s)][p.roles[s]][s]
	}
	h ^= zCastling[p.castling]
	if p.ep != NoSquare {
		h ^= zEnPass[p.ep.File()]
	}
	if p.turn == Black {
		h ^= zBlack
	}
	for c := White; c <= Black; c++ {
		for r := Pawn; r <= Queen; r++ {
			h ^= zHand[c][r][p.inHand(c, r)]
		}
	}
	return h
}
