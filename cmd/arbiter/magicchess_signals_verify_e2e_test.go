package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/replay"
)

// verify holds a team signal to its match's rules version: the corpus's doubles match of
// magic-2026.3 (testdata/corpus) holds four public signals and verifies; forged, its
// hash chain recomputed each time, it is refused: pinned to magic-2026.4 (its signals
// then public in a version whose signals are covert: the rules), or with a signal marked
// covert in the match's own stream (the sight check: a covert event there would be
// counted by everyone, the very leak 2026.4 closes).
func TestVerifyHoldsSignalsToTheirRulesVersion(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "corpus", "magic-doubles.magic-2026.3.f1.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	x, err := replay.ReadExport(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	signals := 0
	for _, l := range x.Lines {
		if l.Type == "Signalled" {
			signals++
		}
	}
	if signals == 0 || x.Header.RulesVersion != "magic-2026.3" {
		t.Fatalf("the archived doubles match of %s holds %d signals", x.Header.RulesVersion, signals)
	}
	dir := t.TempDir()
	verifyFile := func(h replay.ExportHeader, lines []replay.ExportLine) (int, string) {
		t.Helper()
		return verifyRechained(t, dir, h, lines)
	}
	edit := func(typ, from, to string) []replay.ExportLine {
		t.Helper()
		lines := append([]replay.ExportLine(nil), x.Lines...)
		for i, l := range lines {
			if l.Type == typ {
				lines[i].Payload = json.RawMessage(strings.Replace(string(l.Payload), from, to, 1))
				return lines
			}
		}
		t.Fatalf("no %s", typ)
		return nil
	}
	if code, out := verifyFile(x.Header, append([]replay.ExportLine(nil), x.Lines...)); code != 0 {
		t.Fatalf("the archived match, chain recomputed: exit %d\n%s", code, out)
	}
	h4 := x.Header
	h4.RulesVersion = "magic-2026.4"
	if code, out := verifyFile(h4, edit("MatchCreated", `"rulesVersion":"magic-2026.3"`, `"rulesVersion":"magic-2026.4"`)); code == 0 ||
		!strings.Contains(out, "rules") || !strings.Contains(out, "Signalled by seat 0 is covert false; under magic-2026.4") {
		t.Fatalf("public signals in a match of magic-2026.4 pass verify (exit %d):\n%s", code, out)
	}
	if code, out := verifyFile(x.Header, edit("Signalled", `{"seat":0,`, `{"hidden":true,"seat":0,`)); code == 0 || !strings.Contains(out, "sight") {
		t.Fatalf("a covert signal in the match's own stream passes verify (exit %d):\n%s", code, out)
	}
}
