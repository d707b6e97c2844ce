package graph

import (
	"os"
	"regexp"
	"testing"

	"github.com/arbiter-games/arbiter/graph/generated"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

var graphqlBlock = regexp.MustCompile("(?s)```graphql\n(.*?)```")

// Every operation the README shows must stay valid against the schema: a field renamed or
// moved to a game's file without its deprecated alias fails here before a client does.
func TestReadmeOperationsValidate(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	schema := generated.NewExecutableSchema(generated.Config{Resolvers: &Resolver{}}).Schema()
	blocks := graphqlBlock.FindAllStringSubmatch(string(readme), -1)
	n := 0
	for _, b := range blocks {
		doc, err := parser.ParseQuery(&ast.Source{Name: "README.md", Input: b[1]})
		if err != nil {
			t.Errorf("README's block does not parse: %v\n%s", err, b[1])
			continue
		}
		for _, op := range doc.Operations {
			one := &ast.QueryDocument{Operations: ast.OperationList{op}, Fragments: doc.Fragments}
			for _, e := range validator.ValidateWithRules(schema, one, nil) {
				t.Errorf("README: %v, in\n%s", e.Message, b[1])
			}
			n++
		}
	}
	if n < 20 {
		t.Errorf("found %d operations in the README's graphql blocks: the pattern no longer finds them", n)
	}
}
