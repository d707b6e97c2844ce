package solwaris

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Diagram draws the arena as it truly is, for `arbiter replay` (a tool that sees every
// secret): the ground as arena.ParseGrid reads it, each fighter on the arena as its
// number (0-9, then letters from A for the tenth), "+" a bonus, "^" an unsprung trap;
// then a line per fighter and the phase and round.
func (Rules) Diagram(st game.State) string {
	s, ok := st.(State)
	if !ok || s.Phase == "" {
		return ""
	}
	return s.diagram()
}

// Board is the arena as it truly is, for tools that see every secret (replay): its FEN is
// the drawing's rows joined by "/", then the arena, the phase and the round.
func (Rules) Board(st game.State) game.Board {
	s, ok := st.(State)
	if !ok || s.Phase == "" {
		return game.Board{}
	}
	return game.Board{FEN: fmt.Sprintf("%s %s %s %d", strings.Join(drawn(s), "/"), s.Map, s.Phase, s.Turn)}
}

// drawn is the arena's rows with what stands on them.
func drawn(s State) []string {
	g := s.grid()
	rows := make([][]byte, g.Height())
	for y, r := range g.Rows() {
		rows[y] = []byte(r)
	}
	put := func(cell string, ch byte) {
		if c, err := g.ParseCell(cell); err == nil {
			rows[c.Y][c.X] = ch
		}
	}
	for _, t := range s.Traps {
		if !t.Sprung {
			put(t.Cell.String(), '^')
		}
	}
	for _, b := range s.Bonuses {
		put(b.Cell, '+')
	}
	for i, f := range s.Fighters {
		if f.Standing() {
			put(f.Cell.String(), fighterMark(i))
		}
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = string(r)
	}
	return out
}

// diagram is Diagram's drawing and a line per fighter.
func (s State) diagram() string {
	var b strings.Builder
	for _, r := range drawn(s) {
		b.WriteString(r)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s, phase %s, round %d\n", s.Map, s.Phase, s.Turn)
	for i, f := range s.Fighters {
		who := f.Class
		if !f.Hero() {
			who = f.Entity
		}
		cell := "-"
		if f.Standing() {
			cell = f.Cell.String()
		}
		fmt.Fprintf(&b, "%c seat %d %s %s HP %d/%d AP %d MP %d armour %d\n", fighterMark(i), f.Seat, who, cell, f.HP, f.MaxHP, f.AP, f.MP, f.Armour())
	}
	return b.String()
}

// fighterMark is the character a fighter is drawn as.
func fighterMark(i int) byte {
	if i < 10 {
		return byte('0' + i)
	}
	return byte('A' + i - 10)
}
