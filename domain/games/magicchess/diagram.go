package magicchess

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Diagram draws the game as text, for `arbiter replay` (replay.Diagrammer): one board as
// replay draws chess, rank 8 at the top; in doubles both boards, each headed by its
// seats and the pieces in hand, since a FEN with pockets is not a plain chess board.
func (Rules) Diagram(st game.State) string {
	switch s := st.(type) {
	case State:
		if s.started {
			return diagram(s.Pos)
		}
	case Table:
		if s.started {
			var b strings.Builder
			for i := range s.Boards {
				p := s.Boards[i].Pos
				if i > 0 {
					b.WriteString("\n")
				}
				fmt.Fprintf(&b, "board %s: seat %d White (in hand %q), seat %d Black (in hand %q)\n",
					boardName(i), seatOn(i, 0), p.Pocket(chess.White).String(), seatOn(i, 1), p.Pocket(chess.Black).String())
				b.WriteString(diagram(p))
			}
			return b.String()
		}
	}
	return ""
}

// diagram draws one board: "%2d" and the rank's squares, a piece's FEN letter or ".",
// then the files.
func diagram(p chess.Position) string {
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		cells := make([]string, 8)
		for file := range cells {
			cells[file] = "."
			if pc, ok := p.PieceAt(chess.Square(8*rank + file)); ok {
				cells[file] = pc.String()
			}
		}
		fmt.Fprintf(&b, "%2d  %s\n", rank+1, strings.Join(cells, " "))
	}
	b.WriteString("\n   ")
	for f := range 8 {
		fmt.Fprintf(&b, " %c", 'a'+f)
	}
	b.WriteString("\n")
	return b.String()
}
