// Package rating computes Elo ratings. Everyone starts at Initial; a player's first
// ProvisionalGames rated games move the rating faster (a larger K), so a newcomer reaches
// their level quickly, as UnfairChess's rules ask.
package rating

import "math"

// The constants of Arbiter's Elo.
const (
	Initial          = 1400
	ProvisionalGames = 10
	KProvisional     = 40
	KEstablished     = 20
)

// Player is one side of a rated game before it.
type Player struct {
	Rating float64
	Games  int // rated games played before this one
}

// K is the development coefficient for p.
func (p Player) K() float64 {
	if p.Games < ProvisionalGames {
		return KProvisional
	}
	return KEstablished
}

// Expected is a's expected score against b.
func Expected(a, b float64) float64 {
	return 1 / (1 + math.Pow(10, (b-a)/400))
}

// Update returns the new ratings after a game where a scored scoreA (1 win, 0.5 draw,
// 0 loss) against b.
func Update(a, b Player, scoreA float64) (float64, float64) {
	ea := Expected(a.Rating, b.Rating)
	return a.Rating + a.K()*(scoreA-ea), b.Rating + b.K()*((1-scoreA)-(1-ea))
}

// UpdateMany returns the new ratings after a game of several sides, seat by seat: each
// seat plays one Elo game against every seat of another team (teammates are not
// opponents), scoring 1 against a seat that did worse, 0.5 against one that did as well
// and 0 against one that did better, and its K is shared among its opponents, so that a
// game moves a rating as much whatever the number of players. result[i] is how seat i
// did: 1 won, 0 lost, 0.5 drew. With two seats this is Update.
func UpdateMany(ps []Player, teams []int, result []float64) []float64 {
	out := make([]float64, len(ps))
	for i, p := range ps {
		var delta float64
		opponents := 0
		for j, q := range ps {
			if teams[j] == teams[i] {
				continue
			}
			opponents++
			score := 0.5 + (result[i]-result[j])/2
			delta += score - Expected(p.Rating, q.Rating)
		}
		out[i] = p.Rating
		if opponents > 0 {
			out[i] += p.K() * delta / float64(opponents)
		}
	}
	return out
}
