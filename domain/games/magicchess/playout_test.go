package magicchess

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Seeded random matches, the seat to act choosing among the plays its own view lists
// (cards two times in three when it has one): after every action each audit passes, the
// fold is the state Decide computed, both kings stand, and a turn never ends with its
// player's king attacked (rule 1, after every card and effect), and the position can be
// evaluated (chess.Position.Validate, rule 8). Holds for every seed.
func TestRandomMatchesKeepRuleOne(t *testing.T) {
	r := Rules{}
	for seed := range uint64(12) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 14))
			s, _ := setup(t, fmt.Sprint("playout ", seed), game.Options{"clock": "off"})
			s = r.Evolve(s, PlanningEnded{At: t0, Reason: "time"}).(State)
			for n := 0; n < 400 && !r.Status(s).Over; n++ {
				seat := s.toAct()
				p := randomPlay(t, rng, s, seat)
				before := s
				s, _ = act(t, s, p.Do)
				for _, c := range []chess.Color{chess.White, chess.Black} {
					if _, ok := s.Pos.KingSquare(c); !ok {
						t.Fatalf("after %+v a king is gone", p.Do)
					}
				}
				if err := s.Pos.Validate(); err != nil {
					t.Fatalf("after %+v from %s, a position the rules cannot evaluate: %v (%s)", p.Do, before.FEN(), err, s.FEN())
				}
				if s.toAct() != seat && s.kingAttacked(seat) {
					t.Fatalf("after %+v from %s, seat %d's turn ends in check (%s)", p.Do, before.FEN(), seat, s.FEN())
				}
			}
		})
	}
}

// randomPlay is a play of those seat's own view lists, chosen with rng: a card two times
// in three when the seat has one. It fails t when the seat has no play.
func randomPlay(t *testing.T, rng *rand.Rand, s State, seat int) game.Play {
	t.Helper()
	plays := Rules{}.View(s, game.Viewpoint{Seats: []int{seat}, Teams: []int{seat}}).Plays()
	if len(plays) == 0 {
		t.Fatalf("seat %d has no play in a live game (%s)", seat, s.FEN())
	}
	var cardPlays []game.Play
	for _, p := range plays {
		if p.Kind == game.KindCard {
			cardPlays = append(cardPlays, p)
		}
	}
	p := plays[rng.IntN(len(plays))]
	if len(cardPlays) > 0 && rng.IntN(3) > 0 {
		p = cardPlays[rng.IntN(len(cardPlays))]
	}
	return p
}
