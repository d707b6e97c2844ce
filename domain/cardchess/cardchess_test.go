package cardchess

import (
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

type played struct {
	Card string `json:"card"`
	clock.Stamp
}

func (played) EventType() string                   { return "Played" }
func (e played) Stamped(st clock.Stamp) game.Event { e.Stamp = st; return e }

type note struct{ Text string }

func (note) EventType() string { return "Note" }

// The stamp goes on every action, and what is left only on the last when the turn ends;
// other events are untouched; without a clock nothing changes.
func TestStampMarksTheActionsOfATurn(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := clock.Start(&clock.Setup{InitialMs: 60_000, IncrementMs: 2_000}, 2, t0)
	evs := []game.Emitted{{Event: played{Card: "a"}}, {Event: note{"x"}}, {Event: played{Card: "b"}}, {Event: note{"y"}}}
	at := t0.Add(10 * time.Second)
	out := Stamp(evs, c, 0, at, true)
	first, last := out[0].Event.(played), out[2].Event.(played)
	if !first.At.Equal(at) || first.LeftMs != 0 || !last.At.Equal(at) || last.LeftMs != 52_000 || out[1].Event.(note).Text != "x" {
		t.Fatalf("stamped: %+v", out)
	}
	if out := Stamp([]game.Emitted{{Event: played{Card: "a"}}}, clock.Clock{}, 0, at, true); out[0].Event.(played).Stamp != (clock.Stamp{}) {
		t.Fatal("a stamp without a clock")
	}
}

// Differs names the first field that differs, and skips the fields it is told to.
func TestDiffersNamesTheField(t *testing.T) {
	a, b := played{Card: "a"}, played{Card: "b"}
	if err := Differs(a, b); err == nil || !strings.Contains(err.Error(), "card") {
		t.Fatalf("differs: %v", err)
	}
	want := played{Card: "a"}
	want.At = time.Unix(1, 0)
	if err := Differs(played{Card: "a"}, want, "at"); err != nil {
		t.Fatalf("a skipped field differs: %v", err)
	}
	if Differs(played{Card: "a"}, want) == nil {
		t.Fatal("a field not skipped does not differ")
	}
}

// The shapes a card measures, from each side.
func TestShapes(t *testing.T) {
	if RankOf(chess.White, 1) != 1 || RankOf(chess.Black, 1) != 6 || Ahead(chess.Black) != -1 {
		t.Fatal("ranks and directions")
	}
	if _, ok := Offset(chess.H8, 1, 0); ok {
		t.Fatal("off the board")
	}
	if Neighbours(chess.A1).Count() != 3 || HalfOf(chess.White).Has(chess.E5) || !HalfOf(chess.Black).Has(chess.E5) {
		t.Fatal("neighbours and halves")
	}
	if MayStand(chess.Piece{Color: chess.White, Role: chess.Pawn}, chess.E8) || !MayStand(chess.Piece{Color: chess.White, Role: chess.Knight}, chess.E8) {
		t.Fatal("a pawn on a back rank")
	}
	p := chess.StartingPosition()
	if Side(p, chess.White).Count() != 16 {
		t.Fatal("a side of the start")
	}
	if _, err := ParseMove(p, "e2e5", chess.Restrictions{}, "barred"); game.CodeOf(err) != game.IllegalMove {
		t.Fatalf("an illegal move: %v", err)
	}
	if _, err := ParseMove(p, "e2e4", chess.Restrictions{Forbidden: chess.BB(chess.E4)}, "is barred"); err == nil || !strings.Contains(err.Error(), "e2e4 is barred") {
		t.Fatalf("a barred move: %v", err)
	}
	if _, err := ParseMove(p, "zz", chess.Restrictions{}, "barred"); game.CodeOf(err) != game.BadInput {
		t.Fatalf("a malformed move: %v", err)
	}
}
