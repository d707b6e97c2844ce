package sovereignchess

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

func TestDiagram(t *testing.T) {
	st, _ := seeded(t, game.Options{"mode": Royale}, seedFirstMover0) // order [2 1 0 3]
	d := r.Diagram(st)
	lines := strings.Split(d, "\n")
	for i, want := range map[int]string{
		0:  "16  cq cr vb vq br bn bb bk bq bb bn br yn yr ob oq",
		7:  " 9  ak ap .  .  .  O  .  W  B  .  C  .  .  .  sp sq",
		15: " 1  rq rb pr pn wr wn wb wq wk wb wn wr gq gb nr nq",
		17: "    a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p",
		20: "seat 0: slate, king p8; controls slate",
		22: "seat 2: white, king i1; controls white",
	} {
		if lines[i] != want {
			t.Errorf("line %d: %q, want %q\n%s", i+1, lines[i], want, d)
		}
	}
	// Ash (seat 1) withdraws; the board and its line say so.
	st, _ = withdraw(t, st, 1)
	d = r.Diagram(st)
	if !strings.Contains(d, "\n 9  .  ap .") || !strings.Contains(d, "seat 1: withdrew\n") {
		t.Errorf("after Ash withdrew:\n%s", d)
	}
	if r.Diagram(State{}) != "" || r.Diagram(nil) != "" {
		t.Error("a diagram before the game")
	}
}
