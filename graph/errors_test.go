package graph

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// TestACallerWhoLeftIsNotAFailure: a query's fields cut short because their caller went
// away (its socket closed, its subscription completed) were each logged at error level as
// a failure of the server, so a client could fill the log by hanging up mid-answer.
// They are told TIMEOUT and logged at debug level; a cancellation that is not the
// caller's, a deadline, and a mutation cut short (its outcome unknown) are still failures.
func TestACallerWhoLeftIsNotAFailure(t *testing.T) {
	left, cancel := context.WithCancel(context.Background())
	cancel()
	expired, stop := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer stop()
	mutation := graphql.WithOperationContext(left, &graphql.OperationContext{Operation: &ast.OperationDefinition{Operation: ast.Mutation}})
	query := graphql.WithOperationContext(left, &graphql.OperationContext{Operation: &ast.OperationDefinition{Operation: ast.Query}})
	for _, c := range []struct {
		name   string
		ctx    context.Context
		err    error
		code   string
		logged bool
	}{
		{"a query whose caller left", query, fmt.Errorf("reading the match: %w", context.Canceled), CodeTimeout, false},
		{"a field of no operation whose caller left", left, context.Canceled, CodeTimeout, false},
		{"a cancellation not the caller's", context.Background(), context.Canceled, CodeTimeout, true},
		{"a deadline", expired, context.DeadlineExceeded, CodeTimeout, true},
		{"a mutation whose caller left", mutation, context.Canceled, CodeUnknownOutcome, true},
	} {
		var out bytes.Buffer
		log := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelError}))
		gerr := presentError(log)(c.ctx, c.err)
		if gerr.Extensions["code"] != c.code {
			t.Errorf("%s: code %v, want %s", c.name, gerr.Extensions["code"], c.code)
		}
		if logged := strings.Contains(out.String(), "level=ERROR"); logged != c.logged {
			t.Errorf("%s: logged at error level %v, want %v: %q", c.name, logged, c.logged, out.String())
		}
	}
}
