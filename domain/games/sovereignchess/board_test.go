package sovereignchess

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

func TestBoardAtTheStart(t *testing.T) {
	st, _ := seeded(t, nil, seedFirstMover1)
	st, _ = act(t, st, 1, game.Move{Notation: "e2e4"})
	st, _ = act(t, st, 0, game.Choose{Option: "keep"}) // seat 0 White, seat 1 Black
	b := r.Board(st)
	if b.FEN != st.Game.Position().Notation() || b.InCheck || len(b.LegalMoves) == 0 || len(b.Marks) != 0 || len(b.Checked) != 0 || b.Interregnum != nil {
		t.Errorf("board %+v", b)
	}
	if len(b.Colours) != 24 {
		t.Errorf("%d squares of colour", len(b.Colours))
	}
	for sq, colour := range map[string]string{"h9": "white", "i8": "white", "e5": "navy", "l12": "navy", "g7": "ash", "i11": "violet"} {
		if c := (game.SquareColour{Square: sq, Colour: colour}); !slices.Contains(b.Colours, c) {
			t.Errorf("%s is not %s", c.Square, c.Colour)
		}
	}
	same(t, "armies (owner/controller)", armies(b),
		"white 0/0, ash -1/-1, slate -1/-1, black 1/1, pink -1/-1, red -1/-1, orange -1/-1, yellow -1/-1, green -1/-1, cyan -1/-1, navy -1/-1, violet -1/-1")
	if !slices.Contains(b.LegalMoves, "e15e13") || slices.Contains(b.LegalMoves, "e4e5") {
		t.Errorf("Black's moves %v", b.LegalMoves)
	}
}

// The rulebook's figure 4: White controls navy (pawn e5), pink (pawn i6) and cyan (pink
// pawn k9); Black controls red (pawn e12) and green (red pawn k11); Black's bishop on
// h9 gives it nothing, White owning white; the violet queen on k8 is nobody's. "The
// alternate squares of each color with a piece (f6, f8, f9, h11, i8, l5, and l12) may
// not be occupied by either player until the original square is vacated."
func TestBoardOfFigure4(t *testing.T) {
	st := twoPlayer(t, "wki1 bki16 wpe5 wpi6 ppk9 bpe12 rpk11 bbh9 vqk8", "1 w b - 10")
	b := r.Board(st)
	same(t, "armies (owner/controller)", armies(b),
		"white 0/0, ash -1/-1, slate -1/-1, black 1/1, pink -1/0, red -1/1, orange -1/-1, yellow -1/-1, green -1/1, cyan -1/0, navy -1/0, violet -1/-1")
	blocked := map[string]int{}
	for _, m := range b.Marks {
		if m.Kind != "blocked" || m.Note == "" {
			t.Errorf("mark %+v", m)
		}
		blocked[m.Square] = m.Seat
	}
	// By the seat controlling the piece that blocks; the violet queen is nobody's.
	same(t, "blocked squares", blocked, map[string]int{"f6": 1, "f8": 0, "f9": -1, "h11": 0, "i8": 1, "l5": 1, "l12": 0})
	for _, m := range b.Marks {
		if m.Square == "f9" && m.Note != "the other orange square, k8, holds a violet queen that nobody controls" {
			t.Errorf("f9: %q", m.Note)
		}
	}
	// No legal move lands on a blocked square.
	for _, m := range b.LegalMoves {
		if len(m) >= 4 && (m[len(m)-2:] == "f8" || m[len(m)-2:] == "f9" || m[len(m)-3:] == "l12") {
			t.Errorf("a legal move lands on a blocked square: %s", m)
		}
	}
}

func TestBoardChecked(t *testing.T) {
	st := twoPlayer(t, "wki1 bki16 wri10", "2 w b - 10")
	b := r.Board(st)
	if !b.InCheck || !slices.Equal(b.Checked, []int{1}) {
		t.Errorf("Black in check: %v %v", b.InCheck, b.Checked)
	}
	// Royale: every king in check, whoever is to move. White (seat 2) leaves its king in
	// check by the black rook; Ash's king on a9 is in check by White's rook.
	st = royale(t, royaleKings+"wki1 brb1 wra2 spo8", "1 w a s b - 0")
	st, evs := move(t, st, "a2a3")
	same(t, "announced", evs, []game.Event{ChecksAnnounced{Seats: []int{0, 2}}})
	b = r.Board(st)
	same(t, "checked", b.Checked, []int{0, 2})
	if !b.InCheck { // Ash, to move, is in check
		t.Error("Ash to move is not in check")
	}
}

// armies writes each army as "colour owner/controller", in colour order.
func armies(b game.Board) string {
	out := make([]string, len(b.Armies))
	for i, a := range b.Armies {
		out[i] = fmt.Sprintf("%s %d/%d", a.Colour, a.Owner, a.Controller)
	}
	return strings.Join(out, ", ")
}
