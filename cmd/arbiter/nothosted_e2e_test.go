package main

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
)

// TestAMatchOfAGameNotHostedHereSaysSo: a store holds a match of Ajedrez Mágico, and a
// server that hosts chess alone serves it. Every query and command naming that match is
// refused with GAME_NOT_HOSTED, naming the game and what to do, never as a match that
// does not exist (match(id) answers null for one, as any caller may learn: a match's
// existence is public) nor as a damaged one (MATCH_UNAVAILABLE); the chess match plays on.
func TestAMatchOfAGameNotHostedHereSaysSo(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	chess := srv.newMatch(t, ann, bob, false)
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:MAGIC_CHESS}){match{id}}}`, nil, &c)
	magic := c.CreateMatch.Match.ID
	srv.stop(t)

	srv = startServerIn(t, hostingGames(context.Background(), game.NewRegistry(classic.Rules{})), db)
	if r := srv.play(t, ann, chess, "e4"); len(r.Errors) > 0 {
		t.Fatalf("the chess match: %+v", r.Errors)
	}
	for name, r := range map[string]gqlResponse{
		"match":     srv.post(t, ann, `query($m:ID!){match(id:$m){id}}`, map[string]any{"m": magic}),
		"joinMatch": srv.post(t, bob, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": magic}),
		"receipt":   srv.post(t, ann, `query($m:ID!){receipt(matchId:$m){size}}`, map[string]any{"m": magic}),
	} {
		if r.code() != "GAME_NOT_HOSTED" || !strings.Contains(r.Errors[0].Message, magic) || !strings.Contains(r.Errors[0].Message, "MAGIC_CHESS") {
			t.Errorf("%s of the match of a game not hosted: %+v (data %s)", name, r.Errors, r.Data)
		}
	}
	resp, err := http.Get(srv.url + "/matches/" + magic + ".ndjson")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "GAME_NOT_HOSTED") {
		t.Errorf("its export answers %d %s", resp.StatusCode, body)
	}
	// So again after a restart, which may read the read side's snapshot back.
	srv.stop(t)
	srv = startServerIn(t, hostingGames(context.Background(), game.NewRegistry(classic.Rules{})), db)
	if r := srv.post(t, ann, `query($m:ID!){match(id:$m){id}}`, map[string]any{"m": magic}); r.code() != "GAME_NOT_HOSTED" {
		t.Errorf("the match of a game not hosted, after a restart: %+v", r.Errors)
	}
	var none struct{ Match *struct{ ID string } }
	srv.must(t, ann, `query($m:ID!){match(id:$m){id}}`, map[string]any{"m": "no-such-match"}, &none)
	if none.Match != nil {
		t.Errorf("a match that does not exist reads %+v", none.Match)
	}
}
