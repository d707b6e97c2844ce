package replay

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Diagrammer is a game that draws its own board as text, for `arbiter replay`: a board
// that is not chess's (Sovereign Chess's sixteen ranks of two-letter pieces).
type Diagrammer interface {
	Diagram(st game.State) string
}

// Diagram draws the board at the snapshot, for a person to read: the game's own drawing
// when it is a Diagrammer, else the board field of its FEN (game.Boarded) when that is a
// chess board, eight ranks of eight files; "" for a game that draws no board replay
// knows how to draw, or before play starts.
func (s Snapshot) Diagram() string {
	gs := s.State.GameState
	if gs == nil {
		return ""
	}
	if d, ok := s.Rules.(Diagrammer); ok {
		return d.Diagram(gs)
	}
	if b, ok := s.Rules.(game.Boarded); ok {
		return chessDiagram(b.Board(gs).FEN)
	}
	return ""
}

// chessDiagram draws the board field of a chess FEN, rank 8 at the top, or returns ""
// when fen's first field is not a chess board.
func chessDiagram(fen string) string {
	f := strings.Fields(fen)
	if len(f) == 0 {
		return ""
	}
	rows := strings.Split(f[0], "/")
	if len(rows) != 8 {
		return ""
	}
	var b strings.Builder
	for i, row := range rows {
		var cells []string
		for j := 0; j < len(row); j++ {
			switch c := row[j]; {
			case c >= '1' && c <= '8':
				for range int(c - '0') {
					cells = append(cells, ".")
				}
			case strings.IndexByte("pnbrqkPNBRQK", c) >= 0:
				cells = append(cells, string(c))
			default:
				return ""
			}
		}
		if len(cells) != 8 {
			return ""
		}
		fmt.Fprintf(&b, "%2d  %s\n", len(rows)-i, strings.Join(cells, " "))
	}
	b.WriteString("\n   ")
	for f := range 8 {
		fmt.Fprintf(&b, " %c", 'a'+f)
	}
	b.WriteString("\n")
	return b.String()
}
