package solwaris

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

var noon = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// opened is a fresh match of two seats on the map id with purses, in the grimoire phase.
func opened(t *testing.T, id string, purses ...int64) State {
	t.Helper()
	evs, err := Rules{}.Setup(game.Setup{Plan: game.Plan{Seats: 2, Teams: []int{0, 1}}, Options: game.Options{"map": id},
		Seed: []byte("helpers"), At: noon, Purses: purses})
	if err != nil {
		t.Fatal(err)
	}
	return fold(t, State{}, evs)
}

// fold folds events into s.
func fold(t *testing.T, s State, evs []game.Emitted) State {
	t.Helper()
	for _, e := range evs {
		s = Rules{}.Evolve(s, e.Event).(State)
	}
	return s
}

// act decides and folds one action, which must be accepted.
func act(t *testing.T, s State, seat int, do any) (State, []game.Emitted) {
	t.Helper()
	evs, err := (Rules{}).Decide(s, game.Action{Seat: seat, At: noon, Do: do})
	if err != nil {
		t.Fatalf("seat %d's %T %+v: %v", seat, do, do, err)
	}
	return fold(t, s, evs), evs
}

// refused checks that an action is refused with code.
func refused(t *testing.T, s State, seat int, do any, code game.Code) {
	t.Helper()
	if _, err := (Rules{}).Decide(s, game.Action{Seat: seat, At: noon, Do: do}); game.CodeOf(err) != code {
		t.Fatalf("seat %d's %T %+v: %v, want %s", seat, do, do, err, code)
	}
}

// position is a fight in play on an arena drawn as a picture, where "1" and "2" are
// seat 0's and seat 1's heroes (Guerrier and Arcaniste), "+" a bonus of AP, "^" a trap of
// seat 1's team, "*" a trap of seat 0's team (each a one-cell trap that does nothing but
// spring, laid in round 1 to last 8 rounds, its ID "trap-" and its cell), and every other character is
// arena.ParseGrid's. Seat 0 is to act, with its full AP and MP.
func position(t *testing.T, picture string) State {
	t.Helper()
	return positionOf(t, picture, "guerrier", "arcaniste")
}

// positionOf is position with the classes of seat 0's and seat 1's heroes, each with the
// originals of its spells but for the variants named.
func positionOf(t *testing.T, picture, class0, class1 string, variants ...string) State {
	t.Helper()
	var rows []string
	cells := map[byte][]arena.Cell{}
	for y, line := range strings.Split(strings.TrimSpace(picture), "\n") {
		line = strings.TrimSpace(line)
		row := []byte(line)
		for x, ch := range row {
			if strings.IndexByte("12+^*", ch) >= 0 {
				cells[ch] = append(cells[ch], arena.Cell{X: x, Y: y})
				row[x] = '.'
			}
		}
		rows = append(rows, string(row))
	}
	g, err := arena.ParseGrid(strings.Join(rows, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := State{Fairness: fairness.Current, Key: keyOf(fairness.Current, []byte("position")), Purses: []int64{0, 0}, Map: "position", Teams: []int{0, 1}, Phase: PhasePlay,
		Chosen: []bool{true, true}, Placed: []string{"x", "x"}, Actor: 0, Turn: 1, ground: g, Order: []int{0, 1},
		Grimoires: []Grimoire{{Seat: 0, Class: class0}, {Seat: 1, Class: class1}}, Deadline: noon.Add(TurnTime)}
	for seat, gr := range s.Grimoires {
		f := hero(grimoire.Embedded(), gr, seat)
		f.Cell, f.OnArena = cells["12"[seat]][0], true
		f.AP, f.MP = f.BaseAP, f.BaseMP
		for _, v := range variants {
			sp, err := grimoire.Embedded().SpellByID(v)
			if err != nil {
				t.Fatal(err)
			}
			if sp.Class == f.Class {
				f.Spells[sp.Slot-1] = v
			}
		}
		s.Fighters = append(s.Fighters, f)
	}
	for _, c := range cells['+'] {
		s.Bonuses = append(s.Bonuses, Bonus{Kind: "ap", Cell: c.String()})
	}
	for _, c := range cells['^'] {
		s.Traps = append(s.Traps, Trap{ID: "trap-" + c.String(), Team: 1, Layer: 1, Cell: c, Until: 9})
	}
	for _, c := range cells['*'] {
		s.Traps = append(s.Traps, Trap{ID: "trap-" + c.String(), Team: 0, Layer: 0, Cell: c, Until: 9})
	}
	return s
}

// withBanner plants a Bannière of fighter f's on cell, as its summon would.
func withBanner(s State, f int, cell string) State {
	s.Fighters = append(slices.Clone(s.Fighters), summoned(grimoire.Embedded(), s.Fighters[f], Summoned{Fighter: len(s.Fighters), Summoner: f, Entity: "banniere", Cell: cell}))
	return s
}
