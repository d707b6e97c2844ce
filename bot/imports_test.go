package bot

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

// The bot knows games only through their views (game.View.Plays): neither it nor anything
// it builds on may import a game or a game's core. A bot that reads a game's notation
// itself would learn what the game's view leaves out.
func TestTheBotImportsNoGame(t *testing.T) {
	const module = "github.com/arbiter-games/arbiter/"
	forbidden := []string{module + "domain/games", module + "domain/chess", module + "domain/sovereign"}
	seen := map[string]string{} // package -> the package that imports it
	queue := []string{module + "bot"}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		pkg, err := build.Default.ImportDir(filepath.Join("..", strings.TrimPrefix(path, module)), 0)
		if err != nil {
			t.Fatalf("reading %s: %v", path, err)
		}
		for _, imp := range pkg.Imports {
			if !strings.HasPrefix(imp, module) || seen[imp] != "" {
				continue
			}
			seen[imp] = path
			for _, f := range forbidden {
				if imp == f || strings.HasPrefix(imp, f+"/") {
					t.Errorf("%s imports %s", path, imp)
				}
			}
			queue = append(queue, imp)
		}
	}
	if seen[module+"projections"] == "" {
		t.Fatalf("the walk never reached projections (%d packages): it reads no imports", len(seen))
	}
}
