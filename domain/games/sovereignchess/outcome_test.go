package sovereignchess

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

func TestTwoPlayerCheckmate(t *testing.T) {
	// The rook on b10 guards b15 and b16; the queen takes the a file: mate.
	st := twoPlayer(t, "wki1 wqe13 wrb10 bka16 bpp9", "1 w b - 10")
	over, evs := move(t, st, "e13a13")
	same(t, "facts after e13a13", evs, []game.Event{GameEnded{Reason: "checkmate", Winners: []int{0}, Standings: []string{"won", "lost"}}})
	same(t, "status", r.Status(over), game.Status{Phase: "over", Over: true, Outcome: game.Outcome{Winners: []int{0}, Reason: "checkmate"}})
	b := r.Board(over)
	if !b.InCheck || len(b.LegalMoves) != 0 || len(b.Checked) != 1 || b.Checked[0] != 1 {
		t.Errorf("board after mate: in check %v, moves %v, checked %v", b.InCheck, b.LegalMoves, b.Checked)
	}
	refused(t, over, 1, game.Move{Notation: "a16b16"}, game.Conflict)
}

func TestTwoPlayerCheckmateAfterTheChoice(t *testing.T) {
	// The first mover mates with White's first move: the game still waits for the choice,
	// which says who won.
	for _, tc := range []struct {
		option string
		winner int
	}{{"keep", 0}, {"refuse", 1}} {
		st := from(t, GameStarted{Mode: TwoPlayer, Position: notation(t, "wki1 wqe13 wrb10 bka16 bpp9", "1 w b - 0"), FirstMover: 1})
		st, evs := move(t, st, "e13a13")
		if len(evs) != 0 || r.Status(st).Over || r.Status(st).Phase != "opening-choice" {
			t.Fatalf("over before the choice: %+v %+v", evs, r.Status(st))
		}
		st, evs = act(t, st, 0, game.Choose{Option: tc.option})
		standings := []string{"won", "lost"}
		if tc.winner == 1 {
			standings = []string{"lost", "won"}
		}
		same(t, tc.option, evs[1:], []game.Event{GameEnded{Reason: "checkmate", Winners: []int{tc.winner}, Standings: standings}})
		if s := r.Status(st); !s.Over || s.Outcome.Winners[0] != tc.winner {
			t.Errorf("%s: %+v", tc.option, s)
		}
	}
}

func TestTwoPlayerStalemate(t *testing.T) {
	// The queen on b14 takes a15, b15 and b16 from the king on a16, without a check.
	st := twoPlayer(t, "wki1 wqb13 bka16", "1 w b - 10")
	over, evs := move(t, st, "b13b14")
	same(t, "stalemate", evs, []game.Event{GameEnded{Reason: "stalemate", Winners: []int{}, Standings: []string{"tied", "tied"}}})
	if s := r.Status(over); !s.Over || len(s.Outcome.Winners) != 0 {
		t.Errorf("status %+v", s)
	}
}

// The Royale positions of these tests put White at seat 2, Ash at seat 0, Slate at
// seat 3 and Black at seat 1 (royaleOrder2031).
const royaleKings = "aka9 skp8 bkh16 "

func TestRoyaleCheckAnnouncedThenKingCaptured(t *testing.T) {
	st := royale(t, royaleKings+"wki1 brb1 wpe2 apb9 spo8", "1 w a s b - 0")
	same(t, "White first", r.Status(st).ToAct, []int{2})
	// White leaves its king in check (legal in Royale): the check is announced ...
	st, evs := move(t, st, "e2e3")
	same(t, "after e2e3", evs, []game.Event{ChecksAnnounced{Seats: []int{2}}})
	// ... after every move while it stands.
	st, evs = move(t, st, "b9c9")
	same(t, "after b9c9", evs, []game.Event{ChecksAnnounced{Seats: []int{2}}})
	st, _ = move(t, st, "o8n8")
	b := r.Board(st)
	same(t, "checked", b.Checked, []int{2})
	same(t, "interregnum", b.Interregnum, []int{})
	// Black takes White's king: White's army is in Interregnum, and still moves.
	st, evs = move(t, st, "b1i1")
	same(t, "after b1i1", evs, []game.Event{
		KingCaptured{Seat: 2, By: 1, Colour: "white", Square: "i1"},
		InterregnumBegun{Seat: 2, Cause: "captured"},
	})
	same(t, "White moves on", r.Status(st), game.Status{ToAct: []int{2}, Phase: "play"})
	b = r.Board(st)
	same(t, "interregnum", b.Interregnum, []int{2})
	same(t, "white army", b.Armies[0], game.Army{Colour: "white", Owner: 2, Controller: 2})
	same(t, "White's moves", b.LegalMoves, []string{"e3e4", "e3f3"})
}

func TestRoyaleEscape(t *testing.T) {
	// White's king is not in check, and every move would put it in check: it escapes.
	st := royale(t, royaleKings+"wka1 brb8 brc2", "1 w a s b - 0")
	same(t, "moves", r.Board(st).LegalMoves, []string{"escape"})
	king := idOn(st, "a1")
	st, evs := act(t, st, 2, game.Move{Notation: "escape"})
	if mv := evs[0].(MovePlayed); mv.Piece != int(king) {
		t.Errorf("escape recorded as %+v", mv)
	}
	same(t, "after the escape", evs[1:], []game.Event{
		KingEscaped{Seat: 2, Colour: "white", Square: "a1"},
		InterregnumBegun{Seat: 2, Cause: "escaped"},
	})
	same(t, "interregnum", r.Board(st).Interregnum, []int{2})
	same(t, "Ash next", r.Status(st).ToAct, []int{0})
}

func TestRoyaleNewKingEndsInterregnum(t *testing.T) {
	st := royale(t, royaleKings+"wpg6", "1 w a s b - 0")
	same(t, "before", r.Board(st).Interregnum, []int{2})
	st, evs := move(t, st, "g6g7k")
	same(t, "long live the king", evs, []game.Event{InterregnumEnded{Seat: 2, Colour: "white", Square: "g7"}})
	same(t, "after", r.Board(st).Interregnum, []int{})
}

func TestRoyaleLastKingStanding(t *testing.T) {
	// White's king escaped earlier (the * of "w*"), Slate lost its king; Black takes
	// Ash's, the last king but its own.
	st := royale(t, "aka9 bkh16 bra1 wpe2", "4 w* a s b - 0")
	same(t, "Black to move", r.Status(st).ToAct, []int{1})
	over, evs := move(t, st, "a1a9")
	same(t, "after a1a9", evs, []game.Event{
		KingCaptured{Seat: 0, By: 1, Colour: "ash", Square: "a9"},
		InterregnumBegun{Seat: 0, Cause: "captured"},
		// By seat: Ash lost, Black won, White (escaped) tied, Slate lost.
		GameEnded{Reason: "last king standing", Winners: []int{1}, Standings: []string{"lost", "won", "tied", "lost"}},
	})
	same(t, "status", r.Status(over), game.Status{Phase: "over", Over: true, Outcome: game.Outcome{Winners: []int{1}, Reason: "last king standing"}})
	b := r.Board(over)
	if len(b.LegalMoves) != 0 || len(b.Interregnum) != 0 {
		t.Errorf("after the end: moves %v, interregnum %v", b.LegalMoves, b.Interregnum)
	}
}

func TestFivefoldRepetitionEndsTheGame(t *testing.T) {
	st := twoPlayer(t, "wki1 wnf1 bki16 bnf16", "1 w b - 10")
	dance := []string{"f1e3", "f16e14", "e3f1", "e14f16"}
	for range 3 {
		st = play(t, st, dance...)
	}
	st = play(t, st, dance[:3]...)
	over, evs := move(t, st, dance[3]) // the start position, a fifth time
	same(t, "fifth time", evs, []game.Event{GameEnded{Reason: "fivefold repetition", Winners: []int{}, Standings: []string{"tied", "tied"}}})
	if s := r.Status(over); !s.Over || s.Outcome.Reason != "fivefold repetition" {
		t.Errorf("status %+v", s)
	}
}
