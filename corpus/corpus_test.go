package corpus_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/corpus"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/replay"
)

// dir is the committed corpus.
const dir = "../testdata/corpus"

// The corpus's bounds (docs/corpus.md, "Size"). maxFile bounds a match played too long;
// maxArchive the files one rules version of a game archives under one procedure, some
// 0.9 MB for Ajedrez Mágico's six scenarios, so that a scenario added carelessly fails.
const (
	maxFile    = 512 << 10
	maxArchive = 1280 << 10
)

// hosted is every game the server hosts (cmd/arbiter's games(); its test
// TestTheCorpusHoldsEveryHostedGame checks that the corpus covers each of them).
func hosted(games ...game.Rules) *game.Registry {
	if games == nil {
		games = []game.Rules{classic.Rules{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{}}
	}
	return game.NewRegistry(games...)
}

// archived is the manifest and the bytes of each of its files.
func archived(t *testing.T) (corpus.Manifest, map[string][]byte) {
	t.Helper()
	m, err := corpus.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range m.Entries {
		b, err := os.ReadFile(filepath.Join(dir, e.File))
		if err != nil {
			t.Fatalf("the manifest lists %s: %v", e.File, err)
		}
		files[e.File] = b
	}
	return m, files
}

// entry is the manifest's entry for a file.
func entry(t *testing.T, m corpus.Manifest, file string) corpus.Entry {
	t.Helper()
	for _, e := range m.Entries {
		if e.File == file {
			return e
		}
	}
	t.Fatalf("no %s in the manifest", file)
	return corpus.Entry{}
}

// Every archived match verifies under this build as `arbiter verify --file` checks it
// (chain, versions, every event re-decided under the rules version it pinned, seed,
// result) and replays to the state it ended in: the same result, board, record and
// drawing.
func TestTheCorpusReplaysAsArchived(t *testing.T) {
	m, files := archived(t)
	games := hosted()
	for _, e := range m.Entries {
		t.Run(strings.TrimSuffix(e.File, ".ndjson"), func(t *testing.T) {
			for _, d := range corpus.Check(games, files[e.File], e) {
				t.Error(d)
			}
		})
	}
}

// The manifest and the directory agree, and the corpus holds every scenario and so every
// game; each file's size is bounded, and so is each rules version's archive.
func TestTheCorpusIsWhole(t *testing.T) {
	m, files := archived(t)
	listed, err := filepath.Glob(filepath.Join(dir, "*.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range listed {
		name := filepath.Base(path)
		if _, ok := files[name]; !ok {
			t.Errorf("%s is in the corpus but not in its manifest", name)
		}
	}
	for _, sc := range corpus.Scenarios {
		if !slices.ContainsFunc(m.Entries, func(e corpus.Entry) bool { return strings.HasPrefix(e.File, sc.Name+".") }) {
			t.Errorf("scenario %s has no file: run `go run ./cmd/arbiter corpus` (docs/corpus.md)", sc.Name)
		}
	}
	// The bounds are on what grows by mistake, not on what grows by design (docs/corpus.md,
	// "Size"): a match played too long (a file), a scenario added carelessly (the files one
	// rules version of a game archives under one procedure: what `arbiter corpus` adds for a
	// new version). The whole grows with every version kept, each of which must stay
	// loadable; it is logged, not bounded.
	type archive struct {
		game, rules string
		procedure   int
	}
	perArchive := map[archive]int{}
	total := 0
	for _, e := range m.Entries {
		n := len(files[e.File])
		total += n
		perArchive[archive{e.Game, e.RulesVersion, e.Fairness}] += n
		if n > maxFile {
			t.Errorf("%s is %d bytes: keep an archived match under %d KiB", e.File, n, maxFile>>10)
		}
	}
	for a, n := range perArchive {
		if n > maxArchive {
			t.Errorf("%s %s (procedure %d) archives %d bytes: keep a rules version's archive under %d KiB", a.game, a.rules, a.procedure, n, maxArchive>>10)
		}
	}
	var games []string
	for _, e := range m.Entries {
		games = append(games, e.Game)
	}
	for _, id := range hosted().IDs() {
		if !slices.Contains(games, id) {
			t.Errorf("no archived match of %s", id)
		}
	}
	t.Logf("%d archived matches, %d bytes; %d archives (game, rules version, procedure)", len(files), total, len(perArchive))
}

// checkMate is chess-mate's manifest entry and file.
func checkMate(t *testing.T) (corpus.Entry, []byte) {
	m, files := archived(t)
	e := entry(t, m, corpus.FileName("chess-mate", "fide-2023.1", fairness.Legacy))
	if d := corpus.Check(hosted(), files[e.File], e); len(d) > 0 {
		t.Fatalf("chess-mate does not replay as archived to begin with: %v", d)
	}
	return e, files[e.File]
}

// mated is chess whose rules changed without a new version: a checkmate no longer wins,
// it is a draw (a rule "changed by mistake").
type mated struct{ classic.Rules }

func (r mated) Status(st game.State) game.Status {
	s := r.Rules.Status(st)
	if s.Over && s.Outcome.Reason == "checkmate" {
		s.Outcome = game.Outcome{Reason: "stalemate"}
	}
	return s
}

// A rules change that changes how an old match ends fails the corpus: its events are
// re-decided under the changed rules and no longer follow.
func TestTheCorpusCatchesAChangedOutcome(t *testing.T) {
	e, file := checkMate(t)
	games := hosted(mated{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{})
	d := corpus.Check(games, file, e)
	if len(d) == 0 {
		t.Fatal("a rules change that turns a mate into a draw passed the corpus")
	}
	t.Logf("caught: %v", d)
}

// bumped is chess under a new rules version that dropped the old one.
type bumped struct{ classic.Rules }

func (bumped) Info() game.Info {
	i := classic.Rules{}.Info()
	i.RulesVersion = "fide-2099.1"
	return i
}

// A new rules version that no longer plays the old one fails the corpus: old matches
// must still load (docs/corpus.md).
func TestTheCorpusCatchesADroppedRulesVersion(t *testing.T) {
	e, file := checkMate(t)
	games := hosted(bumped{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{})
	d := corpus.Check(games, file, e)
	if len(d) == 0 || !strings.Contains(strings.Join(d, " "), "fide-2023.1") {
		t.Fatalf("a build without the rules version fide-2023.1 passed the corpus: %v", d)
	}
	t.Logf("caught: %v", d)
}

// An archived match rewritten with its chain recomputed (the last move changed to
// another legal one) is caught by the rules, not only by the hashes; an edited byte is
// caught by the chain; an expectation changed in the manifest is caught too.
func TestTheCorpusCatchesAMutatedMatch(t *testing.T) {
	e, file := checkMate(t)

	x, err := replay.ReadExport(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	rewritten := false
	for i := range x.Lines {
		if p := string(x.Lines[i].Payload); strings.Contains(p, `"h5f7"`) {
			x.Lines[i].Payload = json.RawMessage(strings.Replace(p, `"h5f7"`, `"h5h7"`, 1))
			rewritten = true
		}
	}
	if !rewritten {
		t.Fatal("chess-mate has no move h5f7 to rewrite")
	}
	prev := ""
	for i := range x.Lines {
		ev, err := x.Lines[i].Event()
		if err != nil {
			t.Fatal(err)
		}
		x.Lines[i].PrevHash = prev
		ev.PrevHash = prev
		x.Lines[i].Hash = eventstore.Hash(prev, ev)
		prev = x.Lines[i].Hash
	}
	var buf bytes.Buffer
	if err := replay.WriteExport(&buf, x.Header, x.Lines); err != nil {
		t.Fatal(err)
	}
	if d := corpus.Check(hosted(), buf.Bytes(), e); len(d) == 0 || !strings.Contains(strings.Join(d, " "), "verify") {
		t.Errorf("a rewritten move with its chain recomputed: %v, want the verifier's refusal", d)
	}

	edited := bytes.Replace(file, []byte(`"e7e5"`), []byte(`"e7e6"`), 1)
	if d := corpus.Check(hosted(), edited, e); len(d) == 0 || !strings.Contains(strings.Join(d, " "), "chain") {
		t.Errorf("an edited move: %v, want a broken chain", d)
	}

	changed := e
	changed.Winners = []int{1}
	if d := corpus.Check(hosted(), file, changed); len(d) != 1 || !strings.HasPrefix(d[0], "winners") {
		t.Errorf("a changed expected result: %v, want the winners' difference alone", d)
	}
	changed = e
	changed.Moves = slices.Clone(e.Moves[:len(e.Moves)-1])
	if d := corpus.Check(hosted(), file, changed); len(d) != 1 || !strings.HasPrefix(d[0], "moves") {
		t.Errorf("a changed expected record: %v, want the moves' difference alone", d)
	}
}

// Generate writes the same bytes twice: the corpus can be written again and its diff
// read. (Not compared with the committed files: a change of the engine or of a game's
// newest rules changes what it writes today, never what was archived.)
func TestGenerateIsReproducible(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, out := range []string{a, b} {
		if err := corpus.Generate(t.Context(), hosted(), out, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	written, _ := filepath.Glob(filepath.Join(a, "*"))
	if len(written) != len(corpus.Scenarios)+1 {
		t.Errorf("wrote %d files for %d scenarios and the manifest", len(written), len(corpus.Scenarios))
	}
	for _, path := range written {
		first, _ := os.ReadFile(path)
		second, err := os.ReadFile(filepath.Join(b, filepath.Base(path)))
		if err != nil || !bytes.Equal(first, second) {
			t.Errorf("%s differs from one run to the next (%v)", filepath.Base(path), err)
		}
	}
}
