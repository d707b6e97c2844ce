package chess

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The narrowed generator (one piece's moves for ParseMove, IsLegal and SAN's
// disambiguation; the first kind of piece with a move for Outcome and SAN's mate) must
// agree with the whole move list in every position: positions reached by seeded random
// games from the perft and crazyhouse positions, under random restrictions (frozen,
// shielded, forbidden squares, a grant) as the card games set them.
func TestNarrowedGenerationAgreesWithTheWholeList(t *testing.T) {
	var starts []Position
	for _, tc := range perftPositions {
		starts = append(starts, mustFEN(t, tc.fen))
	}
	for _, tc := range crazyhousePerfts {
		starts = append(starts, mustFEN(t, tc.fen))
	}
	positions := 0
	for seed := range uint64(12) {
		rng := rand.New(rand.NewPCG(seed, 7))
		for _, start := range starts {
			p := start
			for ply := 0; ply < 60; ply++ {
				r := Restrictions{}
				if rng.IntN(3) == 0 {
					r = randomRestrictions(rng, p)
				}
				checkNarrowed(t, p, r)
				positions++
				var buf [256]Move
				legal := p.generate(buf[:0], &r)
				if len(legal) == 0 {
					break
				}
				p.Play(legal[rng.IntN(len(legal))])
			}
		}
	}
	if positions < 1000 {
		t.Fatalf("only %d positions checked", positions)
	}
}

func randomRestrictions(rng *rand.Rand, p Position) Restrictions {
	occ := p.occupied()
	r := Restrictions{
		Frozen:    occ & Bitboard(rng.Uint64()&rng.Uint64()),
		Shielded:  occ & Bitboard(rng.Uint64()&rng.Uint64()),
		Forbidden: Bitboard(rng.Uint64() & rng.Uint64() & rng.Uint64()),
	}
	if own := p.byColor[p.turn]; own != 0 && rng.IntN(2) == 0 {
		s := Square(rng.IntN(64))
		for !own.Has(s) {
			s = Square(rng.IntN(64))
		}
		r.Grant = Grant{Piece: p.ids[s], As: Role(int(Knight) + rng.IntN(5))}
		r.GrantToKing = rng.IntN(4) == 0
	}
	return r
}

func checkNarrowed(t *testing.T, p Position, r Restrictions) {
	t.Helper()
	var buf [256]Move
	legal := p.generate(buf[:0], &r)
	if got := p.hasLegalMove(&r); got != (len(legal) > 0) {
		t.Fatalf("%s %+v: hasLegalMove %v with %d legal moves", p.FEN(), r, got, len(legal))
	}
	for from := range NoSquare {
		var want []Move
		for _, m := range legal {
			if !m.IsDrop() && m.From() == from {
				want = append(want, m)
			}
		}
		got := p.generateFrom(nil, &r, from.bb(), false)
		if !slices.Equal(got, want) {
			t.Fatalf("%s %+v: from %s: %v, the whole list has %v", p.FEN(), r, from, got, want)
		}
	}
	// Every legal move parses and is legal; so many random others, legal or not.
	tries := slices.Clone(legal)
	for range 300 {
		tries = append(tries, Move(rng16(p, len(tries))))
	}
	for _, m := range tries {
		if got, want := p.IsLegalWith(m, r), slices.Contains(legal, m); got != want {
			t.Fatalf("%s %+v: IsLegal(%v) = %v, want %v", p.FEN(), r, m, got, want)
		}
		if m.IsDrop() {
			continue
		}
		from, to, promo := m.From(), m.To(), m.Promotion()
		uci := from.String() + to.String()
		if promo != NoRole {
			uci += string(promo.letter() + 'a' - 'A')
		}
		i := slices.IndexFunc(legal, func(m Move) bool {
			return !m.IsDrop() && m.From() == from && m.To() == to && m.Promotion() == promo
		})
		got, err := p.ParseMoveWith(uci, r)
		if (err == nil) != (i >= 0) || i >= 0 && got != legal[i] {
			t.Fatalf("%s %+v: ParseMove(%s) = %v, %v; in the whole list: %d", p.FEN(), r, uci, got, err, i)
		}
	}
	for _, m := range legal {
		if m.IsDrop() {
			continue // SAN writes a drop without an origin
		}
		if got, want := p.disambiguation(m, &r), p.disambiguate(m, legal); got != want {
			t.Fatalf("%s %+v: disambiguation of %s: %q, want %q", p.FEN(), r, m.UCI(), got, want)
		}
	}
}

// rng16 is a pseudo-random move derived from the position and i: a seeded, repeatable
// sample of the 65,536 move codes.
func rng16(p Position, i int) uint16 {
	x := p.hash + uint64(i)*0x9e3779b97f4a7c15
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	return uint16(x >> 29)
}
