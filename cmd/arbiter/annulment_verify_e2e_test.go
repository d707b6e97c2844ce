package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
)

// Rule 8's loop in a real stored match, with the real deck: Echo on Echo needs two
// Echoes, and the forty cards hold one; in doubles the same Echo comes back, the discard
// reshuffled into the table's deck, and lays again on a board whose last card is Echo
// (docs/games/magic-chess.md, "No loops"). testdata/magic-annulment is a store in which
// the server recorded such a match (TestMakeAnAnnulledMatch found it over GraphQL):
// `arbiter verify` re-derives it, the annulment included, and refuses the match's events
// (an export of all of them) with the annulment forged away or forged in, their hash
// chain recomputed.
func TestAnAnnulmentVerifiedInAStoredMatch(t *testing.T) {
	src := filepath.Join("testdata", "magic-annulment")
	idBytes, err := os.ReadFile(filepath.Join(src, "match-id"))
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(string(idBytes))
	db := copyStore(t, src)
	if last, out := lastLine(t, "verify", "--db", db); !strings.HasSuffix(last, "all ok") || !strings.Contains(out, "ok   "+id) {
		t.Fatalf("verify of the stored annulment:\n%s", out)
	}

	// The match's events as the server holds them, nothing redacted: an export whose
	// every event verify decides again.
	store, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := store.ReadStream(context.Background(), matchstream.Name(id), 0, 1000)
	store.Close()
	if err != nil || len(evs) == 0 {
		t.Fatalf("reading match %s: %d events, %v", id, len(evs), err)
	}
	x := replay.Export{Header: replay.ExportHeader{Match: id, Game: "MAGIC_CHESS", RulesVersion: "magic-2026.3", Status: "FINISHED",
		Version: evs[len(evs)-1].Version, Viewer: "server"}}
	for _, ev := range evs {
		x.Lines = append(x.Lines, replay.LineOf(ev, false))
	}
	annulled, annulment := -1, -1
	for i, l := range x.Lines {
		switch {
		case l.Type == "CardPlayed" && strings.Contains(string(l.Payload), `"result":"annulled"`):
			annulled = i
		case l.Type == "CardAnnulled":
			annulment = i
		}
	}
	if annulled < 0 || annulment != annulled+1 || !strings.Contains(string(x.Lines[annulled].Payload), `"card":"echo"`) {
		t.Fatalf("the stored match has no Echo annulled (CardPlayed at %d, CardAnnulled at %d)", annulled, annulment)
	}
	verifyFile := func(lines []replay.ExportLine) (int, string) {
		t.Helper()
		return verifyRechained(t, filepath.Dir(db), x.Header, lines)
	}
	if code, out := verifyFile(append([]replay.ExportLine(nil), x.Lines...)); code != 0 {
		t.Fatalf("the export as it is, chain recomputed: exit %d\n%s", code, out)
	}
	// The annulment forged away: the Echo recorded as resolved, without its CardAnnulled.
	away := append([]replay.ExportLine(nil), x.Lines[:annulment]...)
	away[annulled].Payload = json.RawMessage(strings.Replace(string(away[annulled].Payload), `"result":"annulled"`, `"result":"resolved"`, 1))
	for _, l := range x.Lines[annulment+1:] {
		if l.Stream == x.Lines[annulment].Stream {
			l.Version-- // the versions after it close up
		}
		away = append(away, l)
	}
	if code, out := verifyFile(away); code == 0 || !strings.Contains(out, "rules") {
		t.Fatalf("an annulment forged away passes verify (exit %d):\n%s", code, out)
	}
	// An annulment forged in: the same events, the CardAnnulled kept but the Echo said to
	// have had no effect.
	in := append([]replay.ExportLine(nil), x.Lines...)
	in[annulled].Payload = json.RawMessage(strings.Replace(string(in[annulled].Payload), `"result":"annulled"`, `"result":"no-effect"`, 1))
	if code, out := verifyFile(in); code == 0 || !strings.Contains(out, "rules") {
		t.Fatalf("an annulment forged in passes verify (exit %d):\n%s", code, out)
	}
}

// verifyRechained writes an export of lines under header h into dir, their hash chain
// recomputed (so that only what the rules and the checks beyond the chain see can refuse
// it: a forgery), and returns `arbiter verify --file`'s exit code and output.
func verifyRechained(t *testing.T, dir string, h replay.ExportHeader, lines []replay.ExportLine) (int, string) {
	t.Helper()
	prev := ""
	for i := range lines {
		ev, err := lines[i].Event()
		if err != nil {
			t.Fatal(err)
		}
		lines[i].PrevHash, ev.PrevHash = prev, prev
		lines[i].Hash = eventstore.Hash(prev, ev)
		prev = lines[i].Hash
	}
	var buf bytes.Buffer
	if err := replay.WriteExport(&buf, h, lines); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "forged.ndjson")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{"verify", "--file", file}, &out, &errs)
	t.Logf("verify --file: exit %d\n%s%s", code, out.String(), errs.String())
	return code, out.String() + errs.String()
}
