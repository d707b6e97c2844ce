package sovereign

import (
	"errors"
	"strings"
	"testing"
)

func TestNotationRoundTrip(t *testing.T) {
	for _, s := range []string{StartNotation, RoyaleStartNotation, middlegame,
		board("aka9 bkh16 bra1 wpe2") + " 4 w* a s b - 0"} {
		p, err := Parse(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if p.Notation() != s || p.String() != s {
			t.Errorf("round trip:\n got %s\nwant %s", p.Notation(), s)
		}
	}
	// The board string is osc-ui's (board facts, section 4).
	if !strings.HasPrefix(StartNotation, "aqabvrvnbrbnbbbqbkbbbnbrynyrsbsq/aranvpvpbpbpbpbpbpbpbpbpypypsnsr/nbnp12opob/") {
		t.Error("start board differs from osc-ui's")
	}
}

func TestNotationErrors(t *testing.T) {
	kings := board("wki1 bki16")
	for _, tc := range []struct{ s, field string }{
		{"", "fields"},
		{kings + " 1 w b -", "fields"},
		{kings + " 1 w b - 0 0", "fields"},
		{"16/16 1 w b - 0", "board"},
		{strings.Replace(kings, "wk", "xk", 1) + " 1 w b - 0", "board"},
		{strings.Replace(kings, "wk", "w", 1) + " 1 w b - 0", "board"},
		{strings.Replace(kings, "16", "17", 1) + " 1 w b - 0", "board"},
		{strings.Replace(kings, "16", "015", 1) + " 1 w b - 0", "board"},
		{board("wki1 bki16 wph9") + " 1 w b - 0", "board"},       // own colour square
		{board("wki1 bki16 npe5 npl12") + " 1 w b - 0", "board"}, // both navy squares
		{board("wki1 bki16 wpg8") + " 1 w b - 0", "board"},       // pawn in the centre
		{board("wki1") + " 1 w b - 0", "board"},                  // no black king
		{board("wki1 bki16 bka1") + " 1 w b - 0", "board"},       // two black kings
		{board("wki1 bki16 bra1") + " 2 w b - 0", "board"},       // side not to move in check
		{board("wki1 bki16 pkc3") + " 1 w b - 0", "owned"},       // nobody owns pink
		{kings + " 3 w b - 0", "turn"},
		{kings + " x w b - 0", "turn"},
		{kings + " 1 w w - 0", "owned"},
		{kings + " 1 w z - 0", "owned"},
		{kings + " 1 w* b - 0", "owned"},
		{kings + " 1 w b E - 0", "fields"},
		{kings + " 1 w b E 0", "castling"},
		{kings + " 1 w b e5 0", "castling"},
		{kings + " 1 w b ? 0", "castling"},
		{kings + " 1 w b - -1", "ply"},
		{kings + " 1 w b - x", "ply"},
		{board("aka9 bkh16") + " 1 w a* s b - 0", "owned"}, // escaped yet has a king
	} {
		_, err := Parse(tc.s)
		var ne *NotationError
		if !errors.As(err, &ne) || ne.Field != tc.field || !errors.Is(err, ErrInvalidNotation) {
			t.Errorf("%q: %v, want a %s error", tc.s, err, tc.field)
		}
	}
}

func TestMoveNotationRoundTrip(t *testing.T) {
	for _, s := range []string{StartNotation, middlegame, RoyaleStartNotation} {
		p, _ := Parse(s)
		for _, m := range p.LegalMoves(nil) {
			back, err := p.ParseMove(m.String())
			if err != nil || back != m {
				t.Errorf("%v: parsed back as %v (%v)", m, back, err)
			}
		}
	}
	for _, s := range []string{"e2e4", "h10h12", "g6g7k", "i1k1O", "=y", "=yk6k7", "escape", "pass"} {
		if m, ok := parseMoveText(s); !ok || m.String() != s {
			t.Errorf("%s: %v %v", s, m, ok)
		}
	}
}
