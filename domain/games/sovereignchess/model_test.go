package sovereignchess

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/internal/longtest"
)

// An independent model of two-player Sovereign Chess, written from the rules files
// (shared/rules/sovereign-chess.en.txt and sovereign-chess-board.md) and from nothing
// in domain/sovereign: its own reading of the notation, its own squares of colour, its
// own control (a fixpoint from the owned colours), its own attacks, its own effect of a
// move and its own list of the legal moves (model_moves_test.go). Seeded random games
// are played through Decide, Audit and Evolve and checked against it both ways: at every
// ply the moves Board offers are exactly the moves the model finds legal, and every move
// the rules record is legal by the model and gives the position the model gives. Legal
// means: the mover controls what it moves, the piece moves as its role may, never onto a
// square of its own colour nor onto a colour whose twin square is taken, captures only
// what the opponent controls and never a king; a pawn entering the centre promotes; a
// castling is of an unmoved king and rook, not out of, through or into check; a
// defection goes to a colour the mover controls and moves the king off a square of its
// new colour when it stands on one; the mover's king is not attacked after it. Each
// player keeps one king, of its owned colour; no Royale event appears; a checkmate is a
// king in check with no legal move, a stalemate a king not in check with none.

// mPiece is a piece as the notation writes it: colour letter and role letter; 0 is empty.
type mPiece struct{ c, r byte }

// mPos is a two-player position: board[x][y], x = file a..p, y = rank 1..16 from 0.
type mPos struct {
	board [16][16]mPiece
	owned [2]byte // each player's owned colour letter
	turn  int     // 0: the player written "1"
}

type mSq struct{ x, y int }

func (s mSq) String() string { return fmt.Sprintf("%c%d", 'a'+s.x, s.y+1) }

// mColourSquares are the squares of colour of the board facts file, section 2.
var mColourSquares = map[byte][2]string{
	'w': {"h9", "i8"}, 'b': {"h8", "i9"}, 'a': {"g7", "j10"}, 's': {"g10", "j7"},
	'p': {"i6", "h11"}, 'v': {"h6", "i11"}, 'r': {"e12", "l5"}, 'n': {"e5", "l12"},
	'o': {"f9", "k8"}, 'c': {"f8", "k9"}, 'y': {"f11", "k6"}, 'g': {"f6", "k11"},
}

// mColours are the colour letters of the armies, in the order the model tries them.
var mColours = slices.Sorted(func(yield func(byte) bool) {
	for c := range mColourSquares {
		if !yield(c) {
			return
		}
	}
})

// mColourAt is mColourSquares by square: the colour of a square of colour, or 0.
var mColourAt = func() (at [16][16]byte) {
	for c, names := range mColourSquares {
		for _, n := range names {
			s, _ := mSquare(n)
			at[s.x][s.y] = c
		}
	}
	return at
}()

func mSquare(name string) (mSq, bool) {
	if len(name) < 2 || name[0] < 'a' || name[0] > 'p' {
		return mSq{}, false
	}
	r, err := strconv.Atoi(name[1:])
	if err != nil || r < 1 || r > 16 {
		return mSq{}, false
	}
	return mSq{int(name[0] - 'a'), r - 1}, true
}

// mColourOf is the colour of a square of colour, or 0.
func mColourOf(s mSq) byte { return mColourAt[s.x][s.y] }

func mTwin(s mSq) mSq { return mSq{15 - s.x, 15 - s.y} }

func mOnBoard(x, y int) bool { return x >= 0 && x < 16 && y >= 0 && y < 16 }

// mParse reads the notation: rank 16 first, pieces as colour+role letters, digits for
// empty runs; then the side to move ("1" or "2") and the two owned colours.
func mParse(t *testing.T, notation string) mPos {
	t.Helper()
	f := strings.Fields(notation)
	if len(f) < 4 {
		t.Fatalf("model: notation %q", notation)
	}
	var p mPos
	ranks := strings.Split(f[0], "/")
	if len(ranks) != 16 {
		t.Fatalf("model: %d ranks in %q", len(ranks), notation)
	}
	for i, rank := range ranks {
		y, x := 15-i, 0
		for j := 0; j < len(rank); {
			if rank[j] >= '0' && rank[j] <= '9' {
				k := j
				for k < len(rank) && rank[k] >= '0' && rank[k] <= '9' {
					k++
				}
				n, _ := strconv.Atoi(rank[j:k])
				x, j = x+n, k
				continue
			}
			p.board[x][y] = mPiece{rank[j], rank[j+1]}
			x, j = x+1, j+2
		}
		if x != 16 {
			t.Fatalf("model: rank %d of %q has %d files", y+1, notation, x)
		}
	}
	p.turn = int(f[1][0] - '1')
	p.owned = [2]byte{f[2][0], f[3][0]}
	return p
}

func (p *mPos) at(s mSq) mPiece { return p.board[s.x][s.y] }

// mCtl is who controls each colour, indexed by colour letter: player 0 or 1, -1 for
// nobody.
type mCtl [256]int8

func (ctl mCtl) String() string {
	var b strings.Builder
	for _, c := range mColours {
		if ctl[c] >= 0 {
			fmt.Fprintf(&b, "%c:%d ", c, ctl[c])
		}
	}
	return strings.TrimSpace(b.String())
}

// control is who controls each colour: the owners their colours, then, until nothing
// changes, a colour whose occupied square holds a piece of a colour a player controls,
// unless the other player owns it (rules 11 and 13; chains and cycles fall out).
func (p *mPos) control() mCtl {
	var ctl mCtl
	for i := range ctl {
		ctl[i] = -1
	}
	ctl[p.owned[0]], ctl[p.owned[1]] = 0, 1
	for changed := true; changed; {
		changed = false
		for _, c := range mColours {
			if ctl[c] >= 0 {
				continue
			}
			for _, n := range mColourSquares[c] {
				s, _ := mSquare(n)
				if pc := p.at(s); pc.c != 0 && ctl[pc.c] >= 0 {
					ctl[c], changed = ctl[pc.c], true
				}
			}
		}
	}
	return ctl
}

func controlledBy(ctl mCtl, c byte, pl int) bool { return c != 0 && ctl[c] == int8(pl) }

func mAbs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// towardCentre reports whether a pawn step from a to b brings it closer to at least one
// brown line (x = 7.5 or y = 7.5).
func towardCentre(a, b mSq) bool {
	return mAbs(2*b.x-15) < mAbs(2*a.x-15) || mAbs(2*b.y-15) < mAbs(2*a.y-15)
}

func mInZone(s mSq) bool { return s.x >= 6 && s.x <= 9 && s.y >= 6 && s.y <= 9 }

// clearLine reports whether a and b are on one line at most eight squares apart with
// nothing between them.
func (p *mPos) clearLine(a, b mSq) bool {
	dx, dy := b.x-a.x, b.y-a.y
	n := max(mAbs(dx), mAbs(dy))
	if n == 0 || n > 8 || (dx != 0 && dy != 0 && mAbs(dx) != mAbs(dy)) {
		return false
	}
	sx, sy := sign(dx), sign(dy)
	for i := 1; i < n; i++ {
		if p.board[a.x+i*sx][a.y+i*sy].c != 0 {
			return false
		}
	}
	return true
}

func sign(v int) int { return cmp.Compare(v, 0) }

// reaches reports whether pc on a could capture on b by its movement (rule 4 and the
// movement of pieces; a pawn captures diagonally toward a brown line).
func (p *mPos) reaches(pc mPiece, a, b mSq) bool {
	dx, dy := mAbs(b.x-a.x), mAbs(b.y-a.y)
	switch pc.r {
	case 'k':
		return max(dx, dy) == 1
	case 'n':
		return dx*dy == 2
	case 'r':
		return (dx == 0 || dy == 0) && p.clearLine(a, b)
	case 'b':
		return dx == dy && p.clearLine(a, b)
	case 'q':
		return p.clearLine(a, b)
	case 'p':
		return dx == 1 && dy == 1 && towardCentre(a, b)
	}
	return false
}

// attacked reports whether a piece player by controls could capture on s: never a piece
// of the colour of the square s (rule 5).
func (p *mPos) attacked(s mSq, by int, ctl mCtl) bool {
	for x := range 16 {
		for y := range 16 {
			pc := p.board[x][y]
			if pc.c == 0 || !controlledBy(ctl, pc.c, by) || pc.c == mColourOf(s) {
				continue
			}
			if p.reaches(pc, mSq{x, y}, s) {
				return true
			}
		}
	}
	return false
}

// kings lists the squares of the kings of colour c.
func (p *mPos) kings(c byte) []mSq {
	var out []mSq
	for x := range 16 {
		for y := range 16 {
			if p.board[x][y] == (mPiece{c, 'k'}) {
				out = append(out, mSq{x, y})
			}
		}
	}
	return out
}

func (p *mPos) inCheck(pl int) bool {
	k := p.kings(p.owned[pl])
	return len(k) == 1 && p.attacked(k[0], 1-pl, p.control())
}

// check checks the move notation, played from before, against the rules, and that after
// is what it gives.
func (before mPos) check(t *testing.T, ctx, notation string, after mPos, u *mUnmoved) (captured bool) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s: %s", ctx, notation, fmt.Sprintf(format, args...))
	}
	m := mReadMove(t, notation)
	if why := before.illegal(m, u); why != "" {
		fail("%s", why)
	}
	next := before.play(m)
	if next.board != after.board || next.owned != after.owned || after.turn != next.turn {
		fail("the rules record %v, the model gives %v", after, next)
	}
	for q := range 2 {
		if k := after.kings(after.owned[q]); len(k) != 1 {
			fail("player %d has %d kings of its colour %c", q, len(k), after.owned[q])
		}
	}
	nk := 0
	for x := range 16 {
		for y := range 16 {
			pc := after.board[x][y]
			if pc.r == 'k' {
				nk++
			}
			if pc.r == 'p' && mInZone(mSq{x, y}) {
				fail("a pawn stands in the centre")
			}
		}
	}
	if nk != 2 {
		fail("%d kings on the board", nk)
	}
	for c, names := range mColourSquares {
		a, _ := mSquare(names[0])
		b, _ := mSquare(names[1])
		if after.at(a).c != 0 && after.at(b).c != 0 {
			fail("both squares of colour %c are occupied", c)
		}
	}
	if m.step && !m.castle && before.at(m.to).c != 0 {
		return true
	}
	return false
}

// mStartBoard is the two-player start position's board, as the board facts file
// (section 4) writes it, and mStartCastling its castling rooks.
const (
	mStartBoard    = "aqabvrvnbrbnbbbqbkbbbnbrynyrsbsq/aranvpvpbpbpbpbpbpbpbpbpypypsnsr/nbnp12opob/nqnp12opoq/crcp12rprr/cncp12rprn/gbgp12pppb/gqgp12pppq/yqyp12vpvq/ybyp12vpvb/onop12npnn/orop12npnr/rqrp12cpcq/rbrp12cpcb/srsnppppwpwpwpwpwpwpwpwpgpgpanar/sqsbprpnwrwnwbwqwkwbwnwrgngrabaq"
	mStartCastling = "CELNceln"
)

// mNotation writes a position in the notation at ply 0, side 1 to move.
func (p mPos) mNotation(castling string) string {
	var b strings.Builder
	for y := 15; y >= 0; y-- {
		empty := 0
		for x := range 16 {
			pc := p.board[x][y]
			if pc.c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteString(string([]byte{pc.c, pc.r}))
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if y > 0 {
			b.WriteByte('/')
		}
	}
	return fmt.Sprintf("%s 1 %c %c %s 0", b.String(), p.owned[0], p.owned[1], castling)
}

// mOpening is a position the playouts also start from: what random games from the start
// position meet seldom or never.
type mOpening struct{ name, notation string }

// mOpenings are start positions edited to bring castling up: the back ranks cleared
// between the kings and the rooks (the white and black rooks at once, with and without
// a square the king would pass guarded; the pink, green, violet and yellow rooks once
// their colours are controlled), and kings in the corners whose only castling is the
// one that keeps both king and rook within eight squares.
func mOpenings(t *testing.T) []mOpening {
	t.Helper()
	start := mParse(t, mStartBoard+" 1 w b "+mStartCastling+" 0")
	without := func(squares string) mPos {
		p := start
		for _, n := range strings.Fields(squares) {
			s, _ := mSquare(n)
			p.board[s.x][s.y] = mPiece{}
		}
		return p
	}
	var corners mPos
	corners.owned = [2]byte{'w', 'b'}
	for _, f := range strings.Fields("wka1 wrp1 wpe2 wpf2 wpg2 wph2 wpi2 wpj2 wpk2 wpl2 wnc3 wnn3 bkp16 bra16 bpe15 bpf15 bpg15 bph15 bpi15 bpj15 bpk15 bpl15 bnc14 bnn14") {
		s, _ := mSquare(f[2:])
		corners.board[s.x][s.y] = mPiece{f[0], f[1]}
	}
	guarded := without("f1 g1 h1 j1 k1 f16 g16 h16 j16 k16")
	guarded.board[5][2] = mPiece{'b', 'n'} // a black knight on f3 guards g1 (and e1, h2)
	return []mOpening{
		{"short castlings", without("f1 g1 h1 j1 k1 f16 g16 h16 j16 k16").mNotation(mStartCastling)},
		{"castlings by a guarded square", guarded.mNotation(mStartCastling)},
		{"castlings with the chromatic rooks", without("d1 e1 f1 g1 h1 j1 k1 l1 m1 d16 e16 f16 g16 h16 j16 k16 l16 m16").mNotation("CNcn")},
		{"castlings of eight squares", corners.mNotation("Pa")},
	}
}

// mTally counts what the playouts met: the moves played and offered, by kind.
type mTally struct {
	games, total, offered int
	seen, listed          map[string]int
}

// play plays one seeded random game from the position the options give (the start
// position without one) and checks it against the model; favour favours the rare moves.
func (tally *mTally) play(t *testing.T, name, seed string, opts game.Options, plies int, favour bool) {
	t.Helper()
	st, started := seeded(t, opts, seed)
	rng := rand.New(rand.NewPCG(uint64(tally.games), 0x50e))
	cur := started.Position
	f := strings.Fields(cur)
	unmoved := mUnmovedOf(t, mParse(t, cur), f[len(f)-2])
	tally.games++
	for ply := 0; ply < plies; ply++ {
		status := r.Status(st)
		if status.Over {
			break
		}
		seat := status.ToAct[0]
		ctx := fmt.Sprintf("%s ply %d from %s", name, ply, cur)
		var do any
		if len(status.Choices) > 0 {
			do = game.Choose{Option: status.Choices[rng.IntN(len(status.Choices))]}
		} else {
			moves := r.Board(st).LegalMoves
			mParse(t, cur).compare(t, ctx, moves, unmoved)
			tally.offered += len(moves)
			for _, m := range moves {
				tally.listed[moveKind(m)]++
			}
			do = game.Move{Notation: pickModelMove(rng, moves, favour)}
		}
		var evs []game.Event
		st, evs = act(t, st, seat, do)
		for _, e := range evs {
			switch e := e.(type) {
			case MovePlayed:
				before, after := mParse(t, cur), mParse(t, e.Position)
				if before.check(t, ctx, e.Move, after, unmoved) {
					tally.seen["capture"]++
				}
				unmoved.played(before, after, mReadMove(t, e.Move))
				cur = e.Position
				tally.total++
				tally.seen[moveKind(e.Move)]++
			case KingCaptured, InterregnumBegun, KingEscaped, ChecksAnnounced, PlayerWithdrew:
				t.Fatalf("%s: %s in a two-player game", ctx, e.EventType())
			case GameEnded:
				loser := mParse(t, cur)
				check, moves := loser.inCheck(loser.turn), loser.legalMoves(unmoved)
				switch {
				case e.Reason == "checkmate" && (!check || len(moves) > 0), e.Reason == "stalemate" && (check || len(moves) > 0):
					t.Fatalf("%s: %s with the king in check %v and the model's legal moves %v", ctx, e.Reason, check, moves)
				}
				tally.seen["end: "+e.Reason]++
			}
		}
	}
}

// TestModelPlayouts plays seeded random two-player games through Decide, Audit and
// Evolve and checks them against the model: at every ply the moves Board offers are
// the model's legal moves, no more and no fewer, and every move played is legal by the
// model and gives the position it gives. The games start from the start position, and
// two each from the edited positions of mOpenings. The moves are drawn among those
// Board lists, uniformly in odd games, and in even games with defections, promotions
// and castlings favoured so that the rules they bring come up within a few hundred
// plies.
func TestModelPlayouts(t *testing.T) {
	// A few seconds by default; SOVEREIGN_MODEL_GAMES=300 for a long run (the defection
	// that took a king came up in game 97 of 300), with 25 games from each opening.
	games, long := longtest.Games(t, "SOVEREIGN_MODEL_GAMES", 6, 24)
	plies := 300
	if long {
		plies = 1000
	}
	tally := &mTally{seen: map[string]int{}, listed: map[string]int{}}
	st, _ := seeded(t, nil, "model-start")
	if want := mStartBoard + " 1 w b " + mStartCastling + " 0"; r.Board(st).FEN != want {
		t.Fatalf("the start position is\n%s\nthe board facts file writes it\n%s", r.Board(st).FEN, want)
	}
	for g := range games {
		tally.play(t, fmt.Sprintf("game %d", g), fmt.Sprintf("model-%d", g), nil, plies, g%2 == 0)
	}
	perOpening := 2
	if long {
		perOpening = max(2, games/12)
	}
	for _, o := range mOpenings(t) {
		for g := range perOpening {
			name := fmt.Sprintf("%s, game %d", o.name, g)
			tally.play(t, name, "model-"+name, game.Options{"position": o.notation}, plies/3, g%2 == 0)
		}
	}
	t.Logf("%d games, %d moves played and %d offered checked against the model: played %v; offered %v", tally.games, tally.total, tally.offered, tally.seen, tally.listed)
	for _, k := range []string{"defection", "promotion", "capture", "castling"} {
		if tally.seen[k] == 0 && !testing.Short() {
			t.Errorf("the playouts never met a %s", k)
		}
	}
}

// pickModelMove draws a move: uniformly, or when favour is set a regime change or a
// castling half the time when there is one.
func pickModelMove(rng *rand.Rand, moves []string, favour bool) string {
	var rare []string
	for _, m := range moves {
		if k := moveKind(m); k == "defection" || k == "promotion" || k == "castling" {
			rare = append(rare, m)
		}
	}
	if favour && len(rare) > 0 && rng.IntN(2) == 0 {
		return rare[rng.IntN(len(rare))]
	}
	return moves[rng.IntN(len(moves))]
}

func moveKind(m string) string {
	switch last := m[len(m)-1]; {
	case m[0] == '=':
		return "defection"
	case last == 'O':
		return "castling"
	case last >= 'a' && last <= 'z':
		return "promotion"
	}
	return "move"
}
