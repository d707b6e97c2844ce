package arena

import (
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The nine arenas are data: maps.txt holds them one after the other, each as
//
//	map <id>
//	fr: <French name>
//	en: <English name>
//	playable: <number of free cells>
//
//	<the picture, as ParseGrid reads it>
//
// Lines starting with "//" are comments. The file is read and checked when the package
// loads (syntax, obstacle shapes, the playable count against the header, equal start
// zones, connected playable cells); a file that fails panics, so a bad map never ships
// past its package's tests.

//go:embed maps.txt
var mapsText string

// Map is one arena of the rotation: its id (what createMatch's "map" option names), its
// names, and its grid (Width, Height and the rest come from the embedded *Grid).
type Map struct {
	ID     string
	NameFr string
	NameEn string
	*Grid
}

// ErrUnknownMap is returned by ByID for an id no map has.
var ErrUnknownMap = errors.New("arena: unknown map")

var maps = mustLoad(mapsText)

// Maps lists the arenas in the order of the file. The slice is shared: do not change it.
func Maps() []*Map { return maps }

// ByID finds an arena by its id.
func ByID(id string) (*Map, error) {
	for _, m := range maps {
		if m.ID == id {
			return m, nil
		}
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownMap, id)
}

func mustLoad(text string) []*Map {
	ms, err := LoadMaps(text)
	if err != nil {
		panic(err)
	}
	return ms
}

// LoadMaps reads and validates maps written in the format of maps.txt. It is exported
// so that tests and tools can check a map file; the game uses Maps.
func LoadMaps(text string) ([]*Map, error) {
	lines := strings.Split(text, "\n")
	var out []*Map
	seen := map[string]bool{}
	for i := 0; i < len(lines); {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "//") {
			i++
			continue
		}
		id, ok := strings.CutPrefix(l, "map ")
		if !ok {
			return nil, &MapError{Line: i + 1, Err: ErrMapSyntax, Why: fmt.Sprintf("expected \"map <id>\", got %q", l)}
		}
		id = strings.TrimSpace(id)
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[end]), "map ") {
			end++
		}
		m, err := loadMap(id, i, lines[i+1:end])
		if err != nil {
			return nil, err
		}
		if seen[id] {
			return nil, &MapError{Map: id, Line: i + 1, Err: ErrMapSyntax, Why: "a second map with this id"}
		}
		seen[id] = true
		out = append(out, m)
		i = end
	}
	if len(out) == 0 {
		return nil, &MapError{Err: ErrMapSyntax, Why: "no map"}
	}
	return out, nil
}

// loadMap reads the header and the picture of the map whose "map" line is line first.
func loadMap(id string, first int, lines []string) (*Map, error) {
	m := &Map{ID: id}
	bad := func(line int, why string) error {
		return &MapError{Map: id, Line: first + line + 2, Err: ErrMapSyntax, Why: why}
	}
	if id == "" || strings.ContainsAny(id, " \t") {
		return nil, bad(-1, "the id must be one word")
	}
	playable := -1
	k := 0
	for ; k < len(lines); k++ {
		l := strings.TrimSpace(lines[k])
		key, val, ok := strings.Cut(l, ":")
		if !ok {
			break
		}
		val = strings.TrimSpace(val)
		switch strings.TrimSpace(key) {
		case "fr":
			m.NameFr = val
		case "en":
			m.NameEn = val
		case "playable":
			n, err := strconv.Atoi(val)
			if err != nil || n <= 0 {
				return nil, bad(k, fmt.Sprintf("playable must be a positive number, got %q", val))
			}
			playable = n
		default:
			return nil, bad(k, fmt.Sprintf("unknown header %q", key))
		}
	}
	if m.NameFr == "" || m.NameEn == "" || playable < 0 {
		return nil, bad(-1, "the header needs fr:, en: and playable:")
	}
	g, err := parseGrid(id, first+k+1, lines[k:])
	if err != nil {
		return nil, err
	}
	if len(g.playable) != playable {
		return nil, &MapError{Map: id, Err: ErrPlayableCount,
			Why: fmt.Sprintf("the header says %d, the picture has %d", playable, len(g.playable))}
	}
	if err := g.Validate(); err != nil {
		err.(*MapError).Map = id
		return nil, err
	}
	m.Grid = g
	return m, nil
}
