package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	snapfile "github.com/arbiter-games/arbiter/snapshot"
)

// snapshotQueries are the questions a booted server must answer as one that folded its
// store from zero: the lobby, a live match's board, the leaderboard, a player's ratings
// and history.
var snapshotQueries = []string{
	`{matches(first:50){id status version turn moves board{fen inCheck legalMoves} result{winners draw reason} seats{seat player{id name}}}}`,
	`query($m:ID!){match(id:$m){status version turn moves pgn board{fen legalMoves} drawOfferBy}}`,
	`{leaderboard(key:"CHESS"){player{id name} rating{key rating}}}`,
	`query($p:ID!){player(id:$p){name ratings{game key rating}}}`,
	`query($p:ID!){matches(player:$p, first:50){id status result{winners reason}}}`,
}

// snapshotStore plays, on a new SQLite file, a rated match to its end and two live
// matches, and returns the file, the players' IDs and tokens, and a live match.
func snapshotStore(t *testing.T) (db string, ids, tokens []string, live string) {
	t.Helper()
	db = filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db, "--snapshots", "off")
	for _, name := range []string{"Ada", "Bo", "Cy"} {
		id, tok := srv.register(t, name)
		ids, tokens = append(ids, id), append(tokens, tok)
	}
	done := srv.newMatch(t, tokens[0], tokens[1], true)
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		if r := srv.play(t, tokens[i%2], done, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
	}
	live = srv.newMatch(t, tokens[1], tokens[2], true)
	other := srv.newMatch(t, tokens[2], tokens[0], false)
	for i, mv := range []string{"e4", "e5", "Nf3", "Nc6", "Bb5"} {
		if r := srv.play(t, tokens[1+i%2], live, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
	}
	if r := srv.play(t, tokens[2], other, "d4"); len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	srv.stop(t)
	return db, ids, tokens, live
}

// answers asks srv every snapshotQueries question.
func answers(t *testing.T, srv *server, ids []string, live string) []string {
	t.Helper()
	var out []string
	for _, q := range snapshotQueries {
		r := srv.post(t, "", q, map[string]any{"m": live, "p": ids[1]})
		b, _ := json.Marshal(r)
		out = append(out, string(b))
	}
	return out
}

// A server booted from a snapshot, with events after it, answers the queries as one that
// folded the store from zero, and plays on a live match it restored.
func TestABootFromASnapshotAnswersAsAFoldFromZero(t *testing.T) {
	db, ids, tokens, live := snapshotStore(t)
	// The snapshot, written as a server stops; then moves after it, to fold at boot.
	srv := startServer(t, db)
	srv.stop(t)
	if !strings.Contains(srv.stderr.String(), "wrote the read side's snapshot") {
		t.Fatalf("no snapshot written on stop:\n%s", srv.stderr)
	}
	srv = startServer(t, db, "--snapshots", "off")
	for i, mv := range []string{"a6", "Ba4"} {
		if r := srv.play(t, tokens[2-i], live, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
	}
	srv.stop(t)

	zero := startServer(t, db, "--snapshots", "off")
	want := answers(t, zero, ids, live)
	zero.stop(t)

	srv = startServer(t, db)
	if !strings.Contains(srv.stderr.String(), "read the read side's snapshot") {
		t.Fatalf("the boot read no snapshot:\n%s", srv.stderr)
	}
	got := answers(t, srv, ids, live)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s\nfrom the snapshot: %s\nfrom zero:         %s", snapshotQueries[i], got[i], want[i])
		}
	}
	if r := srv.play(t, tokens[2], live, "Nf6"); len(r.Errors) > 0 {
		t.Fatalf("a move on the restored live match: %+v", r.Errors)
	}
	srv.stop(t)
	// Booted from the snapshot of that stop and stopped with nothing applied: nothing new
	// to write.
	idle := startServer(t, db)
	idle.stop(t)
	if log := idle.stderr.String(); !strings.Contains(log, "read the read side's snapshot") || strings.Contains(log, "wrote the read side's snapshot") {
		t.Errorf("a boot and a stop with no event between:\n%s", log)
	}
}

// A snapshot that is damaged, of another format, of another store, or past the store's
// head is refused with a line that says why, and the boot folds from zero, right.
func TestARefusedSnapshotLeavesTheBootRight(t *testing.T) {
	db, ids, tokens, live := snapshotStore(t)
	// The store cut short: a copy of the file as it is now, before the events of the
	// snapshot's end (with its key, without the head log that would refuse it first).
	short := filepath.Join(t.TempDir(), "arbiter.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if b, err := os.ReadFile(db + suffix); err == nil {
			write(t, short+suffix, b)
		}
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(short), "arbiter.key"), must(os.ReadFile(filepath.Join(filepath.Dir(db), "arbiter.key"))), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, db)
	if r := srv.play(t, tokens[2], live, "a6"); len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	srv.stop(t) // writes the snapshot
	dir := db + ".snapshots"
	paths, err := snapfile.List(dir)
	if err != nil || len(paths) != 1 {
		t.Fatalf("snapshots %v, %v", paths, err)
	}
	good := must(os.ReadFile(paths[0]))
	s := must(snapfile.Read(paths[0]))
	// Another store: the same players and matches made again have other IDs and hashes,
	// and two moves more, so that it is as long as the snapshot's.
	other, otherIDs, otherTokens, otherLive := snapshotStore(t)
	srv = startServer(t, other, "--snapshots", "off")
	for i, mv := range []string{"a6", "Ba4"} {
		if r := srv.play(t, otherTokens[2-i], otherLive, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
	}
	srv.stop(t)

	for _, c := range []struct {
		name, reason string
		damage       func(t *testing.T) (db string)
	}{
		{"one byte flipped", "SHA-256 does not match", func(t *testing.T) string {
			b := []byte(string(good))
			b[len(b)/2] ^= 0x20
			write(t, paths[0], b)
			return db
		}},
		{"a model of another format", "this build reads", func(t *testing.T) string {
			stale := s
			stale.Models = append([]snapfile.Model(nil), s.Models...)
			stale.Models[0].Format = 999
			var b strings.Builder
			if err := snapfile.Encode(&b, stale); err != nil {
				t.Fatal(err)
			}
			write(t, paths[0], []byte(b.String()))
			return db
		}},
		{"another store's", "not the snapshot's", func(t *testing.T) string {
			put(t, other, paths[0], good)
			return other
		}},
		{"the store cut short", "past the store's head", func(t *testing.T) string {
			put(t, short, paths[0], good)
			return short
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			at := c.damage(t)
			ids, live := ids, live
			if at == other {
				ids, live = otherIDs, otherLive
			}
			zero := startServer(t, at, "--snapshots", "off")
			want := answers(t, zero, ids, live)
			zero.stop(t)
			srv := startServer(t, at)
			log := srv.stderr.String()
			if !strings.Contains(log, "snapshot refused") || !strings.Contains(log, c.reason) || strings.Contains(log, "read the read side's snapshot") {
				t.Fatalf("want a refusal saying %q:\n%s", c.reason, log)
			}
			got := answers(t, srv, ids, live)
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s\nafter the refusal: %s\nfrom zero:         %s", snapshotQueries[i], got[i], want[i])
				}
			}
			srv.stop(t)
			for _, p := range must(snapfile.List(at + ".snapshots")) {
				os.Remove(p) // the stop wrote a good one: the next case damages the first again
			}
		})
	}
}

// put writes a snapshot's bytes b, of the file at from, into the snapshots of db.
func put(t *testing.T, db, from string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(db+".snapshots", 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(db+".snapshots", filepath.Base(from)), b)
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
