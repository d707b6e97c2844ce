package main

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
)

// arenas is the Solwaris maps as Markdown: a table of their figures, then each map
// drawn as the embedded file draws it.
func arenas(maps []*arena.Map) string {
	var b strings.Builder
	b.WriteString("| id | name | size | playable cells | obstacles | start zone cells per side |\n| --- | --- | --- | ---: | ---: | ---: |\n")
	for _, m := range maps {
		fmt.Fprintf(&b, "| `%s` | %s (%s) | %d×%d | %d | %d | %d |\n", m.ID, m.NameFr, m.NameEn,
			m.Width(), m.Height(), len(m.Playable()), len(m.Obstacles()), len(m.Zone(arena.SideA)))
	}
	for _, m := range maps {
		fmt.Fprintf(&b, "\n%s (`%s`), columns a to %s, rows 1 to %d:\n\n```\n%s\n```\n", m.NameFr, m.ID,
			arena.ColumnName(m.Width()-1), m.Height(), m.String())
	}
	return b.String()
}
