package solwaris

import (
	"strings"
	"testing"
	"time"

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
// seat 1's team, and every other character is arena.ParseGrid's. Seat 0 is to act, with
// its full AP and MP.
func position(t *testing.T, picture string) State {
	t.Helper()
	var rows []string
	cells := map[byte][]arena.Cell{}
	for y, line := range strings.Split(strings.TrimSpace(picture), "\n") {
		line = strings.TrimSpace(line)
		row := []byte(line)
		for x, ch := range row {
			if ch == '1' || ch == '2' || ch == '+' || ch == '^' {
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
	s := State{Key: keyOf([]byte("position")), Purses: []int64{0, 0}, Map: "position", Teams: []int{0, 1}, Phase: PhasePlay,
		Chosen: []bool{true, true}, Placed: []string{"x", "x"}, Actor: 0, Turn: 1, ground: g, Order: []int{0, 1},
		Grimoires: []Grimoire{{Seat: 0, Class: "guerrier"}, {Seat: 1, Class: "arcaniste"}}, Deadline: noon.Add(TurnTime)}
	for seat, gr := range s.Grimoires {
		f := hero(grimoire.Embedded(), gr, seat)
		f.Cell, f.OnArena = cells["12"[seat]][0], true
		f.AP, f.MP = f.BaseAP, f.BaseMP
		s.Fighters = append(s.Fighters, f)
	}
	for _, c := range cells['+'] {
		s.Bonuses = append(s.Bonuses, Bonus{Kind: "ap", Cell: c.String()})
	}
	for _, c := range cells['^'] {
		s.Traps = append(s.Traps, Trap{Team: 1, Layer: 1, Cell: c, Until: 9})
	}
	return s
}
