package graph

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// Ten thousand spectators subscribe with the same text: each must not keep its own parsed
// copy of it for as long as it watches.
func TestSameOperationTextSharesOneDocument(t *testing.T) {
	limits := Limits{}
	limits.defaults()
	srv := newExecutor(&Resolver{limits: limits}, limits, nil)
	var docs []*ast.QueryDocument
	srv.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		docs = append(docs, graphql.GetOperationContext(ctx).Doc)
		return next(ctx)
	})
	post := func(query string) {
		t.Helper()
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":"`+query+`"}`))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"Query"`) {
			t.Fatalf("%s: %d %s", query, rec.Code, rec.Body)
		}
	}
	post("{ __typename }")
	post("{ __typename }")
	post("{ t: __typename }")
	if len(docs) != 3 {
		t.Fatalf("%d operations seen, want 3", len(docs))
	}
	if docs[0] != docs[1] {
		t.Error("the same operation text was parsed twice: each subscriber would hold its own document")
	}
	if docs[0] == docs[2] {
		t.Error("two different operation texts share a document")
	}
}
