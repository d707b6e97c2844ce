package sovereignchess

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/sovereign"
)

func TestInfoAndPlan(t *testing.T) {
	if i := r.Info(); i.ID != "SOVEREIGN_CHESS" || i.Name != "Sovereign Chess" || i.RulesVersion == "" {
		t.Errorf("info %+v", i)
	}
	for _, tc := range []struct {
		opts game.Options
		want game.Plan
	}{
		{nil, game.Plan{Seats: 2, Teams: []int{0, 1}}},
		{game.Options{"mode": "TWO_PLAYER"}, game.Plan{Seats: 2, Teams: []int{0, 1}}},
		{game.Options{"mode": "ROYALE"}, game.Plan{Seats: 4, Teams: []int{0, 1, 2, 3}}},
		{game.Options{"mode": "ROYALE", "position": sovereign.RoyaleStartNotation}, game.Plan{Seats: 4, Teams: []int{0, 1, 2, 3}}},
	} {
		p, err := r.Plan(tc.opts)
		if err != nil {
			t.Fatalf("%v: %v", tc.opts, err)
		}
		same(t, "plan of "+strings.Join(slices.Sorted(maps.Keys(tc.opts)), ","), p, tc.want)
	}
	kings := "wki1 bki16"
	for _, tc := range []struct {
		opts game.Options
		says string
	}{
		{game.Options{"mode": "royale"}, "TWO_PLAYER, ROYALE"},
		{game.Options{"mode": "FOUR_PLAYER"}, "TWO_PLAYER, ROYALE"},
		{game.Options{"fen": sovereign.StartNotation}, "known: mode, position"},
		{game.Options{"position": "16/16 1 w b - 0"}, "option position"},
		{game.Options{"position": sovereign.StartNotation, "mode": "ROYALE"}, "ROYALE position has 4 owned colours"},
		{game.Options{"position": sovereign.RoyaleStartNotation}, "TWO_PLAYER position has 2 owned colours"},
		// Black is checkmated already (see TestTwoPlayerCheckmate).
		{game.Options{"position": notation(t, "wki1 wqa13 wrb10 bka16", "2 w b - 10")}, "already over"},
		// One king left in Royale.
		{game.Options{"mode": "ROYALE", "position": notation(t, "bkh16 wpe2", "1 w* a s b - 0")}, "already over"},
	} {
		_, err := r.Plan(tc.opts)
		if game.CodeOf(err) != game.BadInput || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: %v, want BAD_USER_INPUT saying %q", tc.opts, err, tc.says)
		}
		if _, err := r.Setup(game.Setup{Options: tc.opts}); game.CodeOf(err) != game.BadInput {
			t.Errorf("Setup %v: %v", tc.opts, err)
		}
	}
	if _, err := r.Plan(game.Options{"position": notation(t, kings, "1 w b - 0")}); err != nil {
		t.Errorf("two kings: %v", err)
	}
}

func TestSetupDrawsFromTheSeed(t *testing.T) {
	for _, tc := range []struct {
		seed  string
		first int
		order []int
	}{
		{seedFirstMover1, 1, []int{3, 0, 1, 2}},
		{seedFirstMover0, 0, []int{2, 1, 0, 3}},
	} {
		// The published derivation: the low bit of the first byte of sha256(seed || label).
		if sum := sha256.Sum256([]byte(tc.seed + "sovereign/opening")); int(sum[0]&1) != tc.first {
			t.Fatalf("%s: the test's expectation does not follow the derivation", tc.seed)
		}
		for range 2 { // deterministic: the same seed deals the same events
			st, e := seeded(t, nil, tc.seed)
			same(t, tc.seed+" two players", e, GameStarted{Mode: TwoPlayer, Position: sovereign.StartNotation, FirstMover: tc.first})
			same(t, tc.seed+" to act", r.Status(st), game.Status{ToAct: []int{tc.first}, Phase: "play"})
			st, e = seeded(t, game.Options{"mode": Royale}, tc.seed)
			same(t, tc.seed+" royale", e, GameStarted{Mode: Royale, Position: sovereign.RoyaleStartNotation, FirstMover: -1, Order: tc.order})
			// White moves first, from the seat drawn for White.
			same(t, tc.seed+" royale to act", r.Status(st).ToAct, []int{tc.order[0]})
		}
	}
	// Every order is a permutation, and different seeds deal different ones, under every
	// procedure; V1's first movers are both drawn.
	for _, v := range []fairness.Version{fairness.Legacy, fairness.V1} {
		orders, firsts := map[string]bool{}, map[int]bool{}
		for i := range 200 {
			seed := []byte{byte(i), byte(i >> 8), 7}
			o := royaleOrder(v, seed)
			if !slices.Equal(slices.Sorted(slices.Values(o)), []int{0, 1, 2, 3}) {
				t.Fatalf("order %v", o)
			}
			orders[fmt.Sprint(o)] = true
			firsts[firstMover(v, seed)] = true
		}
		if len(orders) != 24 || len(firsts) != 2 {
			t.Errorf("procedure %d: 200 seeds dealt %d of the 24 orders and first movers %v", v, len(orders), firsts)
		}
	}
	// A position past the first move has no opening choice: seat 0 plays side "1".
	st, e := seeded(t, game.Options{"position": notation(t, "wki1 bki16 wpe2", "1 w b - 10")}, seedFirstMover1)
	if e.FirstMover != -1 || r.Status(st).ToAct[0] != 0 {
		t.Errorf("no opening: %+v, to act %v", e, r.Status(st).ToAct)
	}
}

func TestOpeningKeepOrRefuse(t *testing.T) {
	for _, tc := range []struct {
		option       string
		white, black int
	}{
		{"keep", 0, 1},     // the chooser, seat 0, takes White and its first move
		{" Refuse ", 1, 0}, // the chooser takes Black; the first mover plays White
	} {
		st, _ := seeded(t, nil, seedFirstMover1)
		// Before White's first move there is nothing to choose, and seat 0 may not act.
		refused(t, st, 0, game.Choose{Option: "keep"}, game.NotYourTurn)
		refused(t, st, 1, game.Choose{Option: "keep"}, game.IllegalMove)
		refused(t, st, 0, game.Move{Notation: "e2e4"}, game.NotYourTurn)
		st, evs := act(t, st, 1, game.Move{Notation: "e2e4"})
		if mv := evs[0].(MovePlayed); len(evs) != 1 || mv.Seat != 1 || mv.Piece == 0 {
			t.Fatalf("White's first move: %+v", evs)
		}
		same(t, "waiting for the choice", r.Status(st), game.Status{ToAct: []int{0}, Phase: "opening-choice", Choices: []string{"keep", "refuse"}})
		// Until the choice, the armies are shown as a refusal would leave them, and no
		// move is legal.
		b := r.Board(st)
		if b.Armies[sovereign.White].Owner != 1 || b.Armies[sovereign.Black].Owner != 0 || len(b.LegalMoves) != 0 {
			t.Errorf("armies before the choice: %+v %+v, %d moves", b.Armies[0], b.Armies[3], len(b.LegalMoves))
		}
		refused(t, st, 1, game.Choose{Option: "keep"}, game.NotYourTurn)
		refused(t, st, 0, game.Move{Notation: "e15e13"}, game.IllegalMove)
		refused(t, st, 0, Defect{Colour: "pink"}, game.IllegalMove)
		if err := refused(t, st, 0, game.Choose{Option: "maybe"}, game.BadInput); !strings.Contains(err.Reason, `"keep"`) {
			t.Errorf("a bad option: %v", err)
		}
		st, evs = act(t, st, 0, game.Choose{Option: tc.option})
		same(t, tc.option, evs, []game.Event{OpeningChosen{Seat: 0, Option: strings.ToLower(strings.TrimSpace(tc.option)), White: tc.white, Black: tc.black}})
		same(t, tc.option+": Black to move", r.Status(st), game.Status{ToAct: []int{tc.black}, Phase: "play"})
		b = r.Board(st)
		if b.Armies[sovereign.White].Owner != tc.white || b.Armies[sovereign.Black].Controller != tc.black || len(b.LegalMoves) == 0 {
			t.Errorf("%s: armies %+v %+v", tc.option, b.Armies[0], b.Armies[3])
		}
		refused(t, st, tc.black, game.Choose{Option: "keep"}, game.IllegalMove) // once only
		st = play(t, st, "e15e13", "f2f4")
		same(t, tc.option+": moves", r.MoveList(st), []string{"e2e4", "e15e13", "f2f4"})
		if to := r.Status(st).ToAct; !slices.Equal(to, []int{tc.black}) {
			t.Errorf("%s: to act %v after three moves", tc.option, to)
		}
	}
}

func TestMovesAndRefusals(t *testing.T) {
	st := twoPlayer(t, "wki1 bki16 wpe2 wnf1", "1 w b - 10")
	refusedAll(t, st, 0, []refusal{
		{game.Move{Notation: "zz"}, game.BadInput, "malformed"},
		{game.Move{Notation: "e2e2"}, game.BadInput, "malformed"},
		{game.Move{Notation: "e2e5"}, game.IllegalMove, "illegal"},
		{game.Move{Notation: "a1a2"}, game.IllegalMove, "no piece on a1"},
		{game.Move{Notation: "i16i15"}, game.IllegalMove, "does not control the black king"},
		{game.Move{Notation: "escape"}, game.IllegalMove, "illegal"},
		{game.ClaimDraw{}, game.IllegalMove, "no draw"},
		{game.Choose{Option: "keep"}, game.IllegalMove, "no choice"},
		{game.Timeout{}, game.Conflict, "without a clock"},
		{cards.PlayCard{Card: "x"}, game.BadInput, "has no cards"},
	})
	refused(t, st, 1, game.Move{Notation: "i16i15"}, game.NotYourTurn)
	refused(t, st, game.System, game.Move{Notation: "e2e4"}, game.NotYourTurn)

	before := r.Board(st).FEN
	next, evs := act(t, st, 0, game.Move{Notation: "f1e3"})
	knight := st.Game.Position()
	f1, _ := sovereign.ParseSquare("f1")
	mv := evs[0].(MovePlayed)
	if len(evs) != 1 || mv.Seat != 0 || mv.Move != "f1e3" || mv.Piece != int(knight.PieceID(f1)) || mv.Position != r.Board(next).FEN {
		t.Fatalf("f1e3 recorded as %+v", evs)
	}
	if want := notation(t, "wki1 bki16 wpe2 wne3", "2 w b - 11"); mv.Position != want {
		t.Errorf("position after f1e3:\n got %s\nwant %s", mv.Position, want)
	}
	if r.Board(st).FEN != before {
		t.Error("evolving changed the state before")
	}
	same(t, "to act", r.Status(next), game.Status{ToAct: []int{1}, Phase: "play"})
}

func TestDefections(t *testing.T) {
	// White controls yellow through its pawn on f11, a yellow square.
	st := twoPlayer(t, "wki1 bki16 wpf11 yqa7", "1 w b - 10")
	for _, colour := range []string{"Yellow", "y", "YELLOW", "Y"} {
		_, evs := act(t, st, 0, Defect{Colour: colour})
		if mv := evs[0].(MovePlayed); mv.Move != "=y" || mv.Piece != int(idOn(st, "i1")) {
			t.Errorf("%s: %+v", colour, mv)
		}
		same(t, colour, evs[1:], []game.Event{Defected{Seat: 0, From: "white", To: "yellow"}})
	}
	// The same defection written as a move.
	after, evs := act(t, st, 0, game.Move{Notation: "=y"})
	same(t, "=y", evs[1:], []game.Event{Defected{Seat: 0, From: "white", To: "yellow"}})
	b := r.Board(after)
	same(t, "yellow after", b.Armies[sovereign.Yellow], game.Army{Colour: "yellow", Owner: 0, Controller: 0})
	same(t, "white after", b.Armies[sovereign.White], game.Army{Colour: "white", Owner: -1, Controller: -1})
	refusedAll(t, st, 0, []refusal{
		{Defect{Colour: "purple"}, game.BadInput, "yellow (y)"},
		{Defect{Colour: ""}, game.BadInput, "not a colour"},
		{Defect{Colour: "white"}, game.IllegalMove, "white already"},
		{Defect{Colour: "navy"}, game.IllegalMove, "do not control navy"},
		{Defect{Colour: "yellow", KingMove: "i1i2"}, game.IllegalMove, "is the whole move"},
	})

	// The king stands on k6, a yellow square, and so controls yellow: defecting to
	// yellow, it must move off the square in the same turn.
	st = twoPlayer(t, "wkk6 bki16", "1 w b - 10")
	if err := refused(t, st, 0, Defect{Colour: "yellow"}, game.IllegalMove); !strings.Contains(err.Reason, "give KingMove") {
		t.Errorf("no king move: %v", err)
	}
	refused(t, st, 0, Defect{Colour: "yellow", KingMove: "k6"}, game.BadInput)
	refused(t, st, 0, Defect{Colour: "yellow", KingMove: "k6k8"}, game.IllegalMove)
	after, evs = act(t, st, 0, Defect{Colour: "yellow", KingMove: "k6k7"})
	if mv := evs[0].(MovePlayed); mv.Move != "=yk6k7" || mv.Piece != int(idOn(st, "k6")) {
		t.Errorf("=yk6k7: %+v", mv)
	}
	same(t, "=yk6k7", evs[1:], []game.Event{Defected{Seat: 0, From: "white", To: "yellow"}})
	if p := after.Game.Position(); p.PieceAt(square("k7")) != sovereign.NewPiece(sovereign.Yellow, sovereign.King) {
		t.Errorf("after =yk6k7: %s", p.Notation())
	}
}

func TestRegimeChangeByPromotion(t *testing.T) {
	// A coup d'état: White's own pawn becomes its king; the old king leaves.
	st := twoPlayer(t, "wki1 bki16 wpg6", "1 w b - 10")
	after, evs := move(t, st, "g6g7k")
	same(t, "coup", evs, []game.Event{KingCrowned{Seat: 0, Colour: "white", Square: "g7", Kind: "coup"}})
	if p := after.Game.Position(); p.PieceAt(square("g7")) != sovereign.NewPiece(sovereign.White, sovereign.King) || p.PieceAt(square("i1")) != 0 {
		t.Errorf("after the coup: %s", p.Notation())
	}
	// An overthrow: White controls pink through its pawn on h11, a pink square, and
	// crowns a pink pawn: pink is White's now, white nobody's.
	st = twoPlayer(t, "wki1 bki16 wph11 ppg6", "1 w b - 10")
	after, evs = move(t, st, "g6g7k")
	same(t, "overthrow", evs, []game.Event{KingCrowned{Seat: 0, Colour: "pink", Square: "g7", Kind: "overthrow"}})
	b := r.Board(after)
	same(t, "pink", b.Armies[sovereign.Pink], game.Army{Colour: "pink", Owner: 0, Controller: 0})
}

func TestDrawClaim(t *testing.T) {
	st, _ := seeded(t, nil, seedFirstMover0)
	st, _ = act(t, st, 0, game.Move{Notation: "f1e3"})
	st, _ = act(t, st, 1, game.Choose{Option: "refuse"}) // seat 1 plays Black, seat 0 White
	st = play(t, st, "f16e14", "e3f1", "e14f16")
	refused(t, st, 0, game.ClaimDraw{}, game.IllegalMove) // twice only
	st = play(t, st, "f1e3", "f16e14", "e3f1", "e14f16")
	refused(t, st, 1, game.ClaimDraw{}, game.NotYourTurn)
	over, evs := act(t, st, 0, game.ClaimDraw{})
	same(t, "claim", evs, []game.Event{
		DrawClaimed{Seat: 0, Reason: "threefold repetition"},
		GameEnded{Reason: "draw claimed (threefold repetition)", Winners: []int{}, Standings: []string{"tied", "tied"}},
	})
	same(t, "status", r.Status(over), game.Status{Phase: "over", Over: true, Outcome: game.Outcome{Winners: []int{}, Reason: "draw claimed (threefold repetition)"}})
	refused(t, over, 0, game.Move{Notation: "f1e3"}, game.Conflict)
	if b := r.Board(over); len(b.LegalMoves) != 0 {
		t.Errorf("legal moves after the end: %v", b.LegalMoves)
	}
}

// TestEvolveForks checks that states are values: evolving one state twice (the engine
// deciding on a cached state, a replay from an old version) leaves both successors and
// the state itself as they were.
func TestEvolveForks(t *testing.T) {
	st := play(t, twoPlayer(t, "wki1 bki16 wpe2 bpe15", "1 w b - 10"), "e2e3")
	a := play(t, st, "e15e14")
	b := play(t, st, "i16j16")
	a2, b2 := play(t, a, "e3e4"), play(t, b, "i1h1")
	for _, tc := range []struct {
		st   State
		want []string
	}{
		{st, []string{"e2e3"}},
		{a, []string{"e2e3", "e15e14"}},
		{b, []string{"e2e3", "i16j16"}},
		{a2, []string{"e2e3", "e15e14", "e3e4"}},
		{b2, []string{"e2e3", "i16j16", "i1h1"}},
	} {
		same(t, "moves", r.MoveList(tc.st), tc.want)
		p := tc.st.Game.Position()
		if p.Ply() != 10+len(tc.want) {
			t.Errorf("%v: ply %d", tc.want, p.Ply())
		}
	}
}

func idOn(st State, sq string) sovereign.PieceID {
	p := st.Game.Position()
	return p.PieceID(square(sq))
}

func square(s string) sovereign.Square {
	sq, ok := sovereign.ParseSquare(s)
	if !ok {
		panic("bad square " + s)
	}
	return sq
}

// An adversary's moves, each refused with a typed error and changing nothing. White (seat
// 0) has its king on i1 behind its bishop on i2, which the black rook on i8 (a white
// square, which gives Black nothing: White owns white) pins; a knight on h3; a rook on
// a2 facing the green queen on a9, which nobody controls; a pawn on e5, a navy square (so
// White controls navy, and l12 stays empty); a pawn on f11, a yellow square; a rook on
// l4; a knight on g11; a pawn on g6 at the edge of the central 4x4.
func TestAnAdversarysMovesAreRefused(t *testing.T) {
	st := twoPlayer(t, "wki1 wbi2 wnh3 wra2 gqa9 wpe5 wpf11 wrl4 wng11 wpg6 bki16 bri8", "1 w b - 10")
	refusedAll(t, st, 0, []refusal{
		{game.Move{Notation: "i2j3"}, game.IllegalMove, "not a legal move"},   // the pinned bishop leaves the king in check
		{game.Move{Notation: "a2a9"}, game.IllegalMove, "not a legal move"},   // takes a piece nobody controls
		{game.Move{Notation: "g11h9"}, game.IllegalMove, "not a legal move"},  // onto a square of its own colour
		{game.Move{Notation: "l4l12"}, game.IllegalMove, "not a legal move"},  // onto navy, whose other square is taken
		{game.Move{Notation: "a2a12"}, game.IllegalMove, "not a legal move"},  // past a piece
		{game.Move{Notation: "l4l13"}, game.IllegalMove, "not a legal move"},  // nine squares
		{game.Move{Notation: "g6g7"}, game.IllegalMove, "must promote"},       // into the central 4x4 without promoting
		{game.Move{Notation: "e5e6q"}, game.IllegalMove, "not a legal move"},  // a promotion outside it
		{game.Move{Notation: "g6g7p"}, game.BadInput, "malformed"},            // to a pawn
		{game.Move{Notation: "i1k1O"}, game.IllegalMove, "not a legal move"},  // castling with no rook
		{game.Move{Notation: "=nh3f2"}, game.IllegalMove, "not a legal move"}, // a defection then another piece's move
		{game.Move{Notation: "i16i15"}, game.IllegalMove, "does not control the black king"},
		{game.Move{Notation: strings.Repeat("e2", 5000)}, game.BadInput, "malformed"},
		// Defecting to yellow turns White's army neutral; the black rook on i8, a white
		// square, then gives Black the white pieces, and the knight on h3 checks the new
		// yellow king: a regime change may not put the new king in check.
		{Defect{Colour: "yellow"}, game.IllegalMove, "not a legal move"},
		{Defect{Colour: "navy", KingMove: "i1h1"}, game.IllegalMove, "is the whole move"},
	})
	refused(t, st, 1, game.Move{Notation: "i8i3"}, game.NotYourTurn)
	refused(t, st, 1, Defect{Colour: "black"}, game.NotYourTurn)
	refused(t, st, 1, game.ClaimDraw{}, game.NotYourTurn)
	// The same defection is legal once the knight is gone: what refused it was the check.
	st = twoPlayer(t, "wki1 wbi2 wra2 gqa9 wpe5 wpf11 wrl4 wng11 wpg6 bki16 bri8", "1 w b - 10")
	act(t, st, 0, Defect{Colour: "yellow"})
}

// A Royale seat may neither escape nor pass while it has a move that keeps its king out
// of check.
func TestRoyaleEscapeAndPassOnlyWhenDue(t *testing.T) {
	st := royale(t, royaleKings+"wki1 wpe2", "1 w a s b - 0")
	refusedAll(t, st, 2, []refusal{
		{game.Move{Notation: "escape"}, game.IllegalMove, "not a legal move"},
		{game.Move{Notation: "pass"}, game.IllegalMove, "not a legal move"},
	})
}
