package graph

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// idLimit refuses operations with an ID argument longer than max (engine.MaxIDBytes),
// passed directly, in a list or inside an input object, before they run: refusing it
// before any resolver keeps made-up IDs of any size out of caches, logs and store reads.
type idLimit struct {
	max    int
	schema *ast.Schema
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = &idLimit{}

func (*idLimit) ExtensionName() string { return "IDLimit" }
func (l *idLimit) Validate(s graphql.ExecutableSchema) error {
	l.schema = s.Schema()
	return nil
}

func (l *idLimit) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	w := idWalk{limit: l, vars: oc.Variables, frags: oc.Doc.Fragments, seen: map[string]bool{}}
	if err := w.selections(oc.Operation.SelectionSet); err != "" {
		return &gqlerror.Error{Message: err, Extensions: map[string]any{"code": "BAD_USER_INPUT"}}
	}
	return nil
}

// idWalk visits each field's arguments once; a fragment spread many times is read once,
// since its arguments do not depend on where it is spread.
type idWalk struct {
	limit *idLimit
	vars  map[string]any
	frags ast.FragmentDefinitionList
	seen  map[string]bool
}

func (w idWalk) selections(set ast.SelectionSet) string {
	for _, s := range set {
		var err string
		switch s := s.(type) {
		case *ast.Field:
			for _, a := range s.Arguments {
				v, _ := a.Value.Value(w.vars) // validation has checked the values
				if err = w.check(a.Name, a.Value.ExpectedType, v); err != "" {
					return err
				}
			}
			err = w.selections(s.SelectionSet)
		case *ast.InlineFragment:
			err = w.selections(s.SelectionSet)
		case *ast.FragmentSpread:
			if f := w.frags.ForName(s.Name); f != nil && !w.seen[s.Name] {
				w.seen[s.Name] = true
				err = w.selections(f.SelectionSet)
			}
		}
		if err != "" {
			return err
		}
	}
	return ""
}

// check returns what is wrong with the value v of an argument (or input field) of type t.
func (w idWalk) check(name string, t *ast.Type, v any) string {
	if t == nil || v == nil {
		return ""
	}
	if t.Elem != nil {
		list, _ := v.([]any)
		for i, x := range list {
			if err := w.check(fmt.Sprintf("%s[%d]", name, i), t.Elem, x); err != "" {
				return err
			}
		}
		return ""
	}
	if t.NamedType == "ID" {
		if s, ok := v.(string); ok && len(s) > w.limit.max {
			return fmt.Sprintf("argument %s is an ID of %d bytes; IDs are at most %d bytes long", name, len(s), w.limit.max)
		}
		return ""
	}
	def := w.limit.schema.Types[t.NamedType]
	obj, ok := v.(map[string]any)
	if def == nil || def.Kind != ast.InputObject || !ok {
		return ""
	}
	for _, f := range def.Fields {
		if err := w.check(name+"."+f.Name, f.Type, obj[f.Name]); err != "" {
			return err
		}
	}
	return ""
}
