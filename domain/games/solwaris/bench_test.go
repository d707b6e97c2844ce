package solwaris

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
	"github.com/arbiter-games/arbiter/internal/cputime"
)

// duel is a fight in play on the Grande Plaine: seat 0's Guerrier on o8 (near the middle,
// the plain's rocks and walls in range) to act, seat 1's Arcaniste beside it.
func duel(b *testing.B, class string) State {
	m, err := arena.ByID("grande-plaine")
	if err != nil {
		b.Fatal(err)
	}
	s := State{Fairness: fairness.Current, Key: keyOf(fairness.Current, []byte("bench")), Purses: []int64{0, 0}, Map: m.ID, Teams: []int{0, 1}, Phase: PhasePlay,
		Chosen: []bool{true, true}, Placed: []string{"o8", "p8"}, Actor: 0, Turn: 1, Order: []int{0, 1}, Version: 10,
		Grimoires: []Grimoire{{Seat: 0, Class: class}, {Seat: 1, Class: "arcaniste"}}}
	for seat, gr := range s.Grimoires {
		f := hero(grimoire.Embedded(), gr, seat)
		f.Cell, _ = arena.ParseCell(s.Placed[seat])
		f.OnArena, f.AP, f.MP = true, f.BaseAP, f.BaseMP
		s.Fighters = append(s.Fighters, f)
	}
	m.Sight(s.Fighters[0].Cell, s.Fighters[0].Cell) // the map's sight table, built once per process
	return s
}

// loop runs op b.N times and reports, beside ns/op, the CPU time per op ("cpu-ns/op"):
// on a shared machine the wall clock swings with the other work, the CPU time hardly.
func loop(b *testing.B, op func()) {
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		op()
	}
	if cpu = cputime.Used() - cpu; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkTargets is the legal target cells of each of a fighter's eight spells, as the
// view lists them for the seat to act (the goal: under 100 µs).
func BenchmarkTargets(b *testing.B) {
	for _, class := range []string{"guerrier", "arcaniste"} {
		b.Run(class, func(b *testing.B) {
			s := duel(b, class)
			loop(b, func() { s.targets(0) })
		})
	}
}

// BenchmarkDecided is a whole decided action: Decide, then the fold of its events (the
// goal: under 20 µs). A step, a blow (a roll, a critical, resistance, armour) and a turn's
// end (bonuses drawn, the next turn).
func BenchmarkDecided(b *testing.B) {
	r := Rules{}
	for _, tc := range []struct {
		name string
		do   any
	}{
		{"step", MoveFighter{Path: []string{"o9"}}},
		{"taille", CastSpell{Spell: "taille", Cell: "p8"}},
		{"endTurn", EndTurn{}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := duel(b, "guerrier")
			loop(b, func() {
				evs, err := r.Decide(s, game.Action{Seat: 0, Do: tc.do})
				if err != nil {
					b.Fatal(err)
				}
				var st game.State = s
				for _, e := range evs {
					st = r.Evolve(st, e.Event)
				}
			})
		})
	}
}

// BenchmarkView is the view of the seat to act, with its plays: what the API and the
// bots read after every action.
func BenchmarkView(b *testing.B) {
	s := duel(b, "arcaniste")
	p := game.Viewpoint{Seats: []int{0}, Teams: []int{0}}
	loop(b, func() { Rules{}.View(s, p).Plays() })
}
