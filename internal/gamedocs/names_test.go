package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goNames is the Go code that the docs may name: by package name (the last element of
// its path: "game", "match"...), its exported declarations, each with the methods, fields
// and interface methods it has. Several packages with one name pool their declarations.
type goNames map[string]map[string]map[string]bool

// loadGoNames reads every non-test Go file of the module under root.
func loadGoNames(t *testing.T) goNames {
	t.Helper()
	names := goNames{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := filepath.Base(filepath.Dir(p))
		if names[pkg] == nil {
			names[pkg] = map[string]map[string]bool{}
		}
		decls := names[pkg]
		member := func(typ, name string) {
			if decls[typ] == nil {
				decls[typ] = map[string]bool{}
			}
			if name != "" {
				decls[typ][name] = true
			}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					member(d.Name.Name, "")
					continue
				}
				recv := d.Recv.List[0].Type
				if s, ok := recv.(*ast.StarExpr); ok {
					recv = s.X
				}
				if ix, ok := recv.(*ast.IndexExpr); ok {
					recv = ix.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					member(id.Name, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						member(s.Name.Name, "")
						var fields *ast.FieldList
						switch ty := s.Type.(type) {
						case *ast.StructType:
							fields = ty.Fields
						case *ast.InterfaceType:
							fields = ty.Methods
						}
						if fields != nil {
							for _, f := range fields.List {
								for _, n := range f.Names {
									member(s.Name.Name, n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							member(n.Name, "")
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// codeSpan is an inline code span of Markdown; goRef is a qualified Go name inside one:
// package.Name, or package.Type.Member.
var (
	codeSpan = regexp.MustCompile("`[^`\n]+`")
	goRef    = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.([A-Z][A-Za-z0-9]*)(?:\.([A-Z][A-Za-z0-9]*))?`)
)

// TestDocsNameGoThatExists: every qualified Go name that README.md or a page of docs/ shows
// in code (`game.Rules`, `match.Settlement`, `game.Viewed.View`) is declared in the package
// of that name, so that no page describes code that is not there, or no longer is.
// A name qualified by something that is not a package of the module is not checked.
func TestDocsNameGoThatExists(t *testing.T) {
	names := loadGoNames(t)
	for _, pkg := range []string{"game", "match", "wallet", "engine", "projections"} {
		if len(names[pkg]) == 0 {
			t.Fatalf("found no declarations in package %s: the scan reads nothing", pkg)
		}
	}
	checked := 0
	for _, rel := range docs(t) {
		doc := readDoc(t, rel)
		for _, span := range codeSpan.FindAllString(doc, -1) {
			for _, m := range goRef.FindAllStringSubmatch(span, -1) {
				decls, ok := names[m[1]]
				if !ok {
					continue
				}
				checked++
				members, ok := decls[m[2]]
				switch {
				case !ok:
					t.Errorf("%s names %s.%s, which package %s does not declare", rel, m[1], m[2], m[1])
				case m[3] != "" && !members[m[3]]:
					t.Errorf("%s names %s, but %s.%s has no method or field %s", rel, m[0], m[1], m[2], m[3])
				}
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d qualified names checked in the docs: the pattern no longer finds them", checked)
	}
}

// TestDocsNameGoCatchesAStaleName runs the check's parts on a name that does not exist.
func TestDocsNameGoCatchesAStaleName(t *testing.T) {
	names := loadGoNames(t)
	if names["game"]["Rules"] == nil || !names["game"]["Rules"]["Decide"] {
		t.Fatal("game.Rules.Decide is not found: the scan misses interface methods")
	}
	if _, ok := names["game"]["NoSuchThing"]; ok {
		t.Fatal("game.NoSuchThing is found")
	}
	if m := goRef.FindStringSubmatch("see `match.Join{PlayerID}`"); m == nil || m[1] != "match" || m[2] != "Join" {
		t.Fatalf("goRef read %q", m)
	}
}
