package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// TestBadInputIsRefusedAndChangesNothing sends every kind of bad request to a real server
// and checks the error code and that the match's version did not move.
func TestBadInputIsRefusedAndChangesNothing(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	_, outsider := srv.register(t, "Kibitzer")
	id := srv.newMatch(t, white, black, false)
	version := func() int {
		var d struct{ Match struct{ Version int } }
		srv.must(t, "", `query($m:ID!){match(id:$m){version}}`, map[string]any{"m": id}, &d)
		return d.Match.Version
	}
	v0 := version()

	cases := []struct {
		name, token, query string
		vars               map[string]any
		code               string
	}{
		{"illegal move", white, playQ, map[string]any{"m": id, "mv": "e2e5"}, "ILLEGAL_MOVE"},
		{"illegal SAN", white, playQ, map[string]any{"m": id, "mv": "Ke2"}, "ILLEGAL_MOVE"},
		{"malformed move", white, playQ, map[string]any{"m": id, "mv": "hello"}, "BAD_USER_INPUT"},
		{"empty move", white, playQ, map[string]any{"m": id, "mv": ""}, "BAD_USER_INPUT"},
		{"out of turn", black, playQ, map[string]any{"m": id, "mv": "e7e5"}, "NOT_YOUR_TURN"},
		{"no token", "", playQ, map[string]any{"m": id, "mv": "e2e4"}, "UNAUTHENTICATED"},
		{"wrong token", white[:len(white)-4] + "0000", playQ, map[string]any{"m": id, "mv": "e2e4"}, "UNAUTHENTICATED"},
		{"garbage token", "not-a-token", playQ, map[string]any{"m": id, "mv": "e2e4"}, "UNAUTHENTICATED"},
		{"not seated", outsider, playQ, map[string]any{"m": id, "mv": "e2e4"}, "FORBIDDEN"},
		{"unknown match", white, playQ, map[string]any{"m": "nosuchmatch", "mv": "e2e4"}, "NOT_FOUND"},
		{"join a full match", outsider, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": id}, "CONFLICT"},
		{"accept a draw nobody offered", black, `mutation($m:ID!){acceptDraw(matchId:$m){version}}`, map[string]any{"m": id}, "CONFLICT"},
		{"claim a draw too early", white, `mutation($m:ID!){claimDraw(matchId:$m){version}}`, map[string]any{"m": id}, "ILLEGAL_MOVE"},
		{"command ID with spaces", white, `mutation($m:ID!){playMove(matchId:$m, move:"e4", commandId:"a b"){version}}`, map[string]any{"m": id}, "BAD_USER_INPUT"},
		{"unknown game option", white, `mutation{createMatch(input:{game:CHESS, options:[{key:"increment", value:"3"}]}){match{id}}}`, nil, "BAD_USER_INPUT"},
		{"bad FEN option", white, `mutation{createMatch(input:{game:CHESS, options:[{key:"fen", value:"8/8/8 w - - 0 1"}]}){match{id}}}`, nil, "BAD_USER_INPUT"},
		{"empty name", "", `mutation{registerPlayer(name:""){token}}`, nil, "BAD_USER_INPUT"},
		{"long name", "", `mutation{registerPlayer(name:"` + strings.Repeat("x", 33) + `"){token}}`, nil, "BAD_USER_INPUT"},
		{"the house bot's name", "", `mutation{registerPlayer(name:"arbiter BOT"){token}}`, nil, "BAD_USER_INPUT"},
		{"too many events asked", "", `query($m:ID!){match(id:$m){events(first:5000){version}}}`, map[string]any{"m": id}, "BAD_USER_INPUT"},
		{"unknown field", "", `{nosuchfield}`, nil, "GRAPHQL_VALIDATION_FAILED"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := srv.post(t, c.token, c.query, c.vars)
			if r.code() != c.code {
				t.Fatalf("got %q (%+v), want %s", r.code(), r.Errors, c.code)
			}
			if len(r.Errors[0].Message) < 10 {
				t.Fatalf("the reason %q does not explain anything", r.Errors[0].Message)
			}
		})
	}
	if v := version(); v != v0 {
		t.Fatalf("refused commands changed the match: version %d -> %d", v0, v)
	}

	t.Run("not a bearer header", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, srv.url+"/graphql", strings.NewReader(`{"query":"{me{id}}"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Basic "+white)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r gqlResponse
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || r.code() != "UNAUTHENTICATED" || !strings.Contains(r.Errors[0].Message, "Bearer") {
			t.Fatalf("Basic auth: %+v %v", r.Errors, err)
		}
	})
	t.Run("deep through fragments", func(t *testing.T) {
		q := `query { match(id: "x") { ...A } } fragment A on Match { rematch { ...B } } fragment B on Match { rematch { rematch { ...C } } } ` +
			`fragment C on Match { rematch { rematch { rematch { rematch { rematch { rematch { rematch { rematch { id } } } } } } } } }`
		if r := srv.post(t, "", q, nil); r.code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, "levels deep") {
			t.Fatalf("a deep query hidden in fragments: %+v", r.Errors)
		}
	})
	t.Run("command ID too long", func(t *testing.T) {
		r := srv.post(t, white, `mutation($m:ID!,$c:ID){playMove(matchId:$m, move:"e4", commandId:$c){version}}`, map[string]any{"m": id, "c": strings.Repeat("k", 129)})
		if r.code() != "BAD_USER_INPUT" {
			t.Fatalf("a 129-byte command ID: %+v", r.Errors)
		}
	})
	t.Run("query for an unknown match", func(t *testing.T) {
		r := srv.post(t, "", `{match(id:"nosuchmatch"){id} player(id:"nosuchplayer"){id}}`, nil)
		if len(r.Errors) > 0 || string(r.Data) != `{"match":null,"player":null}` {
			t.Fatalf("unknown IDs: %s %+v", r.Data, r.Errors)
		}
	})
	t.Run("nested too deep", func(t *testing.T) {
		q := "{ match(id: \"x\") { rematch { rematch { rematch { rematch { rematch { rematch { rematch { rematch { rematch { rematch { rematch { id } } } } } } } } } } } } }"
		if r := srv.post(t, "", q, nil); r.code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, "13 levels deep") {
			t.Fatalf("a 13-level query: %+v", r.Errors)
		}
	})
	t.Run("introspection as GraphiQL asks it", func(t *testing.T) {
		// ofType eight deep (list and non-null wrappers) under types, fields and args:
		// GraphiQL's schema query, which must pass for its documentation and completion.
		q := `query { __schema { queryType { name } types { kind name fields(includeDeprecated: true) { name args { name type { ...T } } type { ...T } } } } }
		fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name
		  ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } }`
		if r := srv.post(t, "", q, nil); len(r.Errors) > 0 || !strings.Contains(string(r.Data), `"queryType":{"name":"Query"}`) {
			t.Fatalf("the introspection query: %+v", r.Errors)
		}
	})
	t.Run("too complex", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("{")
		for i := 0; i < 300; i++ {
			fmt.Fprintf(&b, "m%d: matches(first: 500){ id seats { seat } } ", i)
		}
		b.WriteString("}")
		if r := srv.post(t, "", b.String(), nil); r.code() != "COMPLEXITY_LIMIT_EXCEEDED" {
			t.Fatalf("a very complex query: %+v", r.Errors)
		}
	})
	t.Run("oversized body", func(t *testing.T) {
		big := `{"query":"{games{id}}","variables":{"x":"` + strings.Repeat("a", 2<<20) + `"}}`
		resp, err := http.Post(srv.url+"/graphql", "application/json", strings.NewReader(big))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Fatalf("a 2 MiB body was accepted: %d", resp.StatusCode)
		}
	})
	t.Run("subscription beyond the end", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.url, "http")+"/graphql", &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.CloseNow()
		_ = wsjson.Write(ctx, conn, map[string]any{"type": "connection_init"})
		var msg struct {
			Type    string
			Payload json.RawMessage
		}
		_ = wsjson.Read(ctx, conn, &msg)
		_ = wsjson.Write(ctx, conn, map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{
			"query": `subscription($m:ID!){matchEvents(matchId:$m, after: 1000){version}}`, "variables": map[string]any{"m": id}}})
		if err := wsjson.Read(ctx, conn, &msg); err != nil {
			t.Fatal(err)
		}
		if (msg.Type != "error" && msg.Type != "next") || !strings.Contains(string(msg.Payload), "BAD_USER_INPUT") {
			t.Fatalf("after:1000 on a match of %d events answered %s %s", v0, msg.Type, msg.Payload)
		}
	})
	t.Run("bad token on the websocket", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.url, "http")+"/graphql", &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.CloseNow()
		_ = wsjson.Write(ctx, conn, map[string]any{"type": "connection_init", "payload": map[string]any{"Authorization": "Bearer nope.0000"}})
		var msg struct{ Type string }
		err = wsjson.Read(ctx, conn, &msg)
		if err == nil && msg.Type == "connection_ack" {
			t.Fatalf("a wrong token was acknowledged")
		}
	})
}

const playQ = `mutation($m:ID!,$mv:String!){playMove(matchId:$m, move:$mv){version}}`

// TestFinishedMatchAndDuplicateCommands: a retried command returns its first outcome,
// and a finished match refuses moves.
func TestFinishedMatchAndDuplicateCommands(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	const q = `mutation($m:ID!,$mv:String!,$c:ID){playMove(matchId:$m, move:$mv, commandId:$c){version duplicate}}`
	type ack struct {
		PlayMove struct {
			Version   int
			Duplicate bool
		}
	}
	var first, again ack
	srv.must(t, white, q, map[string]any{"m": id, "mv": "f3", "c": "w1"}, &first)
	srv.must(t, white, q, map[string]any{"m": id, "mv": "f3", "c": "w1"}, &again)
	if first.PlayMove.Duplicate || !again.PlayMove.Duplicate || again.PlayMove.Version != first.PlayMove.Version {
		t.Fatalf("retry of w1: first %+v, again %+v", first, again)
	}
	for i, mv := range []string{"e5", "g4", "Qh4#"} {
		tok := black
		if i%2 == 1 {
			tok = white
		}
		srv.must(t, tok, q, map[string]any{"m": id, "mv": mv, "c": fmt.Sprint("m", i)}, nil)
	}
	// The retry of a command after the match moved on still returns its first outcome.
	srv.must(t, white, q, map[string]any{"m": id, "mv": "f3", "c": "w1"}, &again)
	if again.PlayMove.Version != first.PlayMove.Version || !again.PlayMove.Duplicate {
		t.Fatalf("late retry of w1: %+v", again)
	}
	if r := srv.play(t, white, id, "e2e4"); r.code() != "CONFLICT" || !strings.Contains(r.Errors[0].Message, "over") {
		t.Fatalf("a move after the mate: %+v", r.Errors)
	}
	if r := srv.post(t, white, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}); r.code() != "CONFLICT" {
		t.Fatalf("resigning a finished match: %+v", r.Errors)
	}
}

// TestRacingClientsForOneTurn: many requests for the same turn at once; exactly one move
// is played, the others are refused as not their turn (or illegal), never two moves.
func TestRacingClientsForOneTurn(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	moves := []string{"e4", "d4", "c4", "Nf3", "g3", "b3", "f4", "Nc3"}
	var wg sync.WaitGroup
	results := make([]gqlResponse, len(moves))
	for i, mv := range moves {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = srv.play(t, white, id, mv)
		}()
	}
	wg.Wait()
	won := 0
	for i, r := range results {
		switch r.code() {
		case "":
			won++
		case "NOT_YOUR_TURN":
		default:
			t.Errorf("%s: unexpected %+v", moves[i], r.Errors)
		}
	}
	var d struct{ Match struct{ Moves []string } }
	srv.must(t, "", `query($m:ID!){match(id:$m){moves}}`, map[string]any{"m": id}, &d)
	if won != 1 || len(d.Match.Moves) != 1 {
		t.Fatalf("%d racing moves were accepted; the match has %v", won, d.Match.Moves)
	}
}

// TestHTTPTransports: the web client at /, GraphiQL at /graphiql/, queries over GET,
// mutations refused over GET.
func TestHTTPTransports(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	for path, want := range map[string]string{"/": `type="module"`, "/graphiql/": "graphiql.min.js"} {
		resp, err := http.Get(srv.url + path)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(page), want) {
			t.Fatalf("GET %s answered %d without %s:\n%s", path, resp.StatusCode, want, page)
		}
	}
	get := func(q string) gqlResponse {
		resp, err := http.Get(srv.url + "/graphql?query=" + url.QueryEscape(q))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r gqlResponse
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := get(`{games{id rulesVersion}}`); len(r.Errors) > 0 || !strings.Contains(string(r.Data), `"CHESS"`) {
		t.Fatalf("GET query: %s %+v", r.Data, r.Errors)
	}
	if r := get(`mutation{registerPlayer(name:"Eve"){token}}`); len(r.Errors) == 0 {
		t.Fatalf("a mutation over GET was run")
	}
}
