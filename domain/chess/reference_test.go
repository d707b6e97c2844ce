package chess

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// A deliberately naive, independent move generator: a mailbox board, pieces stepping
// along rays, every pseudo-legal move played on a copy and dropped if it leaves the
// king attacked. It shares no code with the package (not even the FEN reader), so an
// agreement between the two is evidence, not an echo.

type naiveBoard struct {
	sq     [64]int8 // +1..+6 White pawn..king, -1..-6 Black, 0 empty
	white  bool     // White to move
	rights string   // subset of "KQkq"
	ep     int      // square behind a pawn that just moved two, or -1
}

func naiveFromFEN(t *testing.T, fen string) naiveBoard {
	f := strings.Fields(fen)
	var b naiveBoard
	r, c := 7, 0
	for _, ch := range f[0] {
		switch {
		case ch == '/':
			r, c = r-1, 0
		case ch >= '1' && ch <= '8':
			c += int(ch - '0')
		default:
			v := int8(strings.IndexRune("pnbrqk", ch|0x20) + 1)
			if ch < 'a' {
				b.sq[r*8+c] = v
			} else {
				b.sq[r*8+c] = -v
			}
			c++
		}
	}
	b.white = f[1] == "w"
	b.rights = strings.Trim(f[2], "-")
	b.ep = -1
	if f[3] != "-" {
		b.ep = int(f[3][0]-'a') + 8*int(f[3][1]-'1')
	}
	return b
}

func (b *naiveBoard) own(v int8) bool { return v != 0 && (v > 0) == b.white }

var (
	naiveKnight = [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	naiveKing   = [][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
)

// attacked reports whether side white (true) or black attacks s, walking out from s.
func (b *naiveBoard) attacked(s int, white bool) bool {
	sign := int8(1)
	if !white {
		sign = -1
	}
	at := func(f, r int) int8 {
		if f < 0 || f > 7 || r < 0 || r > 7 {
			return 99
		}
		return b.sq[r*8+f] * sign
	}
	f, r := s%8, s/8
	pr := r - 1 // an attacking white pawn stands one rank below
	if !white {
		pr = r + 1
	}
	if at(f-1, pr) == 1 || at(f+1, pr) == 1 {
		return true
	}
	for _, d := range naiveKnight {
		if at(f+d[0], r+d[1]) == 2 {
			return true
		}
	}
	for i, d := range naiveKing {
		if at(f+d[0], r+d[1]) == 6 {
			return true
		}
		for k := 1; ; k++ {
			v := at(f+k*d[0], r+k*d[1])
			if v == 5 || v == 4 && i%2 == 0 || v == 3 && i%2 == 1 {
				return true
			}
			if v != 0 {
				break
			}
		}
	}
	return false
}

func (b *naiveBoard) kingAttacked(white bool) bool {
	k := int8(6)
	if !white {
		k = -6
	}
	for s, v := range b.sq {
		if v == k {
			return b.attacked(s, !white)
		}
	}
	return true
}

func naiveName(s int) string { return string([]byte{byte('a' + s%8), byte('1' + s/8)}) }

// moves lists the legal moves in UCI, sorted.
func (b *naiveBoard) moves() []string {
	var out []string
	try := func(from, to int, promo string) {
		c := *b
		c.play(from, to, promo)
		if !c.kingAttacked(b.white) {
			out = append(out, naiveName(from)+naiveName(to)+promo)
		}
	}
	for s, v := range b.sq {
		if !b.own(v) {
			continue
		}
		f, r := s%8, s/8
		kind := v
		if kind < 0 {
			kind = -kind
		}
		target := func(f, r int) (int, bool) { // the square, and whether it may be entered
			if f < 0 || f > 7 || r < 0 || r > 7 || b.own(b.sq[r*8+f]) {
				return -1, false
			}
			return r*8 + f, true
		}
		switch kind {
		case 1:
			dir, home, last := 1, 1, 7
			if !b.white {
				dir, home, last = -1, 6, 0
			}
			pawnTo := func(to int) {
				if to/8 == last {
					for _, p := range []string{"q", "r", "b", "n"} {
						try(s, to, p)
					}
				} else {
					try(s, to, "")
				}
			}
			if one := s + 8*dir; b.sq[one] == 0 {
				pawnTo(one)
				if two := one + 8*dir; r == home && b.sq[two] == 0 {
					try(s, two, "")
				}
			}
			for _, df := range []int{-1, 1} {
				if to, ok := target(f+df, r+dir); ok && (b.sq[to] != 0 || to == b.ep) {
					pawnTo(to)
				}
			}
		case 2, 6:
			offs := naiveKnight
			if kind == 6 {
				offs = naiveKing
			}
			for _, d := range offs {
				if to, ok := target(f+d[0], r+d[1]); ok {
					try(s, to, "")
				}
			}
		default:
			for i, d := range naiveKing {
				if kind == 4 && i%2 == 1 || kind == 3 && i%2 == 0 {
					continue
				}
				for k := 1; ; k++ {
					to, ok := target(f+k*d[0], r+k*d[1])
					if !ok {
						break
					}
					try(s, to, "")
					if b.sq[to] != 0 {
						break
					}
				}
			}
		}
	}
	// Castling: rights, empty squares between, king not in check nor crossing or
	// landing on an attacked square.
	for _, c := range []struct {
		right       string
		king, rook  int
		empty, safe []int
	}{
		{"K", 4, 7, []int{5, 6}, []int{4, 5, 6}},
		{"Q", 4, 0, []int{1, 2, 3}, []int{4, 3, 2}},
	} {
		right, base := c.right, 0
		if !b.white {
			right, base = strings.ToLower(right), 56
		}
		if !strings.Contains(b.rights, right) {
			continue
		}
		ok := true
		for _, e := range c.empty {
			ok = ok && b.sq[base+e] == 0
		}
		for _, e := range c.safe {
			ok = ok && !b.attacked(base+e, !b.white)
		}
		if ok {
			out = append(out, naiveName(base+c.king)+naiveName(base+c.king+(c.safe[2]-c.king)))
		}
	}
	slices.Sort(out)
	return out
}

// play makes a pseudo-legal move, knowing the rules of chess and nothing else.
func (b *naiveBoard) play(from, to int, promo string) {
	v := b.sq[from]
	kind := v
	if kind < 0 {
		kind = -kind
	}
	if kind == 1 && to == b.ep && (to-from)%8 != 0 {
		b.sq[from/8*8+to%8] = 0 // en passant: the pawn beside, on the capturer's rank
	}
	b.ep = -1
	if kind == 1 && (to-from == 16 || from-to == 16) {
		b.ep = (from + to) / 2
	}
	if kind == 6 && (to-from == 2 || from-to == 2) { // castling: the rook jumps over
		rookFrom, rookTo := from+3, from+1
		if to < from {
			rookFrom, rookTo = from-4, from-1
		}
		b.sq[rookTo], b.sq[rookFrom] = b.sq[rookFrom], 0
	}
	b.sq[to], b.sq[from] = v, 0
	if promo != "" {
		b.sq[to] = int8(strings.Index("pnbrq", promo)+1) * int8(sign(int(v)))
	}
	for _, lose := range []struct {
		sq    int
		right string
	}{{4, "KQ"}, {7, "K"}, {0, "Q"}, {60, "kq"}, {63, "k"}, {56, "q"}} {
		if from == lose.sq || to == lose.sq {
			for _, r := range lose.right {
				b.rights = strings.ReplaceAll(b.rights, string(r), "")
			}
		}
	}
	b.white = !b.white
}

func sign(v int) int {
	if v < 0 {
		return -1
	}
	return 1
}

// randomGameStarts are where the random games begin: the reference positions and a
// few with promotions, en passant and castling close at hand.
var randomGameStarts = []string{
	StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
	"3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
	"8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
}

// TestRandomGames plays seeded random games and checks at every ply: the generator
// agrees with the naive one, the FEN round-trips, SAN and UCI of every legal move parse
// back to it, the incremental hash equals a recomputed one, and piece IDs follow the
// pieces.
func TestRandomGames(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	games, plies := 60, 120
	if testing.Short() {
		games = 10
	}
	for g := 0; g < games; g++ {
		fen := randomGameStarts[g%len(randomGameStarts)]
		pos, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		ref := naiveFromFEN(t, fen)
		var played []string
		for ply := 0; ply < plies; ply++ {
			where := func() string { return fen + " after " + strings.Join(played, " ") }
			moves := pos.LegalMoves(nil)
			got := make([]string, len(moves))
			for i, m := range moves {
				got[i] = m.UCI()
			}
			slices.Sort(got)
			if want := ref.moves(); !slices.Equal(got, want) {
				t.Fatalf("%s:\n got %v\nwant %v", where(), got, want)
			}
			checkInvariants(t, pos, moves, where)
			if len(moves) == 0 {
				break
			}
			m := moves[rng.Intn(len(moves))]
			before := pos
			pos.Play(m)
			checkIdentity(t, before, pos, m, where)
			ref.play(int(m.From()), int(m.To()), m.UCI()[4:])
			played = append(played, m.UCI())
		}
	}
}

func checkInvariants(t *testing.T, pos Position, moves []Move, where func() string) {
	t.Helper()
	if h := pos.computeHash(); h != pos.Hash() {
		t.Fatalf("%s: incremental hash %x, recomputed %x", where(), pos.Hash(), h)
	}
	back, err := ParseFEN(pos.FEN())
	if err != nil || back.FEN() != pos.FEN() || back.Hash() != pos.Hash() {
		t.Fatalf("%s: FEN %q does not round-trip: %v", where(), pos.FEN(), err)
	}
	for _, m := range moves {
		for _, text := range []string{m.UCI(), pos.SAN(m)} {
			if got, err := pos.ParseMove(text); err != nil || got != m {
				t.Fatalf("%s: %q parses to %v, %v; want %v", where(), text, got, err, m)
			}
		}
	}
	seen := map[PieceID]bool{}
	for _, s := range pos.Occupied().Squares() {
		id, _ := pos.PieceID(s)
		if id == 0 || seen[id] {
			t.Fatalf("%s: piece on %v has ID %d, zero or repeated", where(), s, id)
		}
		seen[id] = true
	}
}

// checkIdentity: the moving piece (and the castling rook) keeps its ID.
func checkIdentity(t *testing.T, before, after Position, m Move, where func() string) {
	t.Helper()
	want, _ := before.PieceID(m.From())
	if got, _ := after.PieceID(m.To()); got != want {
		t.Fatalf("%s: %v moved piece %d, now %d on %v", where(), m, want, got, m.To())
	}
	if m.IsCastling() {
		c := castleSquares[castleIndex(m.To())]
		rook, _ := before.PieceID(c.rookFrom)
		if got, _ := after.PieceID(c.rookTo); got != rook {
			t.Fatalf("%s: castling rook %d is now %d", where(), rook, got)
		}
	}
}
