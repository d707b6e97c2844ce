package main

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/corpus"
)

// The archived corpus (testdata/corpus) holds a match of every game this binary hosts,
// and `arbiter verify --fairness --file` finds every file of it whole under this build.
//
// It skips under the race detector: verifying a file is the pure rules and replay in one
// goroutine, nothing for the detector to watch (.ci/run leaves ./corpus/ and ./domain/...
// out of its race step for the same reason).
func TestTheCorpusHoldsEveryHostedGame(t *testing.T) {
	if raceDetector {
		t.Skip("verifying a file runs in one goroutine: nothing for the race detector to watch")
	}
	dir := filepath.Join("..", "..", "testdata", "corpus")
	m, err := corpus.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var archived []string
	for _, e := range m.Entries {
		archived = append(archived, e.Game)
		var out bytes.Buffer
		if code := run(context.Background(), []string{"verify", "--fairness", "--file", filepath.Join(dir, e.File), "--match", e.Match}, &out, &out); code != 0 || !strings.HasPrefix(out.String(), "ok ") {
			t.Errorf("verify --fairness --file %s: exit %d\n%s", e.File, code, out.String())
		}
	}
	for _, id := range games().IDs() {
		if !slices.Contains(archived, id) {
			t.Errorf("the corpus has no match of %s: add a scenario (corpus/scenarios.go, docs/corpus.md)", id)
		}
	}
}
