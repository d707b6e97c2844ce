package arena

import (
	"strings"
	"testing"
)

// position reads a test picture: the grid symbols of ParseGrid, plus marks on free
// cells that the tests give a meaning to ('@' a fighter, '+' an entity in the way, '*'
// an expected cell, '>' the one pushed, digits a cost). It returns the grid with the
// marks as free cells, and the cells of each mark, row by row.
func position(t testing.TB, picture string) (*Grid, map[byte][]Cell) {
	t.Helper()
	marks := map[byte][]Cell{}
	var rows []string
	for _, row := range strings.Split(strings.TrimSpace(picture), "\n") {
		row = strings.TrimSpace(row)
		b := []byte(row)
		for x, ch := range b {
			if ch == '@' || ch == '+' || ch == '*' || ch == '>' || ch >= '0' && ch <= '9' {
				marks[ch] = append(marks[ch], Cell{x, len(rows)})
				b[x] = '.'
			}
		}
		rows = append(rows, string(b))
	}
	return mustGrid(t, strings.Join(rows, "\n")), marks
}

func one(t testing.TB, marks map[byte][]Cell, m byte) Cell {
	t.Helper()
	if len(marks[m]) != 1 {
		t.Fatalf("the picture needs exactly one %q, has %v", m, marks[m])
	}
	return marks[m][0]
}

// draw renders g with marks on top (later maps win), for failure messages.
func draw(g *Grid, marks map[Cell]byte) string {
	var s strings.Builder
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			ch := g.text[y*g.w+x]
			if m, ok := marks[Cell{x, y}]; ok {
				ch = m
			}
			s.WriteByte(ch)
		}
		s.WriteByte('\n')
	}
	return s.String()
}

func sameCells(a, b []Cell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func names(cells []Cell) string {
	s := make([]string, len(cells))
	for i, c := range cells {
		s[i] = c.String()
	}
	return strings.Join(s, " ")
}
