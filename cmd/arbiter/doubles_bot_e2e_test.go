package main

import (
	"path/filepath"
	"testing"
	"time"
)

// The house bot plays doubles too: four bots at one table play to the end from the
// plays their views list (both boards at once), and the file verifies.
func TestHouseBotsPlayDoubles(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:MAGIC_CHESS, options:[{key:"boards", value:"2"}, {key:"clock", value:"0.5+0"}]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat := range 4 {
		srv.must(t, ann, `mutation($m:ID!,$s:Int){addBot(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	var v struct {
		Match struct {
			Status string
			Result *struct{ Reason string }
			Moves  []string
		}
	}
	for deadline := time.Now().Add(3 * time.Minute); ; {
		srv.must(t, "", `query($m:ID!){match(id:$m){status result{reason} moves}}`, map[string]any{"m": id}, &v)
		if v.Match.Status == "FINISHED" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bots have not finished: %s after %d plays", v.Match.Status, len(v.Match.Moves))
		}
		time.Sleep(50 * time.Millisecond) // polling the bots' progress; the clocks end the match
	}
	t.Logf("%d plays, ended by %s", len(v.Match.Moves), v.Match.Result.Reason)
	srv.stop(t)
	verifyAll(t, db)
}
