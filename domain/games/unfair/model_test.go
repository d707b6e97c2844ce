package unfair

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/internal/longtest"
)

// An independent model of what the UnfairChess rules text (shared/rules/unfairchess.fr.txt)
// fixes, written without the package's move generator nor its decisions: its own reading
// of FEN, its own chess attacks, and its own account of hands, decks and statuses, kept
// from the events alone. Seeded random games are played through Decide, Audit and Evolve
// (act) and every command is checked against it:
//
//   - "Une carte par tour au maximum": at most one CardPlayed per turn, from the slot
//     that holds it;
//   - "Ta main compte toujours quatre cartes. Dès que tu en joues une, tu repioches. Si la
//     pioche se vide, tu finis la partie avec ce qui te reste": between commands a hand
//     holds four cards while its deck has any, and is what the events put there;
//   - "le roi ne peut être ni détruit ni changé de camp": one king of each colour after
//     every action;
//   - "Échec : ton roi est menacé, tu dois régler ça immédiatement": no turn ends with the
//     mover's own king attacked;
//   - "Quand tu es en échec, seules les cartes qui t'en sortent restent jouables": a card
//     played in check, and every card the hand lists as playable in check, leaves the
//     king unattacked by itself;
//   - sleep: "la pièce dort et ne peut plus bouger. Elle se réveille dès qu'un des deux rois
//     est mis en échec, et toutes les pièces endormies se réveillent en même temps": a
//     sleeping piece is never moved by a move (unless the restrictions are lifted, "elle
//     saute pour ce coup-là"), sleepers wake only in a turn that ends with the opponent's
//     king in check, and all of them do then;
//   - shield: "l'adversaire ne peut pas la capturer à son prochain tour": a shield ends as
//     "expired" exactly when the opponent's next turn ends, if nothing took it earlier;
//     poison and dynamite never expire nor wake.
type model struct {
	fen      string              // the position after the last action
	hand     [2][HandSize]string // as the events dealt and played them
	deck     [2]int              // cards left in each deck
	sleeping map[int]bool        // piece IDs asleep
	shields  map[int]int         // shielded piece ID -> the seat whose card shielded it
	turnCard bool                // a card was played in the turn under way
	lifted   bool                // the restrictions of the turn under way are lifted
	seen     map[string]int
}

// mBoard is a FEN's board, [file][rank], 0 for an empty square.
type mBoard [8][8]byte

func mFEN(t *testing.T, fen string) (mBoard, byte) {
	t.Helper()
	var b mBoard
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	if len(f) < 2 || len(ranks) != 8 {
		t.Fatalf("model: FEN %q", fen)
	}
	for i, rank := range ranks {
		x := 0
		for _, ch := range []byte(rank) {
			if ch >= '1' && ch <= '8' {
				x += int(ch - '0')
				continue
			}
			b[x][7-i] = ch
			x++
		}
	}
	return b, f[1][0]
}

func isWhite(pc byte) bool { return pc >= 'A' && pc <= 'Z' }

// attacked reports whether a piece of the side white (true) or black attacks (x, y).
func (b *mBoard) attacked(x, y int, white bool) bool {
	mine := func(pc byte) bool { return pc != 0 && isWhite(pc) == white }
	role := func(pc byte) byte { return pc | 0x20 }
	in := func(x, y int) bool { return x >= 0 && x < 8 && y >= 0 && y < 8 }
	// Pawns attack one rank forward, diagonally: look one rank back from (x, y).
	back := -1
	if !white {
		back = 1
	}
	for _, dx := range []int{-1, 1} {
		if px, py := x+dx, y+back; in(px, py) && mine(b[px][py]) && role(b[px][py]) == 'p' {
			return true
		}
	}
	for _, d := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
		if nx, ny := x+d[0], y+d[1]; in(nx, ny) && mine(b[nx][ny]) && role(b[nx][ny]) == 'n' {
			return true
		}
	}
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		diagonal := d[0] != 0 && d[1] != 0
		for k := 1; ; k++ {
			nx, ny := x+k*d[0], y+k*d[1]
			if !in(nx, ny) {
				break
			}
			pc := b[nx][ny]
			if pc == 0 {
				continue
			}
			if mine(pc) {
				switch r := role(pc); {
				case r == 'q', r == 'r' && !diagonal, r == 'b' && diagonal, r == 'k' && k == 1:
					return true
				}
			}
			break
		}
	}
	return false
}

// kingAttacked reports whether the king of the side white is attacked; it fails unless
// each side has exactly one king.
func (b *mBoard) kingAttacked(t *testing.T, white bool) bool {
	t.Helper()
	var kx, ky, n [2]int
	for x := range 8 {
		for y := range 8 {
			switch b[x][y] {
			case 'K':
				kx[0], ky[0] = x, y
				n[0]++
			case 'k':
				kx[1], ky[1] = x, y
				n[1]++
			}
		}
	}
	if n != [2]int{1, 1} {
		t.Fatalf("model: %v kings (white, black): a king was destroyed or changed sides", n)
	}
	i := 0
	if !white {
		i = 1
	}
	return b.attacked(kx[i], ky[i], !white)
}

// offered checks, when seat is in check at the start of its turn, every card its hand
// lists as playable: each one, played on each of its targets, leaves the king
// unattacked by itself ("seules les cartes qui t'en sortent restent jouables").
func (m *model) offered(t *testing.T, ctx string, s State, seat int) {
	t.Helper()
	b, _ := mFEN(t, m.fen)
	if m.turnCard || !b.kingAttacked(t, seat == 0) {
		return
	}
	for _, hc := range (Rules{}).Hand(s, seat) {
		for _, tg := range hc.Targets {
			evs, err := Rules{}.Decide(s, game.Action{Seat: seat, Do: cards.PlayCard{Slot: hc.Slot, Targets: tg}})
			if err != nil {
				t.Fatalf("%s: %s on %v is listed, but Decide refuses it: %v", ctx, hc.Card, tg, err)
			}
			for _, e := range evs {
				if c, ok := e.Event.(CardPlayed); ok {
					if after, _ := mFEN(t, c.FEN); after.kingAttacked(t, seat == 0) {
						t.Fatalf("%s: in check, %s on %v is listed as playable but does not save the king", ctx, hc.Card, tg)
					}
				}
			}
			m.seen["card offered in check"]++
		}
	}
}

// command checks the events of one command of seat, from the model's state before it,
// and moves the model on; after is the state the events fold to.
func (m *model) command(t *testing.T, ctx string, seat int, evs []game.Emitted, after State) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: seat %d: %s", ctx, seat, fmt.Sprintf(format, args...))
	}
	startBoard, _ := mFEN(t, m.fen)
	inCheck := startBoard.kingAttacked(t, seat == 0)
	if m.turnCard {
		inCheck = false // the rest of a turn whose card was already played
	}
	woke, blasted := 0, map[int]bool{}
	for _, e := range evs {
		switch e := e.Event.(type) {
		case CardPlayed:
			if m.turnCard {
				fail("a second card in one turn: %s", e.Card)
			}
			if m.hand[seat][e.Slot] != e.Card {
				fail("%s played from slot %d, which holds %q", e.Card, e.Slot, m.hand[seat][e.Slot])
			}
			m.turnCard, m.hand[seat][e.Slot] = true, ""
			b, _ := mFEN(t, e.FEN)
			if inCheck && b.kingAttacked(t, seat == 0) {
				fail("%s played in check does not take the king out of check", e.Card)
			}
			m.fen = e.FEN
			m.seen["card"]++
			if inCheck {
				m.seen["card in check"]++
			}
		case MovePlayed:
			if m.sleeping[e.Piece] && !m.lifted {
				fail("the sleeping piece %d moves: %s", e.Piece, e.UCI)
			}
			b, _ := mFEN(t, e.FEN)
			b.kingAttacked(t, true)
			m.fen = e.FEN
			m.seen["move"]++
		case CardDrawn:
			if m.hand[e.Seat][e.Slot] != "" || m.deck[e.Seat] == 0 {
				fail("a draw into slot %d holding %q, %d cards in the deck", e.Slot, m.hand[e.Seat][e.Slot], m.deck[e.Seat])
			}
			m.hand[e.Seat][e.Slot] = e.Card
			m.deck[e.Seat]--
		case CardDiscarded:
			if e.Slot < 0 {
				m.deck[e.Seat]--
			} else {
				m.hand[e.Seat][e.Slot] = ""
			}
		case StatusApplied:
			switch e.Status {
			case Sleep:
				m.sleeping[e.Piece] = true
			case Shield:
				m.shields[e.Piece] = e.Seat
			}
			m.seen["status "+e.Status]++
		case StatusEnded:
			switch e.Reason {
			case "woke":
				if e.Status != Sleep {
					fail("%s woke", e.Status)
				}
				delete(m.sleeping, e.Piece)
				woke++
			case "expired":
				by, ok := m.shields[e.Piece]
				if e.Status != Shield || !ok || by == seat {
					fail("%s of piece %d expired at the end of seat %d's turn", e.Status, e.Piece, seat)
				}
				delete(m.shields, e.Piece)
				m.seen["shield expired"]++
			case "antidote":
				delete(m.sleeping, e.Piece)
				delete(m.shields, e.Piece)
			default:
				fail("a status ended because %q", e.Reason)
			}
		case RestrictionsSuspended:
			m.seen["suspended"]++
		case StatusTriggered:
			for _, x := range e.Removed {
				blasted[x.Piece] = e.Status == Dynamite
			}
			m.seen["triggered "+e.Status]++
		}
	}
	// Pieces that left the board take their statuses with them.
	for id := range m.sleeping {
		if _, on := after.Pos.SquareOf(chess.PieceID(id)); !on {
			delete(m.sleeping, id)
		}
	}
	for id, by := range m.shields {
		if _, on := after.Pos.SquareOf(chess.PieceID(id)); !on {
			if by != seat && !blasted[id] {
				fail("piece %d, shielded by the opponent, was taken in its next turn", id)
			}
			delete(m.shields, id)
		}
	}
	ended := after.toAct() != seat
	if ended {
		b, _ := mFEN(t, m.fen)
		if b.kingAttacked(t, seat == 0) {
			fail("the turn ends with its own king attacked: %s", m.fen)
		}
		check := b.kingAttacked(t, seat != 0)
		switch {
		case woke > 0 && !check:
			fail("%d sleepers woke, but the turn gave no check: %s", woke, m.fen)
		case check && len(m.sleeping) > 0:
			fail("the turn gave check, but %d sleepers sleep on", len(m.sleeping))
		}
		if woke > 0 {
			m.seen["woke"]++
		}
		for id, by := range m.shields {
			if by != seat {
				fail("the shield of piece %d outlives the opponent's turn", id)
			}
		}
		m.turnCard, m.lifted = false, false
		for _, e := range evs {
			if r, ok := e.Event.(RestrictionsSuspended); ok && r.Seat != seat {
				m.lifted = true // the next turn's, recorded as this one ends
			}
		}
	} else if woke > 0 {
		fail("sleepers woke in the middle of a turn")
	}
	for s := range 2 {
		filled := 0
		for _, c := range m.hand[s] {
			if c != "" {
				filled++
			}
		}
		if m.deck[s] > 0 && filled != HandSize {
			fail("seat %d holds %d cards with %d in its deck", s, filled, m.deck[s])
		}
		if m.hand[s] != after.Sides[s].Hand || m.deck[s] != len(after.Sides[s].Deck) {
			fail("seat %d: the events dealt %v and %d in the deck, the state holds %v and %d", s, m.hand[s], m.deck[s], after.Sides[s].Hand, len(after.Sides[s].Deck))
		}
	}
}

// TestModelPlayouts plays seeded random games (randomAction: cards half the time) and
// checks every command against the model.
func TestModelPlayouts(t *testing.T) {
	// A few seconds by default; UNFAIR_MODEL_GAMES=200 for a long run.
	games, long := longtest.Games(t, "UNFAIR_MODEL_GAMES", 4, 16)
	plies := 200
	if long {
		plies = 400
	}
	r := Rules{}
	seen, actions := map[string]int{}, 0
	for g := range games {
		seed := uint64(1000 + g)
		rng := rand.New(rand.NewPCG(seed, 0x0de1))
		opening, err := r.Setup(game.Setup{Seed: []byte(fmt.Sprintf("model-%d", g))})
		if err != nil {
			t.Fatal(err)
		}
		m := &model{sleeping: map[int]bool{}, shields: map[int]int{}, seen: seen}
		var st game.State
		for _, e := range opening {
			switch e := e.Event.(type) {
			case GameStarted:
				m.fen = e.FEN
			case DeckShuffled:
				m.deck[e.Seat] = len(e.Cards)
			case CardDrawn:
				m.hand[e.Seat][e.Slot] = e.Card
				m.deck[e.Seat]--
			}
			st = r.Evolve(st, e.Event)
		}
		s := st.(State)
		for ply := 0; ply < plies && !r.Status(s).Over; ply++ {
			seat := s.toAct()
			m.offered(t, fmt.Sprintf("game %d action %d", g, ply), s, seat)
			a := randomAction(rng, s)
			after, evs := act(t, s, a)
			m.command(t, fmt.Sprintf("game %d action %d (%+v)", g, ply, a), seat, evs, after)
			s = after
			actions++
		}
		if st := r.Status(s); st.Over {
			seen["end: "+st.Outcome.Reason]++
		}
	}
	t.Logf("%d games, %d actions checked against the model: %v", games, actions, seen)
	for _, k := range []string{"card", "status sleep", "status shield", "shield expired"} {
		if seen[k] == 0 && !testing.Short() {
			t.Errorf("the playouts never met a %s", k)
		}
	}
}
