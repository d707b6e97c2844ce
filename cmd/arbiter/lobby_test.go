package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMatchesOfAPlayer: matches(player:) lists that player's matches ("my games"): those
// where it holds a seat, or that it created, with the other filters still applying.
func TestMatchesOfAPlayer(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	annID, ann := srv.register(t, "Ann")
	bobID, bob := srv.register(t, "Bob")
	cidID, cid := srv.register(t, "Cid")
	annBob := srv.newMatch(t, ann, bob, false)
	bobCid := srv.newMatch(t, bob, cid, false)
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, cid, `mutation{createMatch(input:{game:CHESS}){match{id}}}`, nil, &c)
	cidOpen := c.CreateMatch.Match.ID

	list := func(player string, status string) []string {
		t.Helper()
		vars := map[string]any{"p": player}
		q := `query($p:ID){matches(player:$p){id}}`
		if status != "" {
			vars["s"] = status
			q = `query($p:ID,$s:MatchStatus){matches(player:$p, status:$s){id}}`
		}
		var d struct{ Matches []struct{ ID string } }
		srv.must(t, "", q, vars, &d)
		var ids []string
		for _, m := range d.Matches {
			ids = append(ids, m.ID)
		}
		slices.Sort(ids)
		return ids
	}
	sorted := func(ids ...string) []string { slices.Sort(ids); return ids }
	for _, c := range []struct {
		who, player, status string
		want                []string
	}{
		{"Ann", annID, "", sorted(annBob)},
		{"Bob", bobID, "", sorted(annBob, bobCid)},
		{"Cid", cidID, "", sorted(bobCid, cidOpen)},
		{"Cid, open only", cidID, "OPEN", sorted(cidOpen)},
		{"nobody", "no-such-player", "", nil},
	} {
		if got := list(c.player, c.status); !slices.Equal(got, c.want) {
			t.Errorf("%s's matches: %v, want %v", c.who, got, c.want)
		}
	}
	if all := list("", ""); len(all) != 3 {
		t.Errorf("without player, the lobby lists every match: %v", all)
	}
}

// TestRatingsAreShownRounded: a rating is an Int rounded to the nearest point, and
// ratingExact keeps the value the Elo updates compute.
func TestRatingsAreShownRounded(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	annID, ann := srv.register(t, "Ann")
	bobID, bob := srv.register(t, "Bob")
	// Two rated fool's mates won by Bob: the second is between unequal ratings, so its
	// update is not a whole number of points.
	for range 2 {
		id := srv.newMatch(t, ann, bob, true)
		for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
			if r := srv.play(t, []string{ann, bob}[i%2], id, mv); len(r.Errors) > 0 {
				t.Fatal(r.Errors)
			}
		}
	}
	for _, p := range []string{annID, bobID} {
		r := srv.post(t, "", `query($p:ID!){player(id:$p){ratings{rating ratingExact games}}}`, map[string]any{"p": p})
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		var d struct {
			Player struct {
				Ratings []struct {
					Rating      json.Number
					RatingExact float64
					Games       int
				}
			}
		}
		if err := json.Unmarshal(r.Data, &d); err != nil || len(d.Player.Ratings) != 1 {
			t.Fatalf("%s: %v", r.Data, err)
		}
		x := d.Player.Ratings[0]
		if strings.ContainsAny(string(x.Rating), ".eE") {
			t.Errorf("rating %s is not a whole number", x.Rating)
		}
		shown, _ := x.Rating.Int64()
		if x.Games != 2 || x.RatingExact == math.Trunc(x.RatingExact) || float64(shown) != math.Round(x.RatingExact) {
			t.Errorf("rating %s for %v exact after %d games: want the exact value rounded, and an exact value with a fraction", x.Rating, x.RatingExact, x.Games)
		}
	}
}
