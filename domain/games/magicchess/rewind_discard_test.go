package magicchess

import (
	"testing"
)

// Rewind takes back a move that ended the turn in which White's Truce ran out: the truce
// is face up again, as before the move, and so not on the discard pile; played again, the
// move puts it there once.
func TestRewindPutsBackACardThatRanOut(t *testing.T) {
	s := truceRunsOut(t, adv(t, truceFEN, []string{"truce", "frost"}, []string{"rewind", "wall", "paralysis"}, ""))
	if n := count(s.Discard, "truce"); n != 0 || len(s.Lasting) != 1 || s.Lasting[0].Card != "truce" {
		t.Fatalf("rewound: truce %d times on the discard pile, face up %+v", n, s.Lasting)
	}
	s = played(t, s, sec(40), "e1d1")
	if n := count(s.Discard, "truce"); n != 1 {
		t.Fatalf("played again: truce %d times on the discard pile %v", n, s.Discard)
	}
}

// Under magic-2026.5 and before, the truce stayed on the discard pile as well: the
// matches of then keep it.
func TestRewindLeftARanOutCardDiscardedUnderMagic20265(t *testing.T) {
	r, _ := Rules{}.Under("magic-2026.5")
	s := truceRunsOut(t, advUnder(t, r.(Rules), truceFEN, []string{"truce", "frost"}, []string{"rewind", "wall", "paralysis"}))
	if n := count(s.Discard, "truce"); n != 1 || len(s.Lasting) != 1 {
		t.Fatalf("rewound under magic-2026.5: truce %d times on the discard pile, face up %+v", n, s.Lasting)
	}
}

// truceFEN: White's pawn on e4 may take the black pawn on d5.
const truceFEN = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"

// truceRunsOut: White lays Truce, Black moves, White's exd5 ends the turn in which the
// truce runs out and opens R2, and Black rewinds it.
func truceRunsOut(t *testing.T, s State) State {
	t.Helper()
	s = laid(t, s, sec(1), "truce")
	s, _ = passWindow(t, s)
	s = played(t, s, sec(20), "e8e7")
	s = played(t, s, sec(21), "e4d5") // White's capture: the truce runs out, R2 opens
	window(t, s, R2, 1)
	if n := count(s.Discard, "truce"); n != 1 || len(s.Lasting) != 0 {
		t.Fatalf("after exd5: truce %d times on the discard pile, %d cards face up", n, len(s.Lasting))
	}
	s, _ = reacts(t, s, "rewind")
	return s
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}
