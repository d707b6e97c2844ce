package graph

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The resolvers read a game's state only through projections' redaction (Viewer.View,
// Viewer.Export): none of them asks a game for its state directly, where no viewer would
// be told and every secret would show.
func TestResolversReadGamesThroughRedaction(t *testing.T) {
	direct := map[string]bool{"game.Boarded": true, "game.Recorded": true, "game.Exporter": true, "game.Viewed": true, "game.Turned": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		read++
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && direct[x.Name+"."+sel.Sel.Name] {
					t.Errorf("%s names %s.%s: read the game's state through projections.Viewer", name, x.Name, sel.Sel.Name)
				}
			}
			return true
		})
	}
	if read < 5 {
		t.Fatalf("read %d files of graph", read)
	}
}
