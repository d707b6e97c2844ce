package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// wsMsg is one message of graphql-transport-ws, as it came.
type wsMsg struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// dialWS opens a websocket to /graphql in graphql-transport-ws without sending anything.
func (s *server) dialWS(t *testing.T, ctx context.Context, opts *websocket.DialOptions) *websocket.Conn {
	t.Helper()
	if opts == nil {
		opts = &websocket.DialOptions{}
	}
	opts.Subprotocols = []string{"graphql-transport-ws"}
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.url, "http")+"/graphql", opts)
	if err != nil {
		t.Fatalf("dialing the websocket: %v", err)
	}
	conn.SetReadLimit(16 << 20)
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}

// initWS sends connection_init (with a token when there is one) and waits for the ack.
func initWS(t *testing.T, ctx context.Context, conn *websocket.Conn, token string) {
	t.Helper()
	init := map[string]any{"type": "connection_init"}
	if token != "" {
		init["payload"] = map[string]any{"Authorization": "Bearer " + token}
	}
	if err := wsjson.Write(ctx, conn, init); err != nil {
		t.Fatal(err)
	}
	var ack wsMsg
	if err := wsjson.Read(ctx, conn, &ack); err != nil || ack.Type != "connection_ack" {
		t.Fatalf("connection_init answered %+v, %v", ack, err)
	}
}

func sendOp(t *testing.T, ctx context.Context, conn *websocket.Conn, id, query string, vars map[string]any) {
	t.Helper()
	if err := wsjson.Write(ctx, conn, map[string]any{"id": id, "type": "subscribe", "payload": map[string]any{"query": query, "variables": vars}}); err != nil {
		t.Fatalf("sending operation %s: %v", id, err)
	}
}

// errorCode is the extensions.code of the first error of a next or error payload.
func errorCode(m wsMsg) string {
	var errs []struct {
		Extensions map[string]any `json:"extensions"`
	}
	if m.Type == "next" {
		var p struct {
			Errors json.RawMessage `json:"errors"`
		}
		if json.Unmarshal(m.Payload, &p) != nil || len(p.Errors) == 0 {
			return ""
		}
		m.Payload = p.Errors
	}
	if json.Unmarshal(m.Payload, &errs) != nil || len(errs) == 0 {
		return ""
	}
	c, _ := errs[0].Extensions["code"].(string)
	return c
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "p" + hex.EncodeToString(b[:4]) + "." + hex.EncodeToString(b)
}

// TestRateLimitKeysByPlayer: a flood that sends a new random token with each request is
// limited as its address, and a registered player keeps a bucket of its own.
func TestRateLimitKeysByPlayer(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"), "--rate", "0.1", "--burst", "5")
	_, bob := srv.register(t, "Bob") // anonymous: from the address's bucket
	refused := 0
	for i := range 20 {
		r := srv.post(t, randomToken(), `{games{id}}`, nil)
		switch {
		case r.code() == "RATE_LIMITED":
			refused++
		case len(r.Errors) > 0:
			t.Fatalf("request %d: %+v", i+1, r.Errors)
		}
	}
	if refused < 12 {
		t.Fatalf("%d of 20 requests with random tokens refused at 0.1 per second with bursts of 5", refused)
	}
	for i := range 5 {
		if r := srv.post(t, bob, `{me{name}}`, nil); len(r.Errors) > 0 {
			t.Fatalf("Bob's request %d, with his own bucket: %+v", i+1, r.Errors)
		}
	}
	if r := srv.post(t, bob, `{me{name}}`, nil); r.code() != "RATE_LIMITED" {
		t.Fatalf("Bob's sixth request at once: %+v", r.Errors)
	}
}

// TestRateLimitCountsWebsocketOperations: every operation sent over one websocket takes a
// token of the player's bucket; past it, each is refused with RATE_LIMITED.
func TestRateLimitCountsWebsocketOperations(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"), "--rate", "0.1", "--burst", "5")
	_, bob := srv.register(t, "Bob")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn := srv.dialWS(t, ctx, nil)
	initWS(t, ctx, conn, bob)
	for i := range 100 {
		sendOp(t, ctx, conn, fmt.Sprint(i), `{me{name}}`, nil)
	}
	answered, refused := map[string]bool{}, 0
	for len(answered) < 100 {
		var m wsMsg
		if err := wsjson.Read(ctx, conn, &m); err != nil {
			t.Fatalf("after %d answers: %v", len(answered), err)
		}
		switch m.Type {
		case "next", "error":
			if !answered[m.ID] {
				answered[m.ID] = true
				if errorCode(m) == "RATE_LIMITED" {
					refused++
				}
			}
		}
	}
	if refused < 90 {
		t.Fatalf("%d of 100 operations over one websocket refused at 0.1 per second with bursts of 5", refused)
	}
}

// TestCostLimits: fields are priced by what they cost, first: 0 means none, and a
// request that makes many errors gets a few.
func TestCostLimits(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	srv.play(t, white, id, "e4")

	var aliases strings.Builder
	for i := range 200 {
		fmt.Fprintf(&aliases, "b%d: board{legalMoves} ", i)
	}
	if r := srv.post(t, "", `query($m:ID!){match(id:$m){`+aliases.String()+`}}`, map[string]any{"m": id}); r.code() != "COMPLEXITY_LIMIT_EXCEEDED" {
		t.Fatalf("200 aliased boards: %.200s %+v", r.Data, r.Errors)
	}
	for _, q := range []string{`{matches(first:100){board{legalMoves}}}`, `{matches(first:500){hand{slot}}}`} {
		if r := srv.post(t, "", q, nil); r.code() != "COMPLEXITY_LIMIT_EXCEEDED" {
			t.Fatalf("%s: %.200s %+v", q, r.Data, r.Errors)
		}
	}
	// __schema costs nothing in the complexity and walks the whole schema: once is what
	// a client needs, twice is refused, as an alias or a fragment spread.
	walk := `__schema{types{fields{args{type{name}} type{fields{name}}}}}`
	for _, q := range []string{`{` + aliased(2, "s%[1]d: "+walk) + `}`, `{...S s: __schema{types{name}}} fragment S on Query{` + walk + `}`} {
		if r := srv.post(t, "", q, nil); r.code() != "COMPLEXITY_LIMIT_EXCEEDED" || r.Errors[0].Message != "the operation has 2 __schema fields; at most 1 are allowed" {
			t.Fatalf("%.60s...: %.200s %+v", q, r.Data, r.Errors)
		}
	}
	var schema struct {
		Schema struct{ Types []struct{ Name string } }
	}
	srv.must(t, "", `{schema: __schema{types{name}} `+aliased(3, `t%[1]d: __type(name:"Match"){name} `)+`}`, nil, &schema)
	if len(schema.Schema.Types) < 50 {
		t.Fatalf("one __schema is still served: %+v", schema)
	}

	var one struct {
		Match struct{ Board struct{ LegalMoves []string } }
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){board{legalMoves}}}`, map[string]any{"m": id}, &one)
	if len(one.Match.Board.LegalMoves) != 20 {
		t.Fatalf("one board is still served: %+v", one)
	}

	var none struct {
		Matches []struct{ ID string }
		Match   struct{ Events []struct{ Version int } }
	}
	srv.must(t, "", `query($m:ID!){matches(first:0){id} match(id:$m){events(first:0){version}}}`, map[string]any{"m": id}, &none)
	if len(none.Matches) != 0 || len(none.Match.Events) != 0 {
		t.Fatalf("first: 0 returned %d matches and %d events", len(none.Matches), len(none.Match.Events))
	}
	if r := srv.post(t, "", `{matches(first:501){id}}`, nil); r.code() != "BAD_USER_INPUT" {
		t.Fatalf("first: 501: %+v", r.Errors)
	}

	// 55,000 directives, then 500 unknown fields: small answers with codes.
	skip := `{games{id ` + strings.Repeat("@skip ", 55_000) + `}}`
	status, raw := rawPost(t, srv.url+"/graphql", "application/json", mustJSON(map[string]any{"query": skip}))
	if len(raw) > 16<<10 || !strings.Contains(raw, `"code"`) {
		t.Fatalf("55,000 @skip: %d, %d bytes: %.300s", status, len(raw), raw)
	}
	var fields strings.Builder
	for i := range 500 {
		fmt.Fprintf(&fields, "f%d ", i)
	}
	r := srv.post(t, "", `{`+fields.String()+`}`, nil)
	if len(r.Errors) > 21 || r.code() != "GRAPHQL_VALIDATION_FAILED" || !strings.Contains(r.Errors[len(r.Errors)-1].Message, "more") {
		t.Fatalf("500 unknown fields: %d errors, first %+v", len(r.Errors), r.Errors[:min(2, len(r.Errors))])
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// rawPost sends a body as is and returns the status and body of the answer.
func rawPost(t *testing.T, url, contentType, body string) (int, string) {
	t.Helper()
	return rawRequest(t, http.MethodPost, url, contentType, body)
}

func rawRequest(t *testing.T, method, url, contentType, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestTransportErrorsHaveCodes: whatever goes wrong before a resolver runs is answered
// in GraphQL's shape with an extensions.code, and a subscription over HTTP says to use a
// websocket.
func TestTransportErrorsHaveCodes(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	gql := srv.url + "/graphql"
	sub := `subscription{matchUpdates(matchId:"x"){id}}`
	for _, c := range []struct {
		name, method, contentType, body, want string
	}{
		{"not JSON", "POST", "application/json", `{"query":`, "BAD_REQUEST"},
		{"too large", "POST", "application/json", `{"query":"` + strings.Repeat(" ", 2<<20) + `{games{id}}"}`, "PAYLOAD_TOO_LARGE"},
		{"a bad method", "PUT", "application/json", mustJSON(map[string]any{"query": "{games{id}}"}), "BAD_REQUEST"},
		{"a parse error", "POST", "application/json", mustJSON(map[string]any{"query": "{games{id"}), "GRAPHQL_PARSE_FAILED"},
		{"a validation error", "POST", "application/json", mustJSON(map[string]any{"query": "{games{nope}}"}), "GRAPHQL_VALIDATION_FAILED"},
		{"a subscription over POST", "POST", "application/json", mustJSON(map[string]any{"query": sub}), "WEBSOCKET_REQUIRED"},
		{"a subscription over GET", "GET", "", "", "WEBSOCKET_REQUIRED"},
		// JSON of another shape than a request was answered INTERNAL and logged as a
		// failure of the server, at anyone's will: each names what was wrong.
		{"a batch", "POST", "application/json", `[{"query":"{games{id}}"},{"query":"{games{id}}"}]`, "BAD_REQUEST batched requests are not served"},
		{"a string", "POST", "application/json", `"{games{id}}"`, "BAD_REQUEST not a JSON object"},
		{"a query that is a number", "POST", "application/json", `{"query":5}`, "BAD_REQUEST query must be a JSON string"},
		{"variables that are a string", "POST", "application/json", `{"query":"{games{id}}","variables":"x"}`, "BAD_REQUEST variables must be a JSON object"},
		{"an operationName that is a list", "POST", "application/json", `{"query":"{games{id}}","operationName":[]}`, "BAD_REQUEST operationName must be a JSON string"},
		{"extensions that are a number", "POST", "application/json", `{"query":"{games{id}}","extensions":1}`, "BAD_REQUEST extensions must be a JSON object"},
		{"GET variables that are not JSON", "GET", "", "&variables=x", "BAD_REQUEST variables must be a JSON object"},
		{"GET extensions that are a list", "GET", "", "&extensions=[]", "BAD_REQUEST extensions must be a JSON object"},
	} {
		u, send := gql, c.body
		if c.method == "GET" {
			u, send = u+"?query="+url.QueryEscape(sub)+c.body, ""
		}
		status, body := rawRequest(t, c.method, u, c.contentType, send)
		code, says, _ := strings.Cut(c.want, " ")
		var r gqlResponse
		if err := json.Unmarshal([]byte(body), &r); err != nil || r.code() != code || !strings.Contains(r.Errors[0].Message, says) {
			t.Errorf("%s: %d %.300s, want code %s saying %q", c.name, status, body, code, says)
		} else if c.want == "WEBSOCKET_REQUIRED" && !strings.Contains(r.Errors[0].Message, "websocket") {
			t.Errorf("%s: %q does not say to use a websocket", c.name, r.Errors[0].Message)
		}
	}
}

// TestWebsocketErrorsHaveCodes: mistakes made over a websocket are answered with a code
// too: a payload that is not an operation, a parse error, a subscription refused.
func TestWebsocketErrorsHaveCodes(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn := srv.dialWS(t, ctx, nil)
	initWS(t, ctx, conn, "")
	if err := wsjson.Write(ctx, conn, map[string]any{"id": "bad", "type": "subscribe", "payload": "not an operation"}); err != nil {
		t.Fatal(err)
	}
	sendOp(t, ctx, conn, "parse", `subscription{matchEvents(`, nil)
	sendOp(t, ctx, conn, "absent", `subscription{matchEvents(matchId:"nosuchmatch"){version}}`, nil)
	want := map[string]string{"bad": "BAD_REQUEST", "parse": "GRAPHQL_PARSE_FAILED", "absent": "NOT_FOUND"}
	for len(want) > 0 {
		var m wsMsg
		if err := wsjson.Read(ctx, conn, &m); err != nil {
			t.Fatalf("waiting for %v: %v", want, err)
		}
		if m.Type != "next" && m.Type != "error" {
			continue
		}
		if code := errorCode(m); code != want[m.ID] {
			t.Fatalf("operation %s answered %s %s, want code %s", m.ID, m.Type, m.Payload, want[m.ID])
		}
		delete(want, m.ID)
	}
}

// TestWebsocketEndsAtShutdown: a websocket is served on a goroutine of its own once
// upgraded (graph/wsconn.go), not on the request's; the server's shutdown still closes
// it, and the log has its upgrade and its end.
func TestWebsocketEndsAtShutdown(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "a.db"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn := s.dialWS(t, ctx, nil)
	initWS(t, ctx, conn, "")
	// Answered after the upgrade: the socket is served once its request has returned.
	if err := wsjson.Write(ctx, conn, map[string]any{"type": "ping"}); err != nil {
		t.Fatal(err)
	}
	var pong wsMsg
	if err := wsjson.Read(ctx, conn, &pong); err != nil || pong.Type != "pong" {
		t.Fatalf("ping answered %+v, %v", pong, err)
	}
	s.stop(t)
	_, _, err := conn.Read(ctx)
	if err == nil || ctx.Err() != nil {
		t.Fatalf("the websocket outlived the server's shutdown: read %v, %v", err, ctx.Err())
	}
	// The socket's goroutine logs its end once its reading has stopped, which may come
	// after the client saw the close.
	for !strings.Contains(s.stderr.String(), `msg="websocket closed" path=/graphql`) {
		select {
		case <-ctx.Done():
			t.Fatalf("the log lacks the websocket's end:\n%s", s.stderr)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if log := s.stderr.String(); !strings.Contains(log, "path=/graphql status=101") {
		t.Errorf("the log lacks the websocket's upgrade:\n%s", log)
	}
}

// TestErrorsAreCapped: an answer keeps its first 20 errors and counts the rest in one
// more, TOO_MANY_ERRORS, over POST and over a websocket alike.
func TestErrorsAreCapped(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "a.db"))
	q := "{" + aliased(25, " m%[1]d: me { id }") + " }"
	check := func(how string, errs []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	}) {
		t.Helper()
		if len(errs) != 21 || errs[0].Extensions["code"] != "UNAUTHENTICATED" || errs[20].Extensions["code"] != "TOO_MANY_ERRORS" || !strings.HasPrefix(errs[20].Message, "5 more errors") {
			t.Fatalf("%s: 25 failing fields answered %d errors: %+v", how, len(errs), errs)
		}
	}
	check("POST", s.post(t, "", q, nil).Errors)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn := s.dialWS(t, ctx, nil)
	initWS(t, ctx, conn, "")
	sendOp(t, ctx, conn, "1", q, nil)
	var m wsMsg
	if err := wsjson.Read(ctx, conn, &m); err != nil || m.Type != "next" {
		t.Fatalf("the websocket answered %+v, %v", m, err)
	}
	var r gqlResponse
	if err := json.Unmarshal(m.Payload, &r); err != nil {
		t.Fatal(err)
	}
	check("websocket", r.Errors)
}

// TestErrorsQuoteInputsShort: a refusal quotes what it refuses, and 100 aliases of a
// field quoting one variable of 900 KB were answered with 18 MB of errors, 18 times the
// request. Each message is now cut at 1 KiB, saying how much was left out.
func TestErrorsQuoteInputsShort(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "a.db"))
	q := "query($c:String){" + aliased(100, ` l%[1]d: leaderboard(key:"CHESS", after:$c){cursor}`) + " }"
	big := strings.Repeat("é", 450_000) // 900 KB, cut on a character's boundary
	body := mustJSON(map[string]any{"query": q, "variables": map[string]any{"c": big}})
	status, answer := rawRequest(t, "POST", s.url+"/graphql", "application/json", body)
	var r gqlResponse
	if err := json.Unmarshal([]byte(answer), &r); err != nil || len(r.Errors) != 21 {
		t.Fatalf("%d: %.300s, want 21 errors", status, answer)
	}
	if len(answer) > 32<<10 {
		t.Errorf("a request of %d bytes was answered with %d", len(body), len(answer))
	}
	m := r.Errors[0].Message
	if r.code() != "BAD_USER_INPUT" || !strings.HasPrefix(m, `after "éé`) || !strings.HasSuffix(m, " more bytes left out)") || len(m) > 1100 || !utf8.ValidString(m) {
		t.Errorf("the first error: %s %q", r.code(), m)
	}
}

// aliased returns n fields of a selection, each format with its index as %[1]d: the
// aliases of one field that attacks and limits are made of.
func aliased(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}
