package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
)

// The leaderboard reads page by page over a real server: after the cursor of the last
// standing of a page, the next page, every standing once and in the order of one read of
// the whole board, across ties (the fool's mate's winners all tie, and its losers);
// first is at most 500, and an after that is not a cursor is BAD_USER_INPUT.
func TestTheLeaderboardIsReadPageByPage(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	var tokens []string
	for i := range 10 {
		_, tok := srv.register(t, fmt.Sprintf("Player%02d", i))
		tokens = append(tokens, tok)
	}
	for i := 0; i < len(tokens); i += 2 {
		srv.foolsMate(t, tokens[i], tokens[i+1])
	}
	srv.foolsMate(t, tokens[1], tokens[2]) // one more result, so that not every rating ties
	type standing struct {
		Player struct{ Name string }
		Rating struct{ RatingExact float64 }
		Cursor string
	}
	read := func(first int, after *string) []standing {
		t.Helper()
		var d struct{ Leaderboard []standing }
		srv.must(t, "", `query($f:Int,$a:String){leaderboard(key:"CHESS", first:$f, after:$a){player{name} rating{ratingExact} cursor}}`,
			map[string]any{"f": first, "a": after}, &d)
		return d.Leaderboard
	}
	all := read(500, nil)
	if len(all) != len(tokens) {
		t.Fatalf("the whole board has %d standings, want %d", len(all), len(tokens))
	}
	ties := 0
	for i := 1; i < len(all); i++ {
		if all[i].Rating.RatingExact == all[i-1].Rating.RatingExact {
			ties++
		}
	}
	if ties < 2 {
		t.Fatalf("the board has %d ties: %+v", ties, all)
	}
	names := func(all []standing) []string {
		out := make([]string, len(all))
		for i, s := range all {
			out[i] = s.Player.Name
		}
		return out
	}
	for _, n := range []int{1, 2, 3, 4} {
		var paged []standing
		var after *string
		for {
			page := read(n, after)
			paged = append(paged, page...)
			if len(page) < n {
				break
			}
			after = &page[len(page)-1].Cursor
		}
		if got, want := names(paged), names(all); !slices.Equal(got, want) {
			t.Fatalf("pages of %d: %v\nwant %v", n, got, want)
		}
	}
	srv.wantCode(t, "", "BAD_USER_INPUT", `{leaderboard(key:"CHESS", first:501){cursor}}`, nil)
	for _, bad := range []string{"", "nope", "bm9wZQ", "TmFOOnA"} { // "", "nope", base64 of "nope" and of "NaN:p"
		srv.wantCode(t, "", "BAD_USER_INPUT", `query($a:String){leaderboard(key:"CHESS", after:$a){cursor}}`, map[string]any{"a": bad})
	}
}
