package graph

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// operationGate admits an operation by how it came: over a websocket each one takes a
// token of its caller's rate; over HTTP a subscription is refused (it needs a socket) and
// so is a mutation over GET.
type operationGate struct{ limit *limiter }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = operationGate{}

func (operationGate) ExtensionName() string                   { return "OperationGate" }
func (operationGate) Validate(graphql.ExecutableSchema) error { return nil }
func (g operationGate) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	c := callerOf(ctx)
	if c == nil || oc.Operation == nil {
		return nil
	}
	if c.ws {
		if g.limit != nil {
			if ok, wait := g.limit.take(c.rateKey()); !ok {
				return g.limit.refusal(wait)
			}
		}
		return nil
	}
	switch {
	case oc.Operation.Operation == ast.Subscription:
		return &gqlerror.Error{
			Message:    "a subscription needs a websocket: open ws://<host>/graphql with the subprotocol graphql-transport-ws (or graphql-ws) and send it there",
			Extensions: map[string]any{"code": "WEBSOCKET_REQUIRED"},
		}
	case oc.Operation.Operation == ast.Mutation && c.method != "POST":
		return &gqlerror.Error{Message: "send mutations with POST", Extensions: map[string]any{"code": "BAD_REQUEST"}}
	}
	return nil
}

// shapeLimit refuses, before they run, operations nested deeper than depth or with more
// aliases or directives than allowed, or that ask for the schema (__schema) more than
// once, fragments counted each time they are spread.
type shapeLimit struct{ depth, aliases, directives int }

// maxSchemas is how often one operation may ask for __schema. Its fields cost nothing
// in the complexity, yet one of them walks every type of the schema: 100 aliases of
// __schema{types{fields{args{type{name}} type{fields{name}}}}} took 5 s of the server's
// CPU to answer 3 MB, from a request of 10 KB. A client needs the schema once.
const maxSchemas = 1

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = shapeLimit{}

func (shapeLimit) ExtensionName() string                   { return "ShapeLimit" }
func (shapeLimit) Validate(graphql.ExecutableSchema) error { return nil }
func (l shapeLimit) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	w := shapeWalk{frags: oc.Doc.Fragments, memo: map[string]shape{}}
	s := w.set(oc.Operation.SelectionSet, 0)
	s.directives += len(oc.Operation.Directives)
	refuse := func(what string, n, most int) *gqlerror.Error {
		return &gqlerror.Error{
			Message:    fmt.Sprintf("the operation has %d %s; at most %d are allowed", n, what, most),
			Extensions: map[string]any{"code": "COMPLEXITY_LIMIT_EXCEEDED"},
		}
	}
	switch {
	case s.depth > l.depth:
		return &gqlerror.Error{
			Message:    fmt.Sprintf("the operation is nested %d levels deep; at most %d are allowed", s.depth, l.depth),
			Extensions: map[string]any{"code": "BAD_USER_INPUT"},
		}
	case s.aliases > l.aliases:
		return refuse("aliased fields", s.aliases, l.aliases)
	case s.directives > l.directives:
		return refuse("directives", s.directives, l.directives)
	case s.schemas > maxSchemas:
		return refuse("__schema fields", s.schemas, maxSchemas)
	}
	return nil
}

// shape is what a selection set adds up to. Counts saturate, so that a fragment spread
// many times over cannot overflow them.
type shape struct{ depth, aliases, directives, schemas int }

const saturated = 1 << 30

func (s *shape) add(o shape) {
	s.depth = max(s.depth, o.depth)
	s.aliases = min(saturated, s.aliases+o.aliases)
	s.directives = min(saturated, s.directives+o.directives)
	s.schemas = min(saturated, s.schemas+o.schemas)
}

// shapeWalk measures each fragment once: spreading one twice counts it twice without
// walking it twice, so nested spreads cannot make the walk itself explode.
type shapeWalk struct {
	frags ast.FragmentDefinitionList
	memo  map[string]shape
}

func (w shapeWalk) set(set ast.SelectionSet, level int) shape {
	var out shape
	if level > 64 { // fragment cycles are refused by validation; this only bounds the walk
		return shape{depth: level}
	}
	for _, sel := range set {
		var s shape
		switch sel := sel.(type) {
		case *ast.Field:
			s = w.set(sel.SelectionSet, level+1)
			// Introspection's ofType unwraps a list or non-null type: a chain of single
			// objects as long as the schema's wrappers, which GraphiQL asks eight deep. It
			// multiplies nothing, so it does not count as depth.
			if sel.Name != "ofType" {
				s.depth++
			}
			if sel.Alias != "" && sel.Alias != sel.Name {
				s.aliases++
			}
			s.directives += len(sel.Directives)
			if sel.Name == "__schema" {
				s.schemas++
			}
		case *ast.InlineFragment:
			s = w.set(sel.SelectionSet, level+1)
			s.directives += len(sel.Directives)
		case *ast.FragmentSpread:
			f, seen := w.memo[sel.Name]
			if !seen {
				if def := w.frags.ForName(sel.Name); def != nil {
					f = w.set(def.SelectionSet, level+1)
					f.directives += len(def.Directives)
				}
				w.memo[sel.Name] = f
			}
			s = f
			s.directives += len(sel.Directives)
		}
		out.add(s)
	}
	return out
}

// errorCap keeps the first max errors of an answer and counts the rest in one more, so
// that a request made of mistakes cannot make a large answer.
//
// Its InterceptResponse stays on the stack of every subscription's goroutine while it
// waits for the next answer, so it is kept small: a pointer receiver (no wrapper frame
// from the interface) and the capping in a function of its own. With it, that goroutine
// parks shallow enough for the runtime to shrink its stack from 8 to 4 KiB
// (docs/benchmarks.md, issue 11's memory per connection).
type errorCap struct{ max int }

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = (*errorCap)(nil)

func (*errorCap) ExtensionName() string                   { return "ErrorCap" }
func (*errorCap) Validate(graphql.ExecutableSchema) error { return nil }
func (e *errorCap) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp != nil && len(resp.Errors) > e.max {
		e.capErrors(resp)
	}
	return resp
}

// capErrors is not inlined: its locals would widen InterceptResponse's frame.
//
//go:noinline
func (e *errorCap) capErrors(resp *graphql.Response) {
	more := len(resp.Errors) - e.max
	resp.Errors = append(resp.Errors[:e.max:e.max], &gqlerror.Error{
		Message:    fmt.Sprintf("%d more errors left out: at most %d are shown", more, e.max),
		Extensions: map[string]any{"code": "TOO_MANY_ERRORS"},
	})
}

// maxMatchOptions bounds the options of createMatch: the most a game reads is a handful
// (Ajedrez Mágico's six, with the match's stake, training and spectatorDelay), and a
// longer list is refused before it is read into a map.
const maxMatchOptions = 16
