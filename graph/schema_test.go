package graph

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// The core schema names no game: each game's schema file (domain/games/<id>/*.graphqls)
// adds its value of Game, its types and its fields, and the core mentions none of them, so
// that adding or removing a game never touches it.
func TestCoreSchemaNamesNoGame(t *testing.T) {
	core, err := os.ReadFile("schema/core.graphqls")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("../domain/games/*/*.graphqls")
	if err != nil || len(files) < 3 {
		t.Fatalf("found the games' schema files %v (%v): want one per game", files, err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := parser.ParseSchema(&ast.Source{Name: f, Input: string(src)})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var names []string
		for _, d := range doc.Definitions {
			names = append(names, d.Name) // the game's own types
		}
		for _, x := range doc.Extensions {
			if x.Name == "Game" {
				for _, v := range x.EnumValues {
					names = append(names, v.Name) // the game's ID
				}
			}
		}
		if len(names) == 0 {
			t.Errorf("%s adds no type and no game", f)
		}
		for _, n := range names {
			if regexp.MustCompile(`\b` + n + `\b`).Match(core) {
				t.Errorf("the core schema names %s, which %s declares", n, f)
			}
		}
	}
}
