package graph

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/graph/generated"
	"github.com/arbiter-games/arbiter/graph/graphiql"
	"github.com/arbiter-games/arbiter/graph/model"
)

// Limits protect the server from expensive requests.
type Limits struct {
	MaxBodyBytes  int64 // a request body larger than this is refused (default 1 MiB)
	MaxDepth      int   // the deepest selection allowed (default 12)
	MaxComplexity int   // gqlgen's complexity budget per operation (default 50,000)
	// RatePerSecond bounds the requests of each caller (a token, or an address without
	// one), with bursts of RateBurst (default: the rate, at least 1). 0 is no limit.
	RatePerSecond float64
	RateBurst     int
}

func (l *Limits) defaults() {
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = 1 << 20
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = 12
	}
	if l.MaxComplexity <= 0 {
		l.MaxComplexity = 50_000
	}
}

// Handler serves GraphiQL at / (its assets from the binary, under /graphiql/) and the API at /graphql: POST and GET, and subscriptions
// over websockets in both graphql-transport-ws and the legacy graphql-ws protocol.
func Handler(r *Resolver, limits Limits) http.Handler {
	limits.defaults()
	cfg := generated.Config{Resolvers: r}
	// Lists cost what they may return: a page of first items costs first times an item.
	cfg.Complexity.Query.Matches = func(child int, _ *model.MatchStatus, _ *model.Game, first *int) int {
		return listCost(child, first, 50)
	}
	cfg.Complexity.Match.Events = func(child int, _ *int, first *int) int { return listCost(child, first, 1000) }
	srv := handler.New(generated.NewExecutableSchema(cfg))
	srv.AddTransport(transport.Websocket{
		KeepAlivePingInterval: 15 * time.Second,
		InitFunc:              r.wsInit,
	})
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	srv.Use(extension.Introspection{})
	srv.Use(extension.FixedComplexityLimit(limits.MaxComplexity))
	srv.Use(depthLimit{max: limits.MaxDepth})
	srv.Use(&idLimit{max: MaxIDBytes})
	srv.SetErrorPresenter(presentError)
	srv.SetRecoverFunc(func(ctx context.Context, v any) error {
		graphql.GetOperationContext(ctx) // keep the context alive for logging
		return &gqlerror.Error{Message: "internal server error", Extensions: map[string]any{"code": "INTERNAL"}}
	})

	var limit *limiter
	if limits.RatePerSecond > 0 {
		limit = newLimiter(limits.RatePerSecond, limits.RateBurst)
	}
	mux := http.NewServeMux()
	mux.Handle("/graphql", limit.limit(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.ContentLength > limits.MaxBodyBytes {
			http.Error(w, fmt.Sprintf("the request body has %d bytes; at most %d are accepted", req.ContentLength, limits.MaxBodyBytes), http.StatusRequestEntityTooLarge)
			return
		}
		req.Body = http.MaxBytesReader(w, req.Body, limits.MaxBodyBytes)
		srv.ServeHTTP(w, withToken(req))
	})))
	ui := graphiql.Handler("/graphql")
	mux.Handle("/{$}", ui)
	mux.Handle(graphiql.Prefix, ui)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	return mux
}

// presentError gives every error an extensions.code and a readable message.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	gerr := graphql.DefaultErrorPresenter(ctx, err)
	var rej *game.Error
	if errors.As(err, &rej) {
		gerr.Message = rej.Reason
		if gerr.Extensions == nil {
			gerr.Extensions = map[string]any{}
		}
		gerr.Extensions["code"] = string(rej.Code)
		return gerr
	}
	if gerr.Extensions == nil || gerr.Extensions["code"] == nil {
		if gerr.Extensions == nil {
			gerr.Extensions = map[string]any{}
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			gerr.Extensions["code"] = "TIMEOUT"
		} else {
			gerr.Extensions["code"] = "INTERNAL"
		}
	}
	return gerr
}

// depthLimit refuses operations nested deeper than max, before they run.
type depthLimit struct{ max int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = depthLimit{}

func (depthLimit) ExtensionName() string                   { return "DepthLimit" }
func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }
func (d depthLimit) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	if depth := selectionDepth(oc.Operation.SelectionSet, oc.Doc.Fragments, 0); depth > d.max {
		return &gqlerror.Error{
			Message:    "the operation is nested " + itoa(depth) + " levels deep; at most " + itoa(d.max) + " are allowed",
			Extensions: map[string]any{"code": "BAD_USER_INPUT"},
		}
	}
	return nil
}

func selectionDepth(set ast.SelectionSet, frags ast.FragmentDefinitionList, seen int) int {
	if seen > 64 { // fragment cycles are rejected by validation; this only bounds the walk
		return seen
	}
	max := 0
	for _, s := range set {
		var d int
		switch s := s.(type) {
		case *ast.Field:
			if len(s.SelectionSet) == 0 {
				d = 1
			} else {
				d = 1 + selectionDepth(s.SelectionSet, frags, seen+1)
			}
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, frags, seen+1)
		case *ast.FragmentSpread:
			if f := frags.ForName(s.Name); f != nil {
				d = selectionDepth(f.SelectionSet, frags, seen+1)
			}
		}
		if d > max {
			max = d
		}
	}
	return max
}

func listCost(child int, first *int, def int) int {
	n := def
	if first != nil && *first > 0 {
		n = *first
	}
	return 1 + n*max(child, 1)
}

func itoa(n int) string { return fmt.Sprint(n) }
