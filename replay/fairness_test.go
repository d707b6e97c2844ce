package replay_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/replay"
)

// every registers every game of the corpus.
var every = game.NewRegistry(classic.Rules{}, unfair.Rules{}, magicchess.Rules{}, sovereignchess.Rules{}, solwaris.Rules{})

// The archived matches of testdata/corpus were recorded before procedure 1: the fairness
// check still draws their openings and rolls again by the derivations of then (Legacy),
// from the server's seed alone, and finds them as recorded.
func TestArchivedMatchesPassTheFairnessCheckUnderTheirProcedure(t *testing.T) {
	files, err := filepath.Glob("../testdata/corpus/*.ndjson")
	if err != nil || len(files) == 0 {
		t.Fatalf("no archived match: %v", err)
	}
	drawn := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		x, err := replay.ReadExport(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		r := replay.VerifyExportFairness(every, x)
		if !r.OK() || r.Fairness == nil {
			t.Fatalf("%s: %v", file, r.Err())
		}
		if r.Fairness.Procedure != fairness.Legacy || len(r.Fairness.Entropies) != 0 {
			continue // a file recorded under a later procedure: checked by the same call
		}
		drawn += len(r.Fairness.Drawn)
	}
	if drawn == 0 {
		t.Fatal("no random outcome of the archived matches was drawn again")
	}
}
