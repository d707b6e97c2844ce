package solwaris

import (
	"strings"
	"testing"
)

// The replay's drawing shows the ground, the fighters by number, bonuses and traps (the
// tool sees every secret), and a line per fighter.
func TestDiagram(t *testing.T) {
	s := position(t, `
		1.+.
		.#^.
		...2
	`)
	want := "0.+.\n.#^.\n...1\n"
	if got := (Rules{}).Diagram(s); !strings.HasPrefix(got, want) || !strings.Contains(got, "0 seat 0 guerrier a1 HP 600/600 AP 12 MP 6") {
		t.Fatalf("the diagram:\n%s\nwant it to start with\n%s", got, want)
	}
}
