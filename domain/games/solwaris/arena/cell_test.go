package arena

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestCellNames(t *testing.T) {
	for _, c := range []struct {
		name string
		cell Cell
	}{{"a1", Cell{0, 0}}, {"b1", Cell{1, 0}}, {"a2", Cell{0, 1}}, {"z10", Cell{25, 9}},
		{"aa1", Cell{26, 0}}, {"ae16", Cell{30, 15}}, {"az52", Cell{51, 51}}} {
		if got := c.cell.String(); got != c.name {
			t.Errorf("%v prints %q, want %q", c.cell, got, c.name)
		}
		got, err := ParseCell(c.name)
		if err != nil || got != c.cell {
			t.Errorf("ParseCell(%q) = %v, %v; want %v", c.name, got, err, c.cell)
		}
	}
	// Every cell of every map reads back as itself.
	for _, m := range Maps() {
		for y := 0; y < m.Height(); y++ {
			for x := 0; x < m.Width(); x++ {
				c := Cell{x, y}
				if got, err := m.ParseCell(c.String()); err != nil || got != c {
					t.Fatalf("%s: %v reads back as %v, %v", m.ID, c, got, err)
				}
			}
		}
	}
}

func TestCellNamesRefused(t *testing.T) {
	for _, s := range []string{"", "a", "1", "A1", "a0", "a01", "abc1", "ba1", "a53", "a1x", "a-1", " a1", "a 1", "é1"} {
		_, err := ParseCell(s)
		var ce *CellError
		if !errors.Is(err, ErrCellSyntax) || !errors.As(err, &ce) || ce.Text != s {
			t.Errorf("ParseCell(%q) = %v, want a *CellError wrapping ErrCellSyntax", s, err)
		}
	}
	caveau, _ := ByID("caveau") // 15 columns (a to o), 13 rows
	for _, s := range []string{"p1", "a14", "az1"} {
		if _, err := caveau.ParseCell(s); !errors.Is(err, ErrOutside) {
			t.Errorf("caveau.ParseCell(%q) = %v, want ErrOutside", s, err)
		}
	}
	if c, err := caveau.ParseCell("o13"); err != nil || c != (Cell{14, 12}) {
		t.Errorf("o13 on the Caveau: %v, %v", c, err)
	}
}

func TestDistanceAndDirections(t *testing.T) {
	a, b := Cell{2, 3}, Cell{4, 0}
	if Distance(a, b) != 5 || Distance(b, a) != 5 {
		t.Error("two right and three up make five")
	}
	if Straight(a, b) || !Straight(a, Cell{2, 9}) || !Straight(a, Cell{7, 3}) {
		t.Error("Straight is same row or same column")
	}
	for _, c := range []struct {
		to Cell
		d  Dir
	}{{Cell{2, 0}, North}, {Cell{9, 4}, East}, {Cell{3, 9}, South}, {Cell{0, 3}, West}, {Cell{4, 5}, East}, {Cell{0, 1}, West}} {
		if d, ok := DirTo(a, c.to); !ok || d != c.d {
			t.Errorf("DirTo(%v, %v) = %v, want %v", a, c.to, d, c.d)
		}
	}
	if _, ok := DirTo(a, a); ok {
		t.Error("a cell has no direction to itself")
	}
	for d := North; d <= West; d++ {
		if a.Step(d).Step(d.Opposite()) != a {
			t.Errorf("%v then %v does not come back", d, d.Opposite())
		}
	}
}

func TestCellsInJSON(t *testing.T) {
	b, err := json.Marshal(map[string]any{"at": Cell{2, 6}, "path": []Cell{{26, 0}, {26, 1}}})
	if err != nil || string(b) != `{"at":"c7","path":["aa1","aa2"]}` {
		t.Fatalf("marshal: %s, %v", b, err)
	}
	var back struct {
		At   Cell
		Path []Cell
	}
	if err := json.Unmarshal(b, &back); err != nil || back.At != (Cell{2, 6}) || len(back.Path) != 2 || back.Path[1] != (Cell{26, 1}) {
		t.Fatalf("unmarshal: %+v, %v", back, err)
	}
	if _, err := json.Marshal(Cell{-1, 0}); !errors.Is(err, ErrCellSyntax) {
		t.Errorf("a cell with no name marshals: %v", err)
	}
	if err := json.Unmarshal([]byte(`"Z9"`), &back.At); !errors.Is(err, ErrCellSyntax) {
		t.Errorf("a bad name unmarshals: %v", err)
	}
	caveau, _ := ByID("caveau")
	if cells, err := caveau.ParseCells([]string{"c3", "c4"}); err != nil || len(cells) != 2 || cells[1] != (Cell{2, 3}) {
		t.Errorf("ParseCells: %v, %v", cells, err)
	}
	var ce *CellError
	if _, err := caveau.ParseCells([]string{"c3", "z4"}); !errors.Is(err, ErrOutside) || !errors.As(err, &ce) || ce.Text != "z4" {
		t.Errorf("ParseCells with a cell off the Caveau: %v", err)
	}
}
