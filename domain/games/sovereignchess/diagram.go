package sovereignchess

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/sovereign"
)

// Diagram draws the board as text, for `arbiter replay` (replay.Diagrammer): rank 16 at
// the top and file p on the right, each square two characters wide. A piece is written
// as in the notation, its colour letter then its role letter ("wk" the white king, "yp"
// a yellow pawn); an empty square of colour is its colour letter in upper case ("Y"), any
// other empty square ".". Below the files, a line per seat: the army it owns and its
// king's square, or why it has none, and the colours it controls.
func (Rules) Diagram(st game.State) string {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return ""
	}
	pos := s.Game.Position()
	var b strings.Builder
	for y := 15; y >= 0; y-- {
		cells := make([]string, 16)
		for x := range cells {
			sq := sovereign.SquareAt(x, y)
			switch pc, c := pos.PieceAt(sq), sovereign.SquareColour(sq); {
			case pc != 0:
				cells[x] = pc.String()
			case c != sovereign.NoColour:
				cells[x] = strings.ToUpper(string(c.Letter())) + " "
			default:
				cells[x] = ". "
			}
		}
		fmt.Fprintf(&b, "%2d  %s\n", y+1, strings.TrimRight(strings.Join(cells, " "), " "))
	}
	files := make([]string, 16)
	for x := range files {
		files[x] = string(rune('a' + x))
	}
	fmt.Fprintf(&b, "\n    %s\n    (an upper-case letter is an empty square of that colour)\n\n", strings.Join(files, "  "))
	seats := make([]string, pos.Players())
	for pl := range sovereign.Player(pos.Players()) {
		seats[s.seatOf(pl)] = s.army(&pos, pl)
	}
	for seat, line := range seats {
		fmt.Fprintf(&b, "seat %d: %s\n", seat, line)
	}
	return b.String()
}

// army says what player pl owns and controls, for Diagram.
func (s State) army(pos *sovereign.Position, pl sovereign.Player) string {
	if pos.Withdrawn(pl) {
		return "withdrew"
	}
	line := pos.Owned(pl).String()
	switch k, ok := pos.King(pl); {
	case ok:
		line += ", king " + k.String()
	case pos.Escaped(pl):
		line += ", king escaped"
	default:
		line += ", no king (Interregnum)"
	}
	var controls []string
	for c := sovereign.White; c <= sovereign.Violet; c++ {
		if ctl, ok := pos.Controller(c); ok && ctl == pl {
			controls = append(controls, c.String())
		}
	}
	return line + "; controls " + strings.Join(controls, ", ")
}
