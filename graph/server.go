package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"time"

	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/graph/generated"
	"github.com/arbiter-games/arbiter/graph/graphiql"
	"github.com/arbiter-games/arbiter/graph/model"
	"github.com/arbiter-games/arbiter/web"
)

// Limits protect the server from expensive requests and from clients that hold on.
type Limits struct {
	MaxBodyBytes  int64 // a request body larger than this is refused (default 1 MiB)
	MaxDepth      int   // the deepest selection allowed (default 12)
	MaxComplexity int   // the cost budget of one operation (default 50,000; see Handler)
	MaxTokens     int   // the lexical tokens of one query document (default 10,000)
	MaxAliases    int   // aliased fields in one operation, fragments expanded (default 100)
	MaxDirectives int   // directives in one operation, fragments expanded (default 100)
	MaxErrors     int   // errors in one answer; the rest are counted in one more (default 20)
	// RatePerSecond bounds the requests of each caller (a player, or an address without a
	// valid token), with bursts of RateBurst (default: the rate, at least 1); each
	// operation over a websocket counts as a request. 0 is no limit.
	RatePerSecond float64
	RateBurst     int
	// SubscriptionsPerConn caps the live subscriptions of one websocket (default 100).
	SubscriptionsPerConn int
	// WebsocketsPerPlayer caps the websockets one player holds open at once on a node
	// (default 8); WebsocketsPerAddress those without a token from one address (an IPv6
	// address's /64), and apart from them those from it awaiting their connection_init
	// (default 32). The next is refused, with close code 1013 (wscap.go).
	WebsocketsPerPlayer  int
	WebsocketsPerAddress int
	// WSInitTimeout closes a websocket that sends no connection_init in time (default 10 s).
	WSInitTimeout time.Duration
	// SlowConsumerAfter ends a subscription whose outgoing buffer stayed full this long
	// (default 10 s): it is told the version to resume after.
	SlowConsumerAfter time.Duration
	// WSWriteTimeout closes a websocket on which one message could not be written in this
	// long (default 30 s): a client that stopped reading.
	WSWriteTimeout time.Duration
	// AllowOrigins lists the browser origins (scheme://host[:port]) that may call the API
	// from another origin, over HTTP (CORS) and websockets; "*" allows every origin.
	// Empty: only same-origin pages and clients that send no Origin.
	AllowOrigins []string
	// Log receives the server's warnings; nil is slog.Default().
	Log *slog.Logger
	// RegistrationsPerHour bounds the players registered from one address in any hour
	// (registerPlayer; 0 is no limit).
	RegistrationsPerHour int
}

func (l *Limits) defaults() {
	set := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = 1 << 20
	}
	set(&l.MaxDepth, 12)
	set(&l.MaxComplexity, 50_000)
	set(&l.MaxTokens, 10_000)
	set(&l.MaxAliases, 100)
	set(&l.MaxDirectives, 100)
	set(&l.MaxErrors, 20)
	set(&l.SubscriptionsPerConn, 100)
	set(&l.WebsocketsPerPlayer, 8)
	set(&l.WebsocketsPerAddress, 32)
	setDuration := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	setDuration(&l.WSInitTimeout, 10*time.Second)
	setDuration(&l.SlowConsumerAfter, 10*time.Second)
	setDuration(&l.WSWriteTimeout, 30*time.Second)
	if l.Log == nil {
		l.Log = slog.Default()
	}
}

// What fields cost beyond their children: a board and a hand run the game's move
// generation (a Royale board is about a millisecond), and a state is the game's whole view,
// board and hand; a PGN replays the moves. Lists cost
// what they may return: a page of first items costs first times an item.
const (
	boardCost = 500
	handCost  = 500
	pgnCost   = 50
	movesCost = 10
	cardsCost = 10
)

// queryCacheSize is how many distinct operation texts keep their parsed documents: the
// clients' and tools' few dozen, with room; an operation's size is bounded by MaxTokens.
const queryCacheSize = 256

// newExecutor is the GraphQL part of Handler: gqlgen's server with its transports, limits
// and error presentation.
func newExecutor(r *Resolver, limits Limits, limit *limiter) *handler.Server {
	cfg := generated.Config{Resolvers: r}
	cfg.Complexity.Query.Matches = func(child int, _ *model.MatchStatus, _ *model.Game, _ *string, first *int, _ *string) int {
		return listCost(child, first, matchesPage)
	}
	cfg.Complexity.Match.Events = func(child int, _ *int, first *int) int { return listCost(child, first, eventsPage) }
	cfg.Complexity.Query.Leaderboard = func(child int, _ string, first *int, _ *string) int {
		return listCost(child, first, leaderboardPage)
	}
	cfg.Complexity.Match.Board = func(child int) int { return boardCost + child }
	cfg.Complexity.Match.State = func(child int) int { return boardCost + handCost + child }
	cfg.Complexity.Match.Hand = func(child int) int { return handCost + 4*child }
	cfg.Complexity.Match.Pgn = func(child int) int { return pgnCost + child }
	cfg.Complexity.Match.Moves = func(child int) int { return movesCost + child }
	cfg.Complexity.Match.Cards = func(child int) int { return cardsCost + 4*child }

	schema := generated.NewExecutableSchema(cfg)
	srv := handler.New(schema)
	// Every spectator of a match subscribes with the same text: parse and validate it once
	// and share the document (read-only to gqlgen and to the extensions below), instead of
	// keeping a copy per subscription for the subscription's whole life.
	srv.SetQueryCache(lru.New[*ast.QueryDocument](queryCacheSize))
	srv.AddTransport(newWSTransport(limits, hideInitFailure(limits.Log, r.wsInit), &r.sockets))
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	srv.SetParserTokenLimit(limits.MaxTokens)
	srv.Use(extension.Introspection{})
	srv.Use(&idLimit{max: engine.MaxIDBytes})
	srv.Use(operationGate{limit: limit})
	srv.Use(shapeLimit{depth: limits.MaxDepth, aliases: limits.MaxAliases, directives: limits.MaxDirectives})
	srv.Use(extension.FixedComplexityLimit(limits.MaxComplexity))
	srv.Use(&errorCap{max: limits.MaxErrors})
	srv.SetErrorPresenter(presentError(limits.Log))
	srv.SetRecoverFunc(recoverPanic)

	// The live groups run operations each member's subscribe already admitted.
	group := executor.New(schema)
	group.SetErrorPresenter(presentError(limits.Log))
	group.SetRecoverFunc(recoverPanic)
	r.live = newLiveGroups(group, limits.WSWriteTimeout)
	r.delayed = newBuildCache[string, delayedEntry](maxDelayedViews)
	r.logs = newBuildCache[logKey, *matchLog](maxLogs)
	return srv
}

// Handler serves the web client at / (package web, its files under /web/), GraphiQL at
// /graphiql/ (its assets from the binary) and the API at /graphql: POST and GET, and subscriptions
// over websockets in both graphql-transport-ws and the legacy graphql-ws protocol; and a
// match's exports at /matches/{id}.pgn and /matches/{id}.ndjson.
func Handler(r *Resolver, limits Limits) http.Handler {
	limits.defaults()
	r.limits = limits
	var limit *limiter
	if limits.RatePerSecond > 0 {
		limit = newLimiter(limits.RatePerSecond, limits.RateBurst)
	}
	srv := newExecutor(r, limits, limit)

	origins := newOrigins(limits.AllowOrigins)
	r.signups = newSignups(limits.RegistrationsPerHour, time.Hour)
	mux := http.NewServeMux()
	mux.Handle("/graphql", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if !origins.admit(w, req) {
			return
		}
		upgrade := req.Header.Get("Upgrade") != ""
		if !upgrade && req.Method != http.MethodGet && req.Method != http.MethodPost {
			w.Header().Set("Allow", "GET, POST, OPTIONS")
			writeError(w, http.StatusMethodNotAllowed, "BAD_REQUEST", req.Method+" is not served here: send queries and mutations with POST (queries also with GET), subscriptions over a websocket")
			return
		}
		req = r.identify(req)
		if limit != nil {
			if ok, wait := limit.take(callerOf(req.Context()).rateKey()); !ok {
				limit.refuse(w, wait)
				return
			}
		}
		if upgrade {
			// A websocket lives past the server's read and write timeouts, which are for
			// requests; its own are the init, write and slow-consumer limits.
			rc := http.NewResponseController(w)
			_ = rc.SetReadDeadline(time.Time{})
			_ = rc.SetWriteDeadline(time.Time{})
			srv.ServeHTTP(w, req) // the websocket transport (wsconn.go) takes the connection over
			return
		}
		if req.Method == http.MethodPost {
			body, ok := readBody(w, req, limits.MaxBodyBytes)
			if !ok {
				return
			}
			req.Body = io.NopCloser(bytes.NewReader(body))
		} else if msg := paramsShape(req.URL.Query()); msg != "" {
			writeError(w, http.StatusBadRequest, "BAD_REQUEST", msg)
			return
		}
		srv.ServeHTTP(w, req)
	}))
	mux.Handle(graphiql.Prefix, graphiql.Handler("/graphql"))
	client := web.Handler()
	mux.Handle("/{$}", client)
	mux.Handle(web.Prefix, client)
	mux.Handle("GET /matches/{file}", r.exports(limit)) // {id}.pgn and {id}.ndjson: docs/exports.md
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	return mux
}

// readBody reads a POST's JSON body whole, refusing what is not JSON or is too large with
// an answer of its own.
func readBody(w http.ResponseWriter, req *http.Request, maxBytes int64) ([]byte, bool) {
	if mt, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type")); mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "BAD_REQUEST", "send the request as Content-Type: application/json, with a body {\"query\": ..., \"variables\": ...}")
		return nil, false
	}
	if req.ContentLength > maxBytes {
		writeError(w, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE", fmt.Sprintf("the request body has %d bytes; at most %d are accepted", req.ContentLength, maxBytes))
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, maxBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE", fmt.Sprintf("the request body has more than %d bytes, the most accepted", maxBytes))
		return nil, false
	case err != nil:
		writeError(w, http.StatusBadRequest, "BAD_REQUEST", "reading the request body: "+err.Error())
		return nil, false
	case !json.Valid(body):
		writeError(w, http.StatusBadRequest, "BAD_REQUEST", "the request body is not JSON: send {\"query\": ..., \"variables\": ...}")
		return nil, false
	}
	if msg := bodyShape(body); msg != "" {
		writeError(w, http.StatusBadRequest, "BAD_REQUEST", msg)
		return nil, false
	}
	return body, true
}

// requestFields are the members of a GraphQL request and the JSON each must be: gqlgen
// fails to decode a body of any other shape and answers it as a failure of the server
// (INTERNAL, logged at error level), which would let anyone fill the error log.
var requestFields = []struct{ name, kind string }{
	{"query", "string"}, {"operationName", "string"}, {"variables", "object"}, {"extensions", "object"},
}

// bodyShape names what is wrong with the shape of a POST's JSON body, or returns "".
func bodyShape(body []byte) string {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		if bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
			return "the request body is a list: batched requests are not served, send one operation per request as {\"query\": ..., \"variables\": ...}"
		}
		return "the request body is not a JSON object: send {\"query\": ..., \"variables\": ...}"
	}
	for _, f := range requestFields {
		if msg := fieldShape(f.name, f.kind, fields[f.name]); msg != "" {
			return msg
		}
	}
	return ""
}

// paramsShape names what is wrong with the JSON parameters of a GET, or returns "".
func paramsShape(q url.Values) string {
	for _, f := range requestFields {
		if v := q.Get(f.name); v != "" && f.kind == "object" {
			if msg := fieldShape(f.name, f.kind, json.RawMessage(v)); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// fieldShape names what is wrong with the member name of a request, which must be null
// (or absent) or JSON of this kind, or returns "".
func fieldShape(name, kind string, raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	first := map[string]byte{"string": '"', "object": '{'}[kind]
	if raw[0] != first || !json.Valid(raw) {
		return fmt.Sprintf("%s must be a JSON %s, not %.40s", name, kind, raw)
	}
	return ""
}

// writeError answers an HTTP request with one GraphQL error of this code.
func writeError(w http.ResponseWriter, status int, code, message string) {
	writeGraphQLError(w, status, &gqlerror.Error{Message: message, Extensions: map[string]any{"code": code}})
}

// writeGraphQLError answers an HTTP request with one GraphQL error.
func writeGraphQLError(w http.ResponseWriter, status int, e *gqlerror.Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []*gqlerror.Error{e}})
}

func listCost(child int, first *int, def int) int {
	n := def
	if first != nil && *first >= 0 {
		n = *first
	}
	return 1 + n*max(child, 1)
}
