package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// metrics returns the body of the server's /metrics.
func (s *server) metrics(t *testing.T) []byte {
	t.Helper()
	resp, err := http.Get(s.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading /metrics: %v", err)
	}
	return body
}

// scrape returns the value of one metric without labels from /metrics.
func (s *server) scrape(t *testing.T, name string) string {
	t.Helper()
	body := s.metrics(t)
	m := regexp.MustCompile(`(?m)^` + name + ` (\S+)$`).FindSubmatch(body)
	if m == nil {
		t.Fatalf("/metrics lacks %s:\n%s", name, body)
	}
	return string(m[1])
}

// TestNotFoundKeepsNothing: a flood of mutations on matches that do not exist is answered
// NOT_FOUND and leaves the engine's cache as it was.
func TestNotFoundKeepsNothing(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	srv.newMatch(t, white, black, false)
	before := srv.scrape(t, "arbiter_engine_cached_matches")
	for i := range 100 {
		id := fmt.Sprintf("absent-%d-%s", i, strings.Repeat("x", 100))
		for _, q := range []string{
			`mutation($m:ID!){playMove(matchId:$m, move:"e4"){version}}`,
			`mutation($m:ID!){joinMatch(matchId:$m){seat}}`,
			`mutation($m:ID!){resign(matchId:$m){version}}`,
		} {
			if r := srv.post(t, white, q, map[string]any{"m": id}); r.code() != "NOT_FOUND" {
				t.Fatalf("%s on %s: %+v, want NOT_FOUND", q, id, r.Errors)
			}
		}
	}
	if after := srv.scrape(t, "arbiter_engine_cached_matches"); after != before {
		t.Fatalf("the engine caches %s matches after 300 mutations on absent ones, %s before", after, before)
	}
}

// TestLongIDsAreRefused sends an ID one byte over the limit to each kind of ID argument:
// each is refused with BAD_USER_INPUT naming the argument and the limit, before it runs.
func TestLongIDsAreRefused(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	long := strings.Repeat("a", 129)
	for _, c := range []struct {
		query, arg string
		vars       map[string]any
	}{
		{`query($m:ID!){match(id:$m){id}}`, "id", map[string]any{"m": long}},
		{`query{player(id:"` + long + `"){id}}`, "id", nil},
		{`mutation($m:ID!){playMove(matchId:$m, move:"e4"){version}}`, "matchId", map[string]any{"m": long}},
		{`mutation($m:ID!,$c:ID){playMove(matchId:$m, move:"e4", commandId:$c){version}}`, "commandId", map[string]any{"m": id, "c": long}},
		{`mutation($m:ID!,$c:ID){playCard(matchId:$m, cardId:$c){version}}`, "cardId", map[string]any{"m": id, "c": long}},
		{`mutation($c:ID){createMatch(input:{game:CHESS, commandId:$c}){match{id}}}`, "input.commandId", map[string]any{"c": long}},
		{`mutation($i:CreateMatchInput!){createMatch(input:$i){match{id}}}`, "input.commandId", map[string]any{"i": map[string]any{"game": "CHESS", "commandId": long}}},
		{`query{...F} fragment F on Query{match(id:"` + long + `"){id}}`, "id", nil},
		{`subscription($m:ID!){matchEvents(matchId:$m){version}}`, "matchId", map[string]any{"m": long}},
	} {
		r := srv.post(t, white, c.query, c.vars)
		want := fmt.Sprintf("argument %s is an ID of 129 bytes; IDs are at most 128 bytes long", c.arg)
		if r.code() != "BAD_USER_INPUT" || r.Errors[0].Message != want {
			t.Errorf("%s: %+v, want BAD_USER_INPUT %q", c.query, r.Errors, want)
		}
	}
	// The exports take the match's ID in their path: refused there too, before any read.
	status, body := rawRequest(t, http.MethodGet, srv.url+"/matches/"+long+".ndjson", "", "")
	if r := (gqlResponse{}); status != http.StatusBadRequest || json.Unmarshal([]byte(body), &r) != nil || r.code() != "BAD_USER_INPUT" ||
		r.Errors[0].Message != "the match ID has 129 bytes; IDs are at most 128 bytes long" {
		t.Errorf("the export of a match ID of 129 bytes: %d %s", status, body)
	}
	// 128 bytes is allowed: the match is just not there.
	if r := srv.post(t, white, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": long[:128]}); r.code() != "NOT_FOUND" {
		t.Fatalf("an ID of 128 bytes: %+v, want NOT_FOUND", r.Errors)
	}
}
