package classic

import (
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// play starts a game from fen (or the start) and plays the moves, alternating seats from
// the side to move.
func play(t *testing.T, fen string, moves ...string) State {
	t.Helper()
	r := Rules{}
	opts := game.Options{}
	if fen != "" {
		opts["fen"] = fen
	}
	evs, err := r.Setup(game.Setup{Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	var st game.State
	for _, e := range evs {
		st = r.Evolve(st, e.Event)
	}
	for _, mv := range moves {
		seat := r.Status(st).ToAct[0]
		evs, err := r.Decide(st, game.Action{Seat: seat, Do: game.Move{Notation: mv}})
		if err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
		for _, e := range evs {
			st = r.Evolve(st, e.Event)
		}
	}
	return st.(State)
}

func TestMovesAreRecordedWithSANAndPieceIdentity(t *testing.T) {
	st := play(t, "", "e2e4")
	evs, err := Rules{}.Decide(st, game.Action{Seat: 1, Do: game.Move{Notation: "Nc6"}})
	if err != nil {
		t.Fatal(err)
	}
	mv := evs[0].Event.(MovePlayed)
	if mv.UCI != "b8c6" || mv.SAN != "Nc6" || mv.Piece == 0 || mv.FEN != "r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2" {
		t.Fatalf("1. e4 Nc6 recorded as %+v", mv)
	}
}

func TestRefusals(t *testing.T) {
	st := play(t, "")
	for notation, code := range map[string]game.Code{
		"e2e5": game.IllegalMove, "Nf6": game.IllegalMove, "Ke2": game.IllegalMove,
		"zz": game.BadInput, "": game.BadInput, "e2e4e5": game.BadInput,
	} {
		_, err := Rules{}.Decide(st, game.Action{Seat: 0, Do: game.Move{Notation: notation}})
		if game.CodeOf(err) != code {
			t.Errorf("%q: got %v, want %s", notation, err, code)
		}
	}
}

func TestMateAndStalemate(t *testing.T) {
	mate := play(t, "", "f3", "e5", "g4", "Qh4#")
	if s := (Rules{}).Status(mate); !s.Over || s.Outcome.Reason != "checkmate" || s.Outcome.Winners[0] != 1 {
		t.Fatalf("Fool's mate: %+v", s)
	}
	// 1. Qb6: the black king on a8 has no move and is not in check.
	stale := play(t, "k7/8/8/2Q5/8/8/8/7K w - - 0 1", "Qb6")
	if s := (Rules{}).Status(stale); !s.Over || s.Outcome.Reason != "stalemate" || len(s.Outcome.Winners) != 0 {
		t.Fatalf("stalemate: %+v", s)
	}
	bare := play(t, "8/8/8/4k3/8/8/3q4/4K3 w - - 0 1", "Kxd2")
	if s := (Rules{}).Status(bare); !s.Over || s.Outcome.Reason != "insufficient material" {
		t.Fatalf("king against king: %+v", s)
	}
}

func TestDrawByThreefoldIsClaimed(t *testing.T) {
	shuffle := []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"}
	st := play(t, "", shuffle...)
	if _, err := (Rules{}).Decide(st, game.Action{Seat: 1, Do: game.ClaimDraw{}}); game.CodeOf(err) != game.IllegalMove {
		t.Fatalf("the start position occurred twice only: a claim is refused, got %v", err)
	}
	st = play(t, "", append(shuffle, "Ng8")...)
	if (Rules{}).Status(st).Over {
		t.Fatalf("threefold repetition does not end the game by itself")
	}
	evs, err := (Rules{}).Decide(st, game.Action{Seat: 0, Do: game.ClaimDraw{}})
	if err != nil {
		t.Fatal(err)
	}
	st = (Rules{}).Evolve(st, evs[0].Event).(State)
	if s := (Rules{}).Status(st); !s.Over || s.Outcome.Reason != "threefold repetition" {
		t.Fatalf("after the claim: %+v", s)
	}
}

func TestOptions(t *testing.T) {
	if _, err := (Rules{}).Plan(game.Options{"fen": "not a fen"}); game.CodeOf(err) != game.BadInput {
		t.Fatalf("bad fen option: %v", err)
	}
	if _, err := (Rules{}).Plan(game.Options{"fen": "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1"}); game.CodeOf(err) != game.BadInput {
		t.Fatalf("bughouse fen option: %v", err)
	}
	if _, err := (Rules{}).Plan(game.Options{"increment": "3"}); game.CodeOf(err) != game.BadInput {
		t.Fatalf("unknown option: %v", err)
	}
	st := play(t, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "O-O")
	if got := (Rules{}).Board(st).FEN; got != "4k3/8/8/8/8/8/8/5RK1 b - - 1 1" {
		t.Fatalf("castling from a FEN start: %s", got)
	}
	if got := (Rules{}).MoveList(st); len(got) != 1 || got[0] != "O-O" {
		t.Fatalf("move list %v", got)
	}
}

func TestExportIsPGN(t *testing.T) {
	st := play(t, "", "f3", "e5", "g4", "Qh4#")
	pgn, err := Rules{}.Export(st, game.Record{MatchID: "m1", Game: "Chess", Players: []string{"Ann", "Bob"},
		Started: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), Over: true, Outcome: game.Outcome{Winners: []int{1}, Reason: "checkmate"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[White "Ann"]`, `[Black "Bob"]`, `[Date "2026.11.30"]`, `[Result "0-1"]`, `[Termination "normal"]`, "1. f3 e5 2. g4 Qh4# 0-1"} {
		if !strings.Contains(pgn, want) {
			t.Fatalf("the PGN lacks %q:\n%s", want, pgn)
		}
	}
	tags, _, moves, err := chess.ParsePGN(pgn)
	if err != nil || len(moves) != 4 || tags["Result"] != "0-1" {
		t.Fatalf("the PGN does not read back: %v, %d moves, %v", err, len(moves), tags)
	}
	// A resignation is the match's result, not the board's.
	resigned, _ := Rules{}.Export(play(t, "", "e4"), game.Record{Players: []string{"Ann", ""}, Over: true, Outcome: game.Outcome{Winners: []int{0}, Reason: "resignation"}})
	if !strings.Contains(resigned, `[Result "1-0"]`) || !strings.Contains(resigned, `[Black "?"]`) || !strings.Contains(resigned, `[Termination "normal"]`) {
		t.Fatalf("a resigned game:\n%s", resigned)
	}
}

// The Termination tag takes the PGN standard's values, whatever the reason's wording.
func TestExportTerminationIsThePGNStandards(t *testing.T) {
	for reason, want := range map[string]string{
		"":                                 "unterminated", // still being played
		"checkmate":                        "normal",
		"stalemate":                        "normal",
		"threefold repetition":             "normal",
		"agreement":                        "normal",
		"resignation":                      "normal",
		"timeout":                          "time forfeit",
		"timeout vs insufficient material": "time forfeit",
		"abandonment":                      "abandoned",
	} {
		r := game.Record{Players: []string{"Ann", "Bob"}, Over: reason != "", Outcome: game.Outcome{Winners: []int{0}, Reason: reason}}
		pgn, err := Rules{}.Export(play(t, "", "e4"), r)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(pgn, `[Termination "`+want+`"]`) {
			t.Errorf("reason %q: want Termination %q in\n%s", reason, want, pgn)
		}
	}
}

// With a clock, each move is followed by the time its mover had left, as [%clk h:mm:ss],
// and the PGN still reads back.
// An aborted match has no winner and is no draw: its PGN has no result.
func TestExportOfAVoidMatchHasNoResult(t *testing.T) {
	r := game.Record{Players: []string{"Ann", "Bob"}, Over: true, Void: true, Outcome: game.Outcome{Reason: "aborted"}}
	pgn, err := Rules{}.Export(play(t, "", "e4"), r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[Result "*"]`, `[Termination "unterminated"]`} {
		if !strings.Contains(pgn, want) {
			t.Errorf("want %s in\n%s", want, pgn)
		}
	}
}

func TestExportClockComments(t *testing.T) {
	st := clocked(t, "", "60+2") // an hour: the hours show
	st, _ = at(t, st, 0, noon.Add(10*time.Second), game.Move{Notation: "e4"})
	st, _ = at(t, st, 1, noon.Add(12500*time.Millisecond), game.Move{Notation: "e5"})
	st, _ = at(t, st, 0, noon.Add(70*time.Second), game.Move{Notation: "Nf3"})
	deadline := (Rules{}).Status(st).Deadline
	st, _ = at(t, st, game.System, deadline, game.Timeout{Deadline: deadline})
	pgn, err := Rules{}.Export(st, game.Record{Players: []string{"Ann", "Bob"}, Over: true, Outcome: (Rules{}).Status(st).Outcome})
	if err != nil {
		t.Fatal(err)
	}
	// White: 3600 - 10 + 2 = 3592 s; Black: 3600 - 2.5 + 2 = 3599.5 s, shown 0:59:59;
	// White again: 3592 - 57.5 + 2 = 3536.5 s.
	for _, want := range []string{`[TimeControl "3600+2"]`, `[Termination "time forfeit"]`,
		"1. e4 {[%clk 0:59:52]} 1... e5 {[%clk 0:59:59]} 2. Nf3 {[%clk 0:58:56]} 1-0"} {
		if !strings.Contains(strings.Join(strings.Fields(pgn), " "), want) { // lines wrap before 80 columns
			t.Errorf("the PGN lacks %q:\n%s", want, pgn)
		}
	}
	if _, _, moves, err := chess.ParsePGN(pgn); err != nil || len(moves) != 3 {
		t.Fatalf("the PGN does not read back: %v, %d moves", err, len(moves))
	}
	// Without a clock, no clock comments.
	if pgn, _ := (Rules{}).Export(play(t, "", "e4", "e5"), game.Record{}); strings.Contains(pgn, "%clk") {
		t.Fatalf("clock comments without a clock:\n%s", pgn)
	}
}
