package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestClockOptionsOutOfBoundsAreRefused: the clocks that made seat 0 lose on time at once
// are refused in friendly and rated matches alike, and a joiner sees the clock it joins.
func TestClockOptionsOutOfBoundsAreRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	const create = `mutation($c:String!,$r:Boolean){createMatch(input:{game:CHESS, rated:$r, options:[{key:"clock", value:$c}]}){match{id}}}`
	for _, bad := range []string{"NaN+0", "1e-9+0", "0.000001+0", "Inf+0", "0.01+0", "0x1p-2+0", "601+0", "5+601"} {
		for _, rated := range []bool{false, true} {
			if r := srv.post(t, ann, create, map[string]any{"c": bad, "r": rated}); r.code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, "clock") {
				t.Errorf("clock %q (rated %v): %+v", bad, rated, r.Errors)
			}
		}
	}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:CHESS, rated:true, options:[{key:"clock", value:"3+2"}]}){match{id}}}`, nil, &c)
	var j struct {
		JoinMatch struct {
			Match struct{ Options []struct{ Key, Value string } }
		}
	}
	srv.must(t, bob, `mutation($m:ID!){joinMatch(matchId:$m){match{options{key value}}}}`, map[string]any{"m": c.CreateMatch.Match.ID}, &j)
	if o := j.JoinMatch.Match.Options; len(o) != 1 || o[0].Key != "clock" || o[0].Value != "3+2" {
		t.Fatalf("Bob joined a match whose options read %+v, want clock 3+2", o)
	}
}

// TestAStrangerCannotTakeARematchSeat: a rated match, then its rematch asked by one
// player: a stranger's join is FORBIDDEN, with or without a seat, and the other player
// still gets the seat kept for it.
func TestAStrangerCannotTakeARematchSeat(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	_, eve := srv.register(t, "Eve")
	id := srv.newMatch(t, ann, bob, true)
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		if r := srv.play(t, []string{ann, bob}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
	}
	var asked struct {
		Rematch struct{ Match struct{ ID string } }
	}
	srv.must(t, bob, `mutation($m:ID!){rematch(matchId:$m){match{id}}}`, map[string]any{"m": id}, &asked)
	re := asked.Rematch.Match.ID
	for _, q := range []string{`mutation($m:ID!){joinMatch(matchId:$m){seat}}`, `mutation($m:ID!){joinMatch(matchId:$m, seat:1){seat}}`} {
		if r := srv.post(t, eve, q, map[string]any{"m": re}); r.code() != "FORBIDDEN" || !strings.Contains(r.Errors[0].Message, "kept") {
			t.Fatalf("Eve joins the rematch with %s: %+v", q, r.Errors)
		}
	}
	var joined struct{ JoinMatch struct{ Seat int } }
	srv.must(t, ann, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": re}, &joined)
	if joined.JoinMatch.Seat != 1 {
		t.Fatalf("Ann joined the rematch at seat %d, want 1 (Black)", joined.JoinMatch.Seat)
	}
}
