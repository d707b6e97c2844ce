package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Rules versions are pinned so that old matches replay: a match recorded by the server of
// magic-2026.1 (testdata/magic-2026.1, made by that server) loads in today's server,
// shows the version it was played under, and `arbiter verify` and `replay` re-derive it
// with the rules of that version (magicchess.Rules.Under).
func TestAMatchOfMagic20261StillLoadsAndVerifies(t *testing.T) {
	const id = "bvoxxj7rt5qsbq3d"
	db := copyStore(t, filepath.Join("testdata", "magic-2026.1"))
	last, out := lastLine(t, "verify", "--db", db)
	if !strings.HasSuffix(last, "all ok") || !strings.Contains(out, id+" MAGIC_CHESS") {
		t.Fatalf("verify of the magic-2026.1 store:\n%s", out)
	}
	if _, out := lastLine(t, "replay", "--db", db, "--match", id); !strings.Contains(out, "rules magic-2026.1") {
		t.Fatalf("replay of the magic-2026.1 match:\n%s", out)
	}

	srv := startServer(t, db)
	var v struct {
		Match struct {
			Status, RulesVersion string
			Result               struct{ Reason string }
			State                struct{ Moves []string }
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){status rulesVersion result{reason} state{... on MagicChessState{moves}}}}`, map[string]any{"m": id}, &v)
	if v.Match.Status != "FINISHED" || v.Match.RulesVersion != "magic-2026.1" || v.Match.Result.Reason == "" || len(v.Match.State.Moves) < 10 {
		t.Fatalf("the magic-2026.1 match as the server shows it: %+v", v.Match)
	}
	srv.stop(t)
}
