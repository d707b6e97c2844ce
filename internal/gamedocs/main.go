// Command gamedocs writes the parts of the game pages in docs/games that come from the
// games' embedded data (the UnfairChess card catalog, the Solwaris classes), between
// marker lines, so that the pages can never say something the server does not. Its test
// fails when a committed page differs from what it would write.
//
//	go run ./internal/gamedocs            # from the repository root
//
// It is not a go:generate step on purpose: CI runs `go generate ./...` before the tests,
// which would rewrite a stale page just before the test that must catch it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dir := flag.String("docs", "docs/games", "the folder of the game pages")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "gamedocs:", err)
		os.Exit(1)
	}
}

// run rewrites every generated section of the pages in dir.
func run(dir string) error {
	for _, s := range sections() {
		path := filepath.Join(dir, s.page)
		doc, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out, err := splice(string(doc), s.name, s.body())
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if out != string(doc) {
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
