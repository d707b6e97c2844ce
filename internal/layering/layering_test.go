package layering

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/arbiter-games/arbiter"

// A rule forbids the packages under From to depend, directly or through other packages,
// on any package under one of Never. Paths are relative to the module; a path stands for
// itself and every package below it, and "." for every package of the module.
type rule struct {
	From  string
	Never []string
	Why   string
}

var rules = []rule{
	{
		From:  "domain",
		Never: []string{"engine", "eventstore", "graph", "projections", "bus", "bot", "replay", "serverkey", "metrics", "cmd"},
		Why:   "domain is the pure, deterministic rules: no store, no engine, no API, no I/O",
	},
	{
		From:  "eventstore",
		Never: []string{"domain/games", "engine", "projections", "graph", "bus", "bot", "replay"},
		Why:   "the store keeps events of any game as opaque data; it knows no game and no layer above it",
	},
	{
		From:  "engine",
		Never: []string{"graph"},
		Why:   "the engine decides commands for any caller; the GraphQL API is one caller among others",
	},
	{
		From:  "projections",
		Never: []string{"graph"},
		Why:   "the read side serves the API; the API depends on it, not the other way round",
	},
	{
		From:  "projections",
		Never: []string{"engine"},
		Why:   "the read side folds a match through domain/match and matchstream, as the engine does, without the write side",
	},
	{
		From:  "settlement",
		Never: []string{"graph", "bot"},
		Why:   "the settlement process acts through the engine for any node, API or not; the API shows what it did, not the other way round",
	},
	{
		From:  "replay",
		Never: []string{"engine"},
		Why:   "replay and verify read the store and fold through domain/match; they must work on a store no engine runs on",
	},
	{
		From:  ".",
		Never: []string{"domain/game/gametest", "internal/tollgame", "internal/pgtest"},
		Why:   "test kits (the games' conformance suite and its toy game, a game that charges coins, a PostgreSQL schema per test) are for tests only",
	},
	{
		From:  "bot",
		Never: []string{"domain/games"},
		Why:   "the bot plays any game through its views and legal actions, never through one game's code",
	},
}

// exempt lists packages that may break a rule, with the reason. Test kits belong here:
// they are imported by tests only, never by the code that ships.
var exempt = map[string]string{
	"domain/game/gametest": "the conformance suite for games drives each game through the engine on the in-memory store; only tests import it",
	"replay/playout":       "fills a store with played matches through the engine, for benchmarks, load tests and tests",
}

// pkg is what `go list -json` says of one package, as far as the rules need.
type pkg struct {
	ImportPath string
	Imports    []string
	Standard   bool
	Error      *struct{ Err string }
}

// under reports whether the module-relative path p is prefix or below it.
func under(p, prefix string) bool {
	return prefix == "." || p == prefix || strings.HasPrefix(p, prefix+"/")
}

// listModule returns the module's packages (module-relative paths) and their direct
// imports within the module, as `go list` sees them for the current build.
func listModule(t *testing.T) map[string][]string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list the packages: %v", err)
	}
	cmd := exec.CommandContext(t.Context(), goTool, "list", "-e", "-deps", "-json=ImportPath,Imports,Standard,Error", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	graph := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("reading go list's output: %v", err)
		}
		rel, ok := relative(p.ImportPath)
		if p.Standard || !ok {
			continue
		}
		if p.Error != nil {
			t.Fatalf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		var imports []string
		for _, imp := range p.Imports {
			if r, ok := relative(imp); ok {
				imports = append(imports, r)
			}
		}
		graph[rel] = imports
	}
	return graph
}

// relative returns path relative to the module, and whether it is in the module.
func relative(path string) (string, bool) {
	if rest, ok := strings.CutPrefix(path, module+"/"); ok {
		return rest, true
	}
	return "", false
}

// chain returns a shortest import chain from p to a package under one of forbidden,
// or nil when there is none.
func chain(graph map[string][]string, p string, forbidden []string) []string {
	prev := map[string]string{p: ""}
	queue := []string{p}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, imp := range graph[cur] {
			if _, seen := prev[imp]; seen {
				continue
			}
			prev[imp] = cur
			if slices.ContainsFunc(forbidden, func(f string) bool { return under(imp, f) }) {
				path := []string{imp}
				for at := cur; at != ""; at = prev[at] {
					path = append(path, at)
				}
				slices.Reverse(path)
				return path
			}
			queue = append(queue, imp)
		}
	}
	return nil
}

// violations checks every rule over graph and returns one message per package that breaks
// one, naming the import chain and the rule.
func violations(graph map[string][]string) []string {
	var found []string
	for _, r := range rules {
		for p := range graph {
			if !under(p, r.From) {
				continue
			}
			if _, ok := exempt[p]; ok {
				continue
			}
			if c := chain(graph, p, r.Never); c != nil {
				from := r.From
				if from == "." {
					from = "the code that ships"
				}
				found = append(found, fmt.Sprintf("%s imports %s (%s), across the layering: %s never imports %s (%s)",
					p, c[len(c)-1], strings.Join(c, " → "), from, strings.Join(r.Never, ", "), r.Why))
			}
		}
	}
	slices.Sort(found)
	return found
}

// TestLayering fails when a package of the module imports, directly or through another
// package, one that its layer may not. Only the code that ships is checked: a test may
// drive a package from outside, as cmd/arbiter does.
func TestLayering(t *testing.T) {
	graph := listModule(t)
	for _, want := range []string{"domain/game", "engine", "eventstore", "projections", "graph", "bot"} {
		if _, ok := graph[want]; !ok {
			t.Fatalf("go list did not list %s: the rules would check nothing", want)
		}
	}
	for p := range exempt {
		if _, ok := graph[p]; !ok {
			t.Errorf("exempt package %s does not exist: remove it from exempt", p)
		}
	}
	for _, v := range violations(graph) {
		t.Error(v)
	}
}

// TestLayeringCatchesACrossing runs the same check on made-up graphs: a direct and an
// indirect crossing are both reported with their chain, an exempt package is not.
func TestLayeringCatchesACrossing(t *testing.T) {
	graph := map[string][]string{
		"domain/match":         {"domain/game", "domain/helper"},
		"domain/helper":        {"engine"},
		"domain/game":          nil,
		"domain/game/gametest": {"engine", "eventstore/memstore"},
		"engine":               {"domain/game", "eventstore"},
		"eventstore":           nil,
		"eventstore/memstore":  {"eventstore"},
		"eventstore/sqlite":    {"eventstore", "domain/games/classic"},
		"domain/games/classic": {"domain/game"},
		"projections":          {"engine"},
		"bot":                  {"projections"},
		"cmd/arbiter":          {"bot", "domain/game/gametest"},
	}
	got := violations(graph)
	want := []string{
		`cmd/arbiter imports domain/game/gametest (cmd/arbiter → domain/game/gametest)`,
		`domain/helper imports engine (domain/helper → engine)`,
		`domain/match imports engine (domain/match → domain/helper → engine)`,
		`eventstore/sqlite imports domain/games/classic (eventstore/sqlite → domain/games/classic)`,
		`projections imports engine (projections → engine)`,
	}
	for _, v := range got {
		t.Log(v)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d violations, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("violation %d is\n\t%s\nwant it to start with\n\t%s", i, got[i], want[i])
		}
	}
}
