package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
)

// The ndjson export of a doubles match of magic-2026.4 holds the hidden streams its viewer
// may read, in the store's order: while the match is live, a player's export holds its own
// team's signals and nothing of the other team's hidden stream, and a spectator's none at
// all, so that nobody outside a team can count its signals; once the match is over every
// export holds both teams' hidden streams, `arbiter verify --file` checks them (each
// stream's chain, and the fold), and the match's receipt still covers its own stream.
func TestAnExportHoldsTheHiddenStreamsItsViewerMayRead(t *testing.T) {
	dir := t.TempDir()
	srv := startServer(t, filepath.Join(dir, "arbiter.db"))
	tokens, id := doublesPlayers(t, srv, "", false)
	vars := map[string]any{"m": id}
	for seat, sig := range []string{"SAVE_READY", "NO_SAVE", "", "CARD_NEXT"} {
		if sig != "" {
			srv.must(t, tokens[seat], `mutation($m:ID!,$s:MagicSignal!){signal(matchId:$m, signal:$s){match{version}}}`, map[string]any{"m": id, "s": sig}, nil)
		}
	}
	// hidden counts an export's lines by stream, the match's own left out; each is one
	// of the match's hidden streams.
	hidden := func(x replay.Export) map[string]int {
		t.Helper()
		out := map[string]int{}
		for _, l := range x.Lines {
			if l.Stream == matchstream.Name(id) {
				continue
			}
			if got, _, ok := matchstream.HiddenOf(l.Stream); !ok || got != id {
				t.Fatalf("a line of stream %s in the export of match %s", l.Stream, id)
			}
			out[l.Stream]++
		}
		return out
	}
	team0, team1 := matchstream.Hidden(id, 0), matchstream.Hidden(id, 1)
	liveWants := map[string]map[string]int{
		"Ann (team 0)": {team0: 2}, "Dee (team 0)": {team0: 2}, "Bob (team 1)": {team1: 1}, "Cid (team 1)": {team1: 1}, "a spectator": {},
	}
	liveTokens := map[string]string{"Ann (team 0)": tokens[0], "Bob (team 1)": tokens[1], "Cid (team 1)": tokens[2], "Dee (team 0)": tokens[3], "a spectator": ""}
	var public int
	for who, tok := range liveTokens {
		_, _, body := srv.getExport(t, tok, id+".ndjson")
		x := exportOf(t, body)
		got := hidden(x)
		if len(got) != len(liveWants[who]) || got[team0] != liveWants[who][team0] || got[team1] != liveWants[who][team1] {
			t.Fatalf("%s's live export holds the hidden lines %v, want %v", who, got, liveWants[who])
		}
		n := len(x.Lines) - got[team0] - got[team1]
		if public != 0 && n != public {
			t.Fatalf("%s's live export holds %d lines of the match's stream, another viewer's %d", who, n, public)
		}
		public = n
		if s := string(body); who == "a spectator" && (strings.Contains(s, "hidden-") || strings.Contains(s, "save-ready")) {
			t.Fatalf("a spectator's live export names a hidden stream or a signal:\n%s", s)
		}
	}
	srv.must(t, tokens[1], `mutation($m:ID!){resign(matchId:$m){version}}`, vars, nil)
	for who, tok := range liveTokens {
		_, _, body := srv.getExport(t, tok, id+".ndjson")
		x := exportOf(t, body)
		if got := hidden(x); got[team0] != 2 || got[team1] != 1 || x.Header.Redacted != 0 {
			t.Fatalf("%s's export of the finished match holds the hidden lines %v, %d redacted", who, got, x.Header.Redacted)
		}
		if r := replay.VerifyExport(games(), x); !r.OK() {
			t.Fatalf("%s's export of the finished match does not verify: %v", who, r.Err())
		}
		if who != "a spectator" {
			continue
		}
		file := filepath.Join(dir, "finished.ndjson")
		if err := os.WriteFile(file, body, 0o600); err != nil {
			t.Fatal(err)
		}
		if code, out := runArbiter("verify", "--file", file); code != 0 {
			t.Fatalf("arbiter verify --file of the finished export: exit %d\n%s", code, out)
		}
		// The match's receipt covers its own stream: the hidden lines beside it change
		// nothing of it.
		var rc struct{ Receipt struct{ Note string } }
		srv.must(t, "", `query($m:ID!){receipt(matchId:$m){note}}`, vars, &rc)
		receiptFile := filepath.Join(dir, "receipt.txt")
		if err := os.WriteFile(receiptFile, []byte(rc.Receipt.Note), 0o600); err != nil {
			t.Fatal(err)
		}
		if code, out := runArbiter("verify", "--file", file, "--key", filepath.Join(dir, "arbiter.key"), "--receipt", receiptFile); code != 0 || !strings.Contains(out, "ok   receipt: match "+id) {
			t.Fatalf("arbiter verify --receipt of the finished export: exit %d\n%s", code, out)
		}
		// A signal's line edited: its stream's chain no longer holds.
		forged := strings.Replace(string(body), `"signal":"save-ready"`, `"signal":"hand-low"`, 1)
		if forged == string(body) {
			t.Fatal("the finished export holds no save-ready signal to edit")
		}
		if err := os.WriteFile(file, []byte(forged), 0o600); err != nil {
			t.Fatal(err)
		}
		if code, out := runArbiter("verify", "--file", file); code == 0 || !strings.Contains(out, team0) {
			t.Fatalf("an edited signal in the export: exit %d\n%s", code, out)
		}
	}
}
