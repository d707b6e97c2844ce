package projections

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
)

// archivedRows makes n archived rows as a server archives them: in the order the matches
// ended, which is not the order they were created in, with many created in the same
// second (ties, which the ID orders), among three games and players (two to a match).
func archivedRows(rng *rand.Rand, n, players int) []StoredArchived {
	type ended struct {
		row StoredArchived
		end int64
	}
	all := make([]ended, n)
	for i := range all {
		created := int64(i/3) * 1e9 // three matches a second
		a, b := rng.IntN(players), rng.IntN(players)
		all[i] = ended{
			row: StoredArchived{ID: fmt.Sprintf("m%08d", rng.IntN(1<<30)), Created: created,
				Game: []string{"chess", "go", "sol"}[rng.IntN(3)], Players: slices.Compact([]string{fmt.Sprint("p", min(a, b)), fmt.Sprint("p", max(a, b))})},
			end: created + rng.Int64N(600e9), // over within ten minutes
		}
	}
	slices.SortStableFunc(all, func(a, b ended) int { return cmp.Compare(a.end, b.end) })
	rows := make([]StoredArchived, n)
	seen := map[string]bool{}
	for i, e := range all {
		for seen[e.row.ID] {
			e.row.ID += "x"
		}
		seen[e.row.ID], rows[i] = true, e.row
	}
	return rows
}

// archivedModel is a model whose archive holds rows, as a snapshot restores it.
func archivedModel(rows []StoredArchived) *Matches {
	m := NewMatches(game.NewRegistry(classic.Rules{}))
	m.archive.restore(rows, [32]byte{})
	return m
}

// TestArchivedPagesListAsTheSort: a page of the lobby's archived matches is, for every
// filter and cursor, the rows the filter selects sorted newest first (ties by ID), after
// the cursor, cut at the limit; and reading page after page lists each row once. The
// rows are seeded random, and the test holds for every seed.
func TestArchivedPagesListAsTheSort(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 3))
		rows := archivedRows(rng, 200+rng.IntN(300), 12)
		m := archivedModel(rows)
		// Archived after the restore, one by one, as a server does.
		for _, r := range archivedRows(rng, 50, 12) {
			r.ID = "late-" + r.ID
			r.Created += rng.Int64N(2) * 1e9 * 30
			m.archive.restore([]StoredArchived{r}, m.archive.digest)
			rows = append(rows, r)
		}
		want := func(f Filter) []string {
			var ids []StoredArchived
			for _, r := range rows {
				if (f.Game == "" || r.Game == f.Game) && (f.Player == "" || slices.Contains(r.Players, f.Player)) &&
					(f.Status == "" || f.Status == match.Finished) {
					ids = append(ids, r)
				}
			}
			slices.SortFunc(ids, func(a, b StoredArchived) int {
				return cmp.Or(cmp.Compare(b.Created, a.Created), cmp.Compare(a.ID, b.ID))
			})
			if f.After != "" {
				i := slices.IndexFunc(ids, func(r StoredArchived) bool { return r.ID == f.After })
				if i < 0 { // a cursor the filter does not hold: after its place
					c := rows[slices.IndexFunc(rows, func(r StoredArchived) bool { return r.ID == f.After })]
					i, _ = slices.BinarySearchFunc(ids, c, func(a, b StoredArchived) int {
						return cmp.Or(cmp.Compare(b.Created, a.Created), cmp.Compare(a.ID, b.ID))
					})
					i--
				}
				ids = ids[i+1:]
			}
			if f.Limit > 0 && len(ids) > f.Limit {
				ids = ids[:f.Limit]
			}
			out := make([]string, len(ids))
			for i, r := range ids {
				out[i] = r.ID
			}
			return out
		}
		got := func(f Filter) []string {
			var out []string
			for _, l := range m.page(f) {
				out = append(out, l.id)
			}
			return out
		}
		for range 200 {
			f := Filter{Limit: rng.IntN(40)}
			if rng.IntN(2) == 0 {
				f.Game = []string{"chess", "go", "sol", "none"}[rng.IntN(4)]
			}
			if rng.IntN(2) == 0 {
				f.Player = fmt.Sprint("p", rng.IntN(14))
			}
			if rng.IntN(5) == 0 {
				f.Status = []match.Status{match.Finished, match.Live}[rng.IntN(2)]
			}
			if rng.IntN(3) > 0 {
				f.After = rows[rng.IntN(len(rows))].ID
			}
			if g, w := got(f), want(f); !slices.Equal(g, w) {
				t.Fatalf("seed %d, %+v:\n got %v\nwant %v", seed, f, g, w)
			}
		}
		// Page after page, each row once, in order.
		var all []string
		for f := (Filter{Player: "p3", Limit: 7}); ; {
			page := got(f)
			if len(page) == 0 {
				break
			}
			all, f.After = append(all, page...), page[len(page)-1]
		}
		if w := want(Filter{Player: "p3"}); !slices.Equal(all, w) {
			t.Fatalf("seed %d: paged %v, want %v", seed, all, w)
		}
	}
}

// BenchmarkArchivedPage reads one page of 50 of the lobby from an archive of n matches:
// the first page, a page after a cursor halfway down, a player's page and a game's.
func BenchmarkArchivedPage(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		rows := archivedRows(rand.New(rand.NewPCG(1, 2)), n, n/10)
		m := archivedModel(rows)
		for _, tc := range []struct {
			name string
			f    Filter
		}{
			{"first", Filter{Limit: 50}},
			{"after", Filter{Limit: 50, After: rows[n/2].ID}},
			{"player", Filter{Limit: 50, Player: rows[n/3].Players[0]}},
			{"game", Filter{Limit: 50, Game: "go", After: rows[n/4].ID}},
		} {
			b.Run(fmt.Sprintf("n=%d/%s", n, tc.name), func(b *testing.B) {
				for b.Loop() {
					if len(m.page(tc.f)) == 0 {
						b.Fatal("an empty page")
					}
				}
			})
		}
	}
}
