package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAPlayerCannotStopItsFlag: White, to move in a 3 s game, sends an accepted command
// under the ID the server's timers once used for its deadline ("timeout-<deadline in ns>",
// worked out from the public events). The flag falls all the same.
func TestAPlayerCannotStopItsFlag(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, white, `mutation{createMatch(input:{game:CHESS, options:[{key:"clock", value:"0.05+0"}]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range []string{white, black} {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	var d struct {
		Match struct {
			Events []struct {
				Type string
				At   time.Time
			}
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){events{type at}}}`, map[string]any{"m": id}, &d)
	var started time.Time
	for _, ev := range d.Match.Events {
		if ev.Type == "MatchStarted" {
			started = ev.At
		}
	}
	if started.IsZero() {
		t.Fatalf("no MatchStarted among %+v", d.Match.Events)
	}
	deadline := started.Add(3 * time.Second)
	old := fmt.Sprintf("timeout-%d", deadline.UnixNano())
	var offer struct{ OfferDraw struct{ Duplicate bool } }
	srv.must(t, white, `mutation($m:ID!,$c:ID){offerDraw(matchId:$m, commandId:$c){duplicate}}`, map[string]any{"m": id, "c": old}, &offer)
	if offer.OfferDraw.Duplicate {
		t.Fatalf("White's offer under %q was a duplicate", old)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	fell := false
	for ev := range srv.subscribe(t, ctx, "graphql-transport-ws", "", id, 0) {
		if ev.Type == "FlagFell" {
			fell = true
			break
		}
	}
	if !fell {
		t.Fatalf("White's flag never fell after its offer under %q", old)
	}
	var m struct {
		Match struct {
			Status string
			Result struct{ Reason string }
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){status result{reason}}}`, map[string]any{"m": id}, &m)
	if m.Match.Status != "FINISHED" || m.Match.Result.Reason != "timeout" {
		t.Fatalf("after the flag: %+v", m.Match)
	}
}

// TestCommandIDsBelongToTheirSender: Black's join and move under the command IDs White
// used are Black's own commands, played; White's reuse of a key for another move, and an
// anonymous creation reusing a key with another input, are CONFLICT.
func TestCommandIDsBelongToTheirSender(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, white, `mutation{createMatch(input:{game:CHESS}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for want, tok := range []string{white, black} {
		var j struct{ JoinMatch struct{ Seat int } }
		srv.must(t, tok, `mutation($m:ID!){joinMatch(matchId:$m, commandId:"join"){seat}}`, map[string]any{"m": id}, &j)
		if j.JoinMatch.Seat != want {
			t.Fatalf("joined seat %d under the shared command ID, want %d", j.JoinMatch.Seat, want)
		}
	}
	const q = `mutation($m:ID!,$mv:String!){playMove(matchId:$m, move:$mv, commandId:"move-1"){version duplicate}}`
	version := 0
	for _, p := range []struct{ token, move string }{{white, "e4"}, {black, "e5"}} {
		var a struct {
			PlayMove struct {
				Version   int
				Duplicate bool
			}
		}
		srv.must(t, p.token, q, map[string]any{"m": id, "mv": p.move}, &a)
		if a.PlayMove.Duplicate || a.PlayMove.Version <= version {
			t.Fatalf("%s under the shared command ID: %+v after version %d", p.move, a.PlayMove, version)
		}
		version = a.PlayMove.Version
	}
	var retry struct {
		PlayMove struct {
			Version   int
			Duplicate bool
		}
	}
	srv.must(t, white, q, map[string]any{"m": id, "mv": "e4"}, &retry)
	if !retry.PlayMove.Duplicate {
		t.Fatalf("White's retry of e4: %+v", retry.PlayMove)
	}
	if r := srv.post(t, white, q, map[string]any{"m": id, "mv": "Nf3"}); r.code() != "CONFLICT" || !strings.Contains(r.Errors[0].Message, "already used for a different command") {
		t.Fatalf("White's Nf3 under the ID of its e4: %+v, want CONFLICT", r.Errors)
	}

	const create = `mutation($g:Game!){createMatch(input:{game:$g, commandId:"table-7"}){match{id}}}`
	var first, again struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, "", create, map[string]any{"g": "CHESS"}, &first)
	srv.must(t, "", create, map[string]any{"g": "CHESS"}, &again)
	if again.CreateMatch.Match.ID != first.CreateMatch.Match.ID {
		t.Fatalf("a retried anonymous creation made %s, then %s", first.CreateMatch.Match.ID, again.CreateMatch.Match.ID)
	}
	if r := srv.post(t, "", create, map[string]any{"g": "SOVEREIGN_CHESS"}); r.code() != "CONFLICT" || !strings.Contains(r.Errors[0].Message, "already used for a different command") {
		t.Fatalf("an anonymous creation with another input under a used key: %+v, want CONFLICT", r.Errors)
	}
}
