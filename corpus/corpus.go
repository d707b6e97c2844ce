// Package corpus keeps Arbiter's archive of finished matches honest: a committed set of
// match exports (testdata/corpus, docs/corpus.md), one or more for every game and mode,
// each with what it ended on, recorded in a manifest. Its test replays and verifies every
// file against the current build, so a change of a game's rules that would change how an
// old match ends, or refuse to load it at all, fails CI: a rules change is a new rules
// version, and the old one stays playable for the matches that pinned it.
//
// Generate plays the matches (seeded: the same build writes the same files) and writes
// the files and the manifest; `arbiter corpus --out testdata/corpus` runs it. Check
// replays a file and compares it with its manifest entry.
package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/replay"
)

// ManifestFile is the manifest's name in a corpus directory.
const ManifestFile = "manifest.json"

// Manifest lists the corpus's files and what each match ended on.
type Manifest struct {
	// Format names the manifest's layout; a reader refuses another.
	Format  string  `json:"format"`
	Entries []Entry `json:"entries"`
}

// ManifestFormat is the manifest's Format.
const ManifestFormat = "arbiter.corpus/v1"

// Entry is one archived match: its file, the scenario that played it, and what replaying
// it under the rules version it pinned must give again.
type Entry struct {
	File     string `json:"file"`     // the export, beside the manifest
	Scenario string `json:"scenario"` // what the match shows, for a person
	Seed     uint64 `json:"seed"`     // the generator's seed that played it
	Match    string `json:"match"`
	Game     string `json:"game"`
	// RulesVersion is the version the match pinned in its first event: it must still load
	// and decide as it did.
	RulesVersion string `json:"rulesVersion"`
	// Fairness is the procedure its random outcomes were drawn by (fairness.Version; 0,
	// omitted, for the legacy one): it too must still replay.
	Fairness int    `json:"fairness,omitempty"`
	Events   int    `json:"events"`
	LastHash string `json:"lastHash"` // the hash of its last event
	Final
}

// Final is how a match stands after its last event, as replay derives it from the rules:
// what a rules change must not change for an old match.
type Final struct {
	Status  string `json:"status"`
	Winners []int  `json:"winners"` // seats; empty for a draw or a void match
	Reason  string `json:"reason"`
	Ending  string `json:"ending"` // the result as verify prints it
	// Phase is the game's phase at the end (game.Status.Phase).
	Phase string `json:"phase"`
	// Board is the final position in the game's notation (game.Boarded's FEN), for the
	// games that have one.
	Board string `json:"board,omitempty"`
	// Moves is the game's record (game.Recorded), for the games that keep one.
	Moves []string `json:"moves,omitempty"`
	// Diagram is the final board as `arbiter replay` draws it.
	Diagram string `json:"diagram,omitempty"`
}

// FinalOf is how the snapshot of a match stands, with the verifier's report of it.
func FinalOf(snap replay.Snapshot, r replay.Report) Final {
	f := Final{Status: string(snap.State.Status), Ending: r.Ending, Winners: []int{}}
	if r.Result != nil {
		f.Reason = r.Result.Reason
		f.Winners = append(f.Winners, r.Result.Winners...)
	}
	gs := snap.State.GameState
	if gs != nil && snap.Rules != nil {
		f.Phase = snap.Rules.Status(gs).Phase
		if b, ok := snap.Rules.(game.Boarded); ok {
			f.Board = b.Board(gs).FEN
		}
		if rec, ok := snap.Rules.(game.Recorded); ok {
			f.Moves = rec.MoveList(gs)
		}
	}
	f.Diagram = snap.Diagram()
	return f
}

// Check reads an export, verifies it as `arbiter verify --fairness --file` does (every
// check, the match re-derived under its pinned rules, and every random outcome drawn again
// by its fairness procedure), replays it to its end, and compares it
// with its manifest entry. It returns every difference, none when the export still plays
// as archived.
func Check(games *game.Registry, export []byte, want Entry) []string {
	x, err := replay.ReadExport(bytes.NewReader(export))
	if err != nil {
		return []string{err.Error()}
	}
	var diffs []string
	r := replay.VerifyExportFairness(games, x)
	for _, p := range r.Problems {
		diffs = append(diffs, "verify: "+p.String())
	}
	if len(diffs) > 0 {
		return diffs
	}
	evs, err := x.Events()
	if err != nil {
		return []string{err.Error()}
	}
	snap, err := replay.StateOf(games, x.Header.Match, evs, 0)
	if err != nil {
		return []string{"replay: " + err.Error()}
	}
	got := Entry{
		File: want.File, Scenario: want.Scenario, Seed: want.Seed,
		Match: x.Header.Match, Game: x.Header.Game, RulesVersion: snap.State.RulesVersion, Fairness: int(snap.State.Fairness),
		Events: len(evs), LastHash: evs[len(evs)-1].Hash, Final: FinalOf(snap, r),
	}
	if x.Header.RulesVersion != got.RulesVersion {
		diffs = append(diffs, fmt.Sprintf("the header pins rules %q, the match's first event %q", x.Header.RulesVersion, got.RulesVersion))
	}
	return append(diffs, Diff(want, got)...)
}

// Diff lists the fields in which got differs from want, each as "field: want X, got Y".
func Diff(want, got Entry) []string {
	var out []string
	add := func(field string, w, g any) {
		wj, _ := json.Marshal(w)
		gj, _ := json.Marshal(g)
		if string(wj) != string(gj) {
			out = append(out, fmt.Sprintf("%s: archived %s, replayed %s", field, wj, gj))
		}
	}
	add("match", want.Match, got.Match)
	add("game", want.Game, got.Game)
	add("rulesVersion", want.RulesVersion, got.RulesVersion)
	add("fairness", want.Fairness, got.Fairness)
	add("events", want.Events, got.Events)
	add("lastHash", want.LastHash, got.LastHash)
	add("status", want.Status, got.Status)
	add("winners", want.Winners, got.Winners)
	add("reason", want.Reason, got.Reason)
	add("ending", want.Ending, got.Ending)
	add("phase", want.Phase, got.Phase)
	add("board", want.Board, got.Board)
	add("moves", want.Moves, got.Moves)
	add("diagram", want.Diagram, got.Diagram)
	return out
}

// ReadManifest reads the manifest of the corpus in dir.
func ReadManifest(dir string) (Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return Manifest{}, err
	}
	var m Manifest
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", ManifestFile, err)
	}
	if m.Format != ManifestFormat {
		return Manifest{}, fmt.Errorf("%s: format %q, this build reads %q", ManifestFile, m.Format, ManifestFormat)
	}
	return m, nil
}

// writeManifest writes the manifest, its entries in file order, indented for a diff.
func writeManifest(dir string, m Manifest) error {
	m.Format = ManifestFormat
	slices.SortFunc(m.Entries, func(a, b Entry) int { return strings.Compare(a.File, b.File) })
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ManifestFile), append(b, '\n'), 0o644)
}
