package classic_test

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
)

// TestAudit checks that every event Decide records passes Audit, and that changing any
// derived field of a move is caught with the field named.
func TestAudit(t *testing.T) {
	r := classic.Rules{}
	start := classic.GameStarted{FEN: chess.StartFEN}
	if err := r.Audit(nil, start); err != nil {
		t.Fatalf("GameStarted: %v", err)
	}
	st := r.Evolve(nil, start)
	for i, mv := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"} {
		evs, err := r.Decide(st, game.Action{Seat: i % 2, Do: game.Move{Notation: mv}})
		if err != nil {
			t.Fatal(err)
		}
		played := evs[0].Event.(classic.MovePlayed)
		if err := r.Audit(st, played); err != nil {
			t.Fatalf("%s as decided: %v", mv, err)
		}
		for field, bad := range map[string]classic.MovePlayed{
			"fen":   func(e classic.MovePlayed) classic.MovePlayed { e.FEN = chess.StartFEN; return e }(played),
			"san":   func(e classic.MovePlayed) classic.MovePlayed { e.SAN = "Qxh7"; return e }(played),
			"seat":  func(e classic.MovePlayed) classic.MovePlayed { e.Seat = 1 - e.Seat; return e }(played),
			"piece": func(e classic.MovePlayed) classic.MovePlayed { e.Piece += 1; return e }(played),
		} {
			if err := r.Audit(st, bad); err == nil || !strings.Contains(err.Error(), field) {
				t.Errorf("%s with a wrong %s: %v", mv, field, err)
			}
		}
		st = r.Evolve(st, played)
	}
	if err := r.Audit(st, classic.MovePlayed{UCI: "e1g1"}); err == nil {
		t.Error("an illegal move passes Audit")
	}
	if err := r.Audit(st, classic.DrawClaimed{Seat: 1, Reason: "threefold repetition"}); err == nil {
		t.Error("a claim without grounds passes Audit")
	}
	if err := r.Audit(nil, classic.GameStarted{FEN: "8/8/8/8/8/8/8/8 w - - 0 1"}); err == nil {
		t.Error("a kingless start passes Audit")
	}
}
