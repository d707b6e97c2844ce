package solwaris

import "github.com/arbiter-games/arbiter/domain/games/solwaris/arena"

// Arena is an arena of the rotation as the API lists it (the arenas query).
type Arena struct {
	ID            string
	Name          string // English
	NameFr        string
	NameEn        string
	Width         int
	Height        int
	PlayableCells int
	Cells         []string // the rows, top first, as arena.ParseGrid reads them
}

// Arenas lists the arenas of the rotation, in the order of the map file.
func Arenas() []Arena {
	var out []Arena
	for _, m := range arena.Maps() {
		out = append(out, Arena{ID: m.ID, Name: m.NameEn, NameFr: m.NameFr, NameEn: m.NameEn, Width: m.Width(), Height: m.Height(),
			PlayableCells: len(m.Playable()), Cells: m.Rows()})
	}
	return out
}
