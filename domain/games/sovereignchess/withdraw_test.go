package sovereignchess

import (
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

// The Royale positions of these tests put White at seat 2, Ash at seat 0, Slate at
// seat 3 and Black at seat 1 (royaleOrder2031).

// withdraw has seat withdraw at noon, as the match asks when it resigns, and folds what
// Withdraw records.
func withdraw(t *testing.T, st State, seat int) (State, []game.Event) {
	t.Helper()
	return withdrawAt(t, st, seat, noon)
}

// withdrawAt has seat withdraw at when.
func withdrawAt(t *testing.T, st State, seat int, when time.Time) (State, []game.Event) {
	t.Helper()
	evs := r.Withdraw(st, seat, when)
	if len(evs) == 0 {
		t.Fatalf("seat %d cannot withdraw", seat)
	}
	return fold(t, st, evs)
}

// army is the owner and controller of colour on the board.
func army(st State, colour string) game.Army {
	for _, a := range r.Board(st).Armies {
		if a.Colour == colour {
			return a
		}
	}
	return game.Army{}
}

// toAct plays the first legal move of each seat to act, n times, and returns the seats
// that acted.
func toAct(t *testing.T, st State, n int) (State, []int) {
	t.Helper()
	var seats []int
	for range n {
		seats = append(seats, r.Status(st).ToAct...)
		st, _ = move(t, st, r.Board(st).LegalMoves[0])
	}
	return st, seats
}

func TestRoyaleWithdrawalOfASeatNotToAct(t *testing.T) {
	st := royale(t, royaleKings+"wki1 wpe2 spo8", "1 w a s b - 0")
	st, evs := withdraw(t, st, 3)
	same(t, "Slate withdraws", evs, []game.Event{PlayerWithdrew{Seat: 3, Colour: "slate", Square: "p8"}})
	same(t, "White still to act, Slate out", r.Status(st), game.Status{ToAct: []int{2}, Phase: "play", Out: []int{3}})
	b := r.Board(st)
	if !strings.HasSuffix(b.FEN, " 1 w a - b - 0") || strings.Contains(b.FEN, "sk") {
		t.Errorf("board %s: the slate king stays, or Slate still owns its army", b.FEN)
	}
	same(t, "interregnum", b.Interregnum, []int{})
	same(t, "the slate army", army(st, "slate"), game.Army{Colour: "slate", Owner: -1, Controller: -1})
	// Slate's turns are skipped.
	st, seats := toAct(t, st, 6)
	same(t, "turns", seats, []int{2, 0, 1, 2, 0, 1})
	refused(t, st, 3, game.Move{Notation: "o8n8"}, game.NotYourTurn)
	if _, err := r.Decide(st, game.Action{Seat: 3, Do: game.ClaimDraw{}}); game.CodeOf(err) != game.NotYourTurn {
		t.Errorf("a withdrawn seat claims: %v", err)
	}
}

func TestRoyaleWithdrawalOfTheSeatToAct(t *testing.T) {
	st := royale(t, royaleKings+"wki1 wpe2", "1 w a s b - 0")
	st, evs := withdraw(t, st, 2)
	same(t, "White withdraws", evs, []game.Event{PlayerWithdrew{Seat: 2, Colour: "white", Square: "i1"}})
	same(t, "Ash acts next, White out", r.Status(st), game.Status{ToAct: []int{0}, Phase: "play", Out: []int{2}})
	st, seats := toAct(t, st, 4)
	same(t, "turns", seats, []int{0, 3, 1, 0})
	// Then Black, to act, withdraws too: two seats and two kings are left.
	pos := st.Game.Position()
	k, _ := pos.King(3)
	st, evs = withdraw(t, st, 1)
	same(t, "Black withdraws", evs, []game.Event{PlayerWithdrew{Seat: 1, Colour: "black", Square: k.String()}})
	same(t, "out", r.Status(st).Out, []int{1, 2})
	_, seats = toAct(t, st, 3)
	same(t, "turns", seats, []int{3, 0, 3})
}

func TestRoyaleWithdrawalLeavesTheLastKing(t *testing.T) {
	// White escaped earlier, Slate lost its king: Ash withdraws and Black's king is the
	// last. The seat that withdrew lost; the escaped one ties.
	st := royale(t, "aka9 bkh16 bra1 wpe2", "4 w* a s b - 0")
	same(t, "interregnum", r.Board(st).Interregnum, []int{2, 3})
	over, evs := withdraw(t, st, 0)
	same(t, "Ash withdraws", evs, []game.Event{
		PlayerWithdrew{Seat: 0, Colour: "ash", Square: "a9"},
		GameEnded{Reason: "last king standing", Winners: []int{1}, Standings: []string{"lost", "won", "tied", "lost"}},
	})
	same(t, "status", r.Status(over), game.Status{Phase: "over", Over: true, Outcome: game.Outcome{Winners: []int{1}, Reason: "last king standing"}})
	if b := r.Board(over); len(b.LegalMoves) != 0 || b.Interregnum != nil {
		t.Errorf("board after the end: %+v", b)
	}
	if evs := r.Withdraw(over, 2, noon); evs != nil {
		t.Errorf("a withdrawal after the end: %+v", evs)
	}
	wantAuditError(t, over, PlayerWithdrew{Seat: 2, Colour: "white"}, "after the game ended")
}

func TestRoyaleWithdrawalInInterregnum(t *testing.T) {
	// White lost its king: it withdraws without one, and leaves Interregnum for good.
	st := royale(t, royaleKings+"wpe2", "1 w a s b - 0")
	same(t, "interregnum", r.Board(st).Interregnum, []int{2})
	st, evs := withdraw(t, st, 2)
	same(t, "White withdraws", evs, []game.Event{PlayerWithdrew{Seat: 2, Colour: "white"}})
	same(t, "interregnum", r.Board(st).Interregnum, []int{})
	same(t, "Ash acts next", r.Status(st).ToAct, []int{0})
}

func TestRoyaleWithdrawalAnnouncesChecks(t *testing.T) {
	// White's rook on p3 checks Slate's king on p8. Once White withdraws, its army is
	// neutral: the check is gone ...
	st := royale(t, royaleKings+"wki1 wrp3", "1 w a s b - 0")
	st, evs := withdraw(t, st, 2)
	same(t, "neutral rook", evs, []game.Event{PlayerWithdrew{Seat: 2, Colour: "white", Square: "i1"}})
	same(t, "checked", r.Board(st).Checked, []int{})
	// ... unless another seat controls white: Ash's knight on h9, a white square. The
	// check stands, now Ash's, and is announced.
	st = royale(t, royaleKings+"wki1 wrp3 anh9", "1 w a s b - 0")
	st, evs = withdraw(t, st, 2)
	same(t, "Ash's rook", evs, []game.Event{PlayerWithdrew{Seat: 2, Colour: "white", Square: "i1"}, ChecksAnnounced{Seats: []int{3}}})
	same(t, "the white army", army(st, "white"), game.Army{Colour: "white", Owner: -1, Controller: 0})
	if _, evs = move(t, st, "p3p8"); len(evs) != 2 || evs[0] != (KingCaptured{Seat: 3, By: 0, Colour: "slate", Square: "p8"}) {
		t.Errorf("Ash takes the king with White's rook: %+v", evs)
	}
}

func TestRoyaleDrawClaimedAfterAWithdrawal(t *testing.T) {
	st := royale(t, royaleKings+"wki1", "1 w a s b - 0")
	st, _ = withdraw(t, st, 3)
	for range 2 {
		st = play(t, st, "i1i2", "a9a8", "h16h15", "i2i1", "a8a9", "h15h16")
	}
	_, evs := act(t, st, 2, game.ClaimDraw{})
	same(t, "claimed", evs[1], GameEnded{Reason: "draw claimed (threefold repetition)", Winners: []int{}, Standings: []string{"tied", "tied", "tied", "lost"}})
}

func TestWithdrawNothing(t *testing.T) {
	two := twoPlayer(t, "wki1 bki16 wpe2", "1 w b - 10")
	opening, _ := seeded(t, nil, seedFirstMover1)
	opening, _ = move(t, opening, "e2e4")
	st := royale(t, royaleKings+"wki1", "1 w a s b - 0")
	withdrawn, _ := withdraw(t, st, 1)
	for name, tc := range map[string]struct {
		st   game.State
		seat int
	}{
		"two players":           {two, 1},
		"the opening choice":    {opening, 0},
		"a seat that withdrew":  {withdrawn, 1},
		"a seat out of range":   {st, 4},
		"a game not started":    {State{}, 0},
		"not a Sovereign state": {nil, 0},
	} {
		if evs := r.Withdraw(tc.st, tc.seat, noon); evs != nil {
			t.Errorf("%s: %+v", name, evs)
		}
	}
}

func TestAuditWithdrawals(t *testing.T) {
	st := royale(t, royaleKings+"wki1", "1 w a s b - 0")
	honest := PlayerWithdrew{Seat: 0, Colour: "ash", Square: "a9"}
	if err := r.Audit(st, honest); err != nil {
		t.Fatalf("an honest withdrawal: %v", err)
	}
	wantAuditError(t, st, PlayerWithdrew{Seat: 0, Colour: "white", Square: "a9"}, `colour "white" recorded, the rules give "ash"`)
	wantAuditError(t, st, PlayerWithdrew{Seat: 0, Colour: "ash"}, `square (none) recorded, the rules give "a9"`)
	wantAuditError(t, st, PlayerWithdrew{Seat: 5, Colour: "ash"}, "seat 5 does not play")
	wantAuditError(t, twoPlayer(t, "wki1 bki16", "1 w b - 10"), PlayerWithdrew{Seat: 1, Colour: "black", Square: "i16"}, "only a Royale seat")
	withdrawn, _ := withdraw(t, st, 0)
	wantAuditError(t, withdrawn, honest, "withdrew already")
	wantAuditError(t, withdrawn, MovePlayed{Seat: 0, Move: "a9a8"}, "seat 0 recorded, but seat [2] was to act")
	// A withdrawal that ends the game must be followed by GameEnded.
	last := royale(t, "aka9 bkh16", "2 - a - b - 0")
	over := r.Evolve(last, PlayerWithdrew{Seat: 0, Colour: "ash", Square: "a9"})
	wantAuditError(t, over, MovePlayed{Seat: 1, Move: "h16h15"}, "MovePlayed recorded where the rules record GameEnded")
}
