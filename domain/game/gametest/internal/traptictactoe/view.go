package traptictactoe

import (
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
)

// View is a match as a viewer sees it: the board, and the viewer's own trap. The other
// seat's trap is shown once it has sprung or the match is over, never before.
type View struct {
	Rows   []string // rank 3 first, files a to c: X, O, "#" for a burned cell, "." for a free one
	Turn   int      // the seat to move; -1 once the match is over
	Traps  []Trap   // the traps the viewer may know of: its own, those sprung, all once over
	Burned []string // the burned cells

	// What Plays needs, as public as the rest (never the traps): the marks, the burned
	// cells, and the seat the viewer holds and may move with now, or -1.
	board State
	seat  int
}

// Trap is a seat's trap cell.
type Trap struct {
	Seat int
	Cell string
}

// IsGameState makes the view its own state type in the API (a member of the union
// GameState) without importing the API.
func (*View) IsGameState() {}

// View shows the match to p.
func (Rules) View(st game.State, p game.Viewpoint) game.View {
	s, ok := st.(State)
	if !ok || s.Traps[0] == "" {
		return nil
	}
	v := &View{Turn: s.Turn, Traps: []Trap{}, Burned: append([]string{}, s.Burned...), seat: -1,
		board: State{Marks: s.Marks, Burned: s.Burned, Turn: s.Turn}}
	if over(s) {
		v.Turn = -1
	}
	for rank := 2; rank >= 0; rank-- {
		row := []byte("...")
		for file := range 3 {
			switch i := rank*3 + file; {
			case s.Marks[i] != 0:
				row[file] = " XO"[s.Marks[i]]
			case slices.Contains(s.Burned, Cells[i]):
				row[file] = '#'
			}
		}
		v.Rows = append(v.Rows, string(row))
	}
	for seat, cell := range s.Traps {
		if p.Holds(seat) || s.Sprung[seat] || p.Over {
			v.Traps = append(v.Traps, Trap{Seat: seat, Cell: cell})
		}
	}
	if p.Holds(s.Turn) && !p.Over && !over(s) {
		v.seat = s.Turn
	}
	return v
}

// Plays lists the free cells when the viewer is to move: the other seat's trap among
// them, since the viewer cannot know it. A cell that completes a line scores first.
func (v *View) Plays() []game.Play {
	if v.seat < 0 {
		return nil
	}
	var out []game.Play
	for _, c := range free(v.board) {
		after := v.board
		after.Marks[slices.Index(Cells[:], c)] = v.seat + 1
		score := 0
		if winner(after) == v.seat {
			score = 1
		}
		out = append(out, game.Play{Seat: v.seat, Do: game.Move{Notation: c}, Kind: game.KindMove, Score: score})
	}
	return out
}
