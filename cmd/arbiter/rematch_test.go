package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRematchOverGraphQL: a rated fool's mate, then its rematch asked by both players:
// the seats turn, the rating and the game carry over, the two matches point at each
// other, and the file verifies.
func TestRematchOverGraphQL(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, white := srv.register(t, "Ann")
	_, black := srv.register(t, "Bob")
	id := srv.newMatch(t, white, black, true)
	const rematch = `mutation($m:ID!){rematch(matchId:$m){seat match{id status rated rematchOf seats{seat player{name}}}}}`
	if r := srv.post(t, black, rematch, map[string]any{"m": id}); r.code() != "CONFLICT" {
		t.Fatalf("a rematch before the end: %+v", r.Errors)
	}
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		if r := srv.play(t, []string{white, black}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
	}
	type seat struct {
		Seat   int
		Player *struct{ Name string }
	}
	var asked struct {
		Rematch struct {
			Seat  int
			Match struct {
				ID, Status string
				Rated      bool
				RematchOf  *string
				Seats      []seat
			}
		}
	}
	srv.must(t, black, rematch, map[string]any{"m": id}, &asked)
	m := asked.Rematch.Match
	if asked.Rematch.Seat != 0 || m.Status != "OPEN" || !m.Rated || m.RematchOf == nil || *m.RematchOf != id || m.ID == id {
		t.Fatalf("Bob asked for the rematch: %+v", asked.Rematch)
	}
	var link struct {
		Match struct{ Rematch *struct{ ID, Status string } }
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){rematch{id status}}}`, map[string]any{"m": id}, &link)
	if link.Match.Rematch == nil || link.Match.Rematch.ID != m.ID {
		t.Fatalf("the finished match does not point at its rematch: %+v", link.Match)
	}
	srv.must(t, white, rematch, map[string]any{"m": id}, &asked)
	m = asked.Rematch.Match
	if asked.Rematch.Seat != 1 || m.Status != "LIVE" || m.Seats[0].Player.Name != "Bob" || m.Seats[1].Player.Name != "Ann" {
		t.Fatalf("Ann accepted the rematch: %+v", asked.Rematch)
	}
	if r := srv.play(t, black, m.ID, "e4"); len(r.Errors) > 0 {
		t.Fatalf("Bob plays White in the rematch: %+v", r.Errors)
	}
	srv.stop(t)
	if last, out := lastLine(t, "verify", "--db", db); !strings.HasPrefix(last, "2 matches") || !strings.HasSuffix(last, "all ok") {
		t.Fatalf("verify:\n%s", out)
	}
}

// TestNoRematchOfAMatchNeverStarted: a match cancelled before its start was played by
// nobody, and its rematch kept its seats for players who never sat: a match nobody could
// join, holding its asker's stake until cancelled. It is refused, and nothing is created.
func TestNoRematchOfAMatchNeverStarted(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:CHESS, stake:100}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	srv.must(t, ann, `mutation($m:ID!){joinMatch(matchId:$m, seat:0){seat}}`, map[string]any{"m": id}, nil)
	srv.must(t, ann, `mutation($m:ID!){cancelMatch(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	r := srv.post(t, ann, `mutation($m:ID!){rematch(matchId:$m){seat match{id}}}`, map[string]any{"m": id})
	if r.code() != "CONFLICT" || !strings.Contains(r.Errors[0].Message, "cancelled before it started") {
		t.Fatalf("the rematch of a match cancelled before its start: %s %+v", r.Data, r.Errors)
	}
	var after struct {
		Match struct{ Rematch *struct{ ID string } }
	}
	srv.must(t, ann, `query($m:ID!){match(id:$m){rematch{id}}}`, map[string]any{"m": id}, &after)
	if after.Match.Rematch != nil {
		t.Fatalf("a refused rematch left match %s", after.Match.Rematch.ID)
	}
}
