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

// TestTheLeaderboardReadsPageByPage: read page after page, each after the place of the
// last row of the page before, a leaderboard lists every row once and in its order, ties
// by player ID included, for every page size; and a cursor keeps its place when its
// player's rating moves since (the next page starts where the page before stopped). The
// results are seeded random among few players, so that ratings tie; every seed holds.
func TestTheLeaderboardReadsPageByPage(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 9))
		r := NewRatings(nil)
		for range 200 {
			a, b := rng.IntN(40), rng.IntN(39)
			if b >= a {
				b++
			}
			playRated(r, "G", fmt.Sprintf("p%02d", a), fmt.Sprintf("p%02d", b), []float64{0, 0.5, 0.5, 1}[rng.IntN(4)])
		}
		for i := range 5 + rng.IntN(10) { // newcomers, one result each: the winners tie, and the losers
			playRated(r, "G", fmt.Sprintf("q%02d", i), fmt.Sprintf("r%02d", i), 1)
		}
		all := scanLeaderboard(r, "G", 1000)
		ties := 0
		for i := 1; i < len(all); i++ {
			if all[i].Rating.Rating == all[i-1].Rating.Rating {
				ties++
			}
		}
		if ties == 0 {
			t.Fatalf("seed %d: no ties to page across", seed)
		}
		for _, n := range []int{1, 2, 3, 7, 40} {
			var paged []Standing
			var after *Place
			for {
				page := r.LeaderboardAfter("G", after, n)
				paged = append(paged, page...)
				if len(page) < n {
					break
				}
				last := page[len(page)-1]
				after = &Place{Rating: last.Rating.Rating, Player: last.Player}
			}
			if !slices.Equal(paged, all) {
				t.Fatalf("seed %d, pages of %d: %v\nwant %v", seed, n, paged, all)
			}
		}
		// The cursor is a place, not a player: its player's rating moves, the next page
		// still starts after the place it had.
		mid := all[len(all)/2]
		want := scanLeaderboard(r, "G", 1000)[len(all)/2+1:]
		cursor := Place{Rating: mid.Rating.Rating, Player: mid.Player}
		playRated(r, "H", mid.Player, "other", 1) // another key: the rows under G stay
		if got := r.LeaderboardAfter("G", &cursor, 1000); !slices.Equal(got, want) {
			t.Fatalf("seed %d: after %+v: %v\nwant %v", seed, cursor, got, want)
		}
		top := all[0]
		playRated(r, "G", top.Player, all[len(all)-1].Player, 0) // the first row drops
		old := Place{Rating: top.Rating.Rating, Player: top.Player}
		var behind []Standing
		for _, s := range scanLeaderboard(r, "G", 1000) {
			if s.Rating.Rating < old.Rating || s.Rating.Rating == old.Rating && s.Player > old.Player {
				behind = append(behind, s)
			}
		}
		if got := r.LeaderboardAfter("G", &old, 1000); !slices.Equal(got, behind) {
			t.Fatalf("seed %d: after the old place of the first row %+v: %v\nwant %v", seed, old, got, behind)
		}
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
