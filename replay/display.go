package replay

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
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

// Record writes the moves of a match's game as the game counts its turns: a number
// covers one turn of each side ("1. e4 e5 2. Nf3"; "12... Nf6" when Black's turn comes
// first), and a turn of several plays (an UnfairChess card and its move) is written as
// one, its plays joined by " & ". A game that is not game.Turned is numbered by play.
func Record(rules game.Rules, st match.State) string {
	if st.GameState == nil {
		return ""
	}
	var first int
	var turns []game.Turn
	if t, ok := rules.(game.Turned); ok {
		first, turns = t.Turns(st.GameState)
	} else if r, ok := rules.(game.Recorded); ok {
		first = 1
		for _, m := range r.MoveList(st.GameState) {
			turns = append(turns, game.Turn{Plays: []string{m}})
		}
	}
	var b strings.Builder
	n := first
	for i, t := range turns {
		switch {
		case i > 0 && t.Side <= turns[i-1].Side:
			n++
			fmt.Fprintf(&b, " %d. ", n)
		case i > 0:
			b.WriteString(" ")
		case t.Side > 0:
			fmt.Fprintf(&b, "%d... ", n)
		default:
			fmt.Fprintf(&b, "%d. ", n)
		}
		b.WriteString(strings.Join(t.Plays, " & "))
	}
	return b.String()
}

// Result writes a match's result for a person. In a game of two named sides
// (game.Turned) it is the score by side, as PGN writes it, with the winner's side, seat
// and name: "0-1 (Black, seat 0, Ada, wins by checkmate)", "1/2-1/2 (draw: stalemate)".
// Otherwise it names the winning seats: "seat 2 (Ada) wins (last king standing)". ""
// before the end.
func Result(rules game.Rules, st match.State) string {
	r := st.Result
	if r == nil {
		return ""
	}
	sides, names := make([]int, len(st.Seats)), make([]string, len(st.Seats))
	turned, sided := rules.(game.Turned)
	sided = sided && len(st.Seats) == 2
	for seat := range st.Seats {
		if sided {
			var ok bool
			sides[seat], names[seat], ok = turned.SideOf(st.GameState, seat)
			sided = ok
		}
	}
	if len(r.Winners) == 0 {
		if sided {
			return fmt.Sprintf("1/2-1/2 (draw: %s)", r.Reason)
		}
		return fmt.Sprintf("draw (%s)", r.Reason)
	}
	if sided && len(r.Winners) == 1 {
		w := r.Winners[0]
		score := "1-0"
		if sides[w] != 0 {
			score = "0-1"
		}
		return fmt.Sprintf("%s (%s, seat %d, %s, wins by %s)", score, names[w], w, st.Seats[w].Name, r.Reason)
	}
	var who []string
	for _, w := range r.Winners {
		who = append(who, fmt.Sprintf("seat %d (%s)", w, st.Seats[w].Name))
	}
	verb := "wins"
	if len(who) > 1 {
		verb = "win"
	}
	return fmt.Sprintf("%s %s (%s)", strings.Join(who, " and "), verb, r.Reason)
}
