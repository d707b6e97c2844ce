package projections

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// scanLeaderboard is the leaderboard as it was read before the index: every player's row
// under key, sorted. The index must list the same.
func scanLeaderboard(r *Ratings, key string, n int) []Standing {
	var all []Standing
	for p, keys := range r.byPlayer {
		if x, ok := keys[key]; ok {
			all = append(all, Standing{Player: p, Rating: *x})
		}
	}
	slices.SortFunc(all, func(a, b Standing) int {
		if c := cmp.Compare(b.Rating.Rating, a.Rating.Rating); c != 0 {
			return c
		}
		return strings.Compare(a.Player, b.Player)
	})
	return all[:min(n, len(all))]
}

// playRated rates one result between two players under key, as a rated match's end does.
func playRated(r *Ratings, key string, a, b string, resultA float64) {
	m := &ratedMatch{game: "G", players: []string{a, b}, teams: []int{0, 1}}
	var moved []movedRating
	r.rate(m, []float64{resultA, 1 - resultA}, 0, func(int) string { return key }, func(int) bool { return true }, &moved)
}

// TestTheLeaderboardIndexListsAsTheScan: for seeded random results among few players
// (draws between equal ratings keep ties), under two keys, the index lists every
// leaderboard as the scan of every player does, ties by player ID included, after each
// result and after the ratings are written down and read back.
func TestTheLeaderboardIndexListsAsTheScan(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		r := NewRatings(nil)
		keys := []string{"G", "G/mage"}
		check := func(r *Ratings, step int) {
			t.Helper()
			for _, key := range keys {
				for _, n := range []int{0, 1, 5, 100} {
					if got, want := r.Leaderboard(key, n), scanLeaderboard(r, key, n); !slices.Equal(got, want) {
						t.Fatalf("seed %d, step %d, %s first %d: the index lists %v, the scan %v", seed, step, key, n, got, want)
					}
				}
			}
		}
		for step := range 300 {
			a, b := rng.IntN(25), rng.IntN(24)
			if b >= a {
				b++
			}
			result := []float64{0, 0.5, 0.5, 1}[rng.IntN(4)]
			playRated(r, keys[rng.IntN(len(keys))], fmt.Sprintf("p%02d", a), fmt.Sprintf("p%02d", b), result)
			check(r, step)
		}
		_, data, err := r.Save()
		if err != nil {
			t.Fatal(err)
		}
		back := NewRatings(nil)
		if err := back.Restore(context.Background(), nil, 0, data); err != nil {
			t.Fatal(err)
		}
		check(back, -1)
	}
}

// BenchmarkLeaderboard reads the top 20 of 100,000 rated players, through the index and
// through the scan it replaced, side by side.
func BenchmarkLeaderboard(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := NewRatings(nil)
	for i := 0; i < 100_000; i += 2 {
		playRated(r, "G", fmt.Sprintf("p%06d", i), fmt.Sprintf("p%06d", i+1), []float64{0, 0.5, 1}[rng.IntN(3)])
	}
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			if len(r.Leaderboard("G", 20)) != 20 {
				b.Fatal("not 20")
			}
		}
	})
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			if len(scanLeaderboard(r, "G", 20)) != 20 {
				b.Fatal("not 20")
			}
		}
	})
	b.Run("result", func(b *testing.B) { // what the index costs each rated result
		i := 0
		for b.Loop() {
			playRated(r, "G", fmt.Sprintf("p%06d", i%100_000), fmt.Sprintf("p%06d", (i+1)%100_000), 0.5)
			i += 2
		}
	})
}
