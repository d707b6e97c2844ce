package unfair

import (
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// midgames returns the states of seeded random games after 40 actions: middlegames with
// statuses, restrictions and full hands, as a server meets them.
func midgames(b *testing.B, n int) []State {
	b.Helper()
	r := Rules{}
	var out []State
	for seed := uint64(1); len(out) < n; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		var st game.State
		opening, err := r.Setup(game.Setup{Seed: []byte{byte(seed), byte(seed >> 8), 9}})
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range opening {
			st = r.Evolve(st, e.Event)
		}
		s := st.(State)
		for range 40 {
			if r.Status(s).Over {
				break
			}
			evs, err := r.Decide(s, game.Action{Seat: s.toAct(), Do: randomAction(rng, s)})
			if err != nil {
				b.Fatal(err)
			}
			var g game.State = s
			for _, e := range evs {
				g = r.Evolve(g, e.Event)
			}
			s = g.(State)
		}
		if !r.Status(s).Over {
			out = append(out, s)
		}
	}
	return out
}

// BenchmarkStatus is what the engine asks after every command: who acts, and whether the
// game is over (which, in check, means trying every card in the hand).
func BenchmarkStatus(b *testing.B) {
	states := midgames(b, 32)
	b.ResetTimer()
	for i := range b.N {
		Rules{}.Status(states[i%len(states)])
	}
}

// BenchmarkHand is a player's hand with every card's playable flag and legal targets.
func BenchmarkHand(b *testing.B) {
	states := midgames(b, 32)
	b.ResetTimer()
	for i := range b.N {
		s := states[i%len(states)]
		Rules{}.Hand(s, s.toAct())
	}
}

// BenchmarkDecideMove decides and folds one legal move: the engine's work per move.
func BenchmarkDecideMove(b *testing.B) {
	states := midgames(b, 32)
	moves := make([]string, len(states))
	for i, s := range states {
		moves[i] = legal(s)[0]
	}
	b.ResetTimer()
	for i := range b.N {
		s := states[i%len(states)]
		evs, err := Rules{}.Decide(s, game.Action{Seat: s.toAct(), Do: game.Move{Notation: moves[i%len(states)]}})
		if err != nil {
			b.Fatal(err)
		}
		var g game.State = s
		for _, e := range evs {
			g = Rules{}.Evolve(g, e.Event)
		}
	}
}

// BenchmarkView measures a view of a middlegame for each kind of viewer: a spectator's
// and the waiting seat's hold the public board and piles, the mover's its hand with every
// legal choice of targets (the cost of BenchmarkHand), which the API pays once per caller
// and version.
func BenchmarkView(b *testing.B) {
	states := midgames(b, 32)
	for _, c := range []struct {
		name string
		of   func(s State) game.Viewpoint
	}{
		{"spectator", func(State) game.Viewpoint { return game.Viewpoint{} }},
		{"waiting", func(s State) game.Viewpoint { return game.Viewpoint{Seats: []int{1 - s.toAct()}} }},
		{"mover", func(s State) game.Viewpoint { return game.Viewpoint{Seats: []int{s.toAct()}} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				s := states[i%len(states)]
				Rules{}.View(s, c.of(s))
				i++
			}
		})
	}
}
