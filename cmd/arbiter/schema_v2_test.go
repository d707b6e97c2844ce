package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore/sqlite"
)

// oldFile copies a file of an older schema version that a build of that version wrote
// (eventstore/sqlite/testdata: v2-bench, `arbiter bench --matches 6 --moves 12` at
// 70c43de, and v3, eventstore/sqlite's v3Appends) and its public key into a directory of
// their own, and returns the file's path, the key's and the file's bytes.
func oldFile(t *testing.T, name string) (db, pub string, data []byte) {
	t.Helper()
	dir := t.TempDir()
	db, pub = filepath.Join(dir, "arbiter.db"), filepath.Join(dir, "arbiter.pub")
	for from, to := range map[string]string{name + ".db": db, name + ".pub": pub} {
		b, err := os.ReadFile(filepath.Join("..", "..", "eventstore", "sqlite", "testdata", from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	data, _ = os.ReadFile(db)
	return db, pub, data
}

// The commands that only read a store (verify, replay, rebuild, snapshot) do not migrate
// an SQLite file of schema version 2 or 3, which would change what they read: each
// refuses it, says what the file is and what to run, and leaves it byte for byte as it
// was. Migrated as a server migrates it when it opens it, the file then verifies.
func TestReadingCommandsLeaveAFileOfAnOlderSchemaVersion(t *testing.T) {
	for _, c := range []struct {
		name    string
		version string
	}{{"v2-bench", "2"}, {"v3", "3"}} {
		t.Run(c.name, func(t *testing.T) { readingCommandsLeave(t, c.name, c.version) })
	}
}

func readingCommandsLeave(t *testing.T, name, version string) {
	db, pub, data := oldFile(t, name)
	snaps := filepath.Join(t.TempDir(), "snapshots")
	for _, args := range [][]string{
		{"verify", "--db", db, "--key", pub},
		{"verify", "--db", db, "--key", pub, "--match", "00000000-0000-4000-8000-000000000000"},
		{"replay", "--db", db, "--match", "00000000-0000-4000-8000-000000000000"},
		{"rebuild", "--db", db, "--key", pub},
		{"snapshot", "--db", db, "--key", pub, "--snapshots", snaps},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, &stdout, &stderr)
		msg := stderr.String()
		if code != 1 || !strings.Contains(msg, db+": the file has schema version "+version+", which this build reads only once migrated to 4") ||
			!strings.Contains(msg, "this command only reads a store and left the file as it is") ||
			!strings.Contains(msg, "sqlite3 "+db+` ".backup `+strings.TrimSuffix(db, ".db")+"-v"+version+`.db"`) || !strings.Contains(msg, "arbiter serve --db "+db) {
			t.Errorf("arbiter %s on a file of schema version %s: exit %d\n%s%s", strings.Join(args, " "), version, code, stdout.String(), msg)
		}
		if after, err := os.ReadFile(db); err != nil || !bytes.Equal(after, data) {
			t.Fatalf("arbiter %s changed the file of schema version %s (%v)", strings.Join(args, " "), version, err)
		}
	}

	// What the message says to run: the server migrates the file as it opens it.
	s, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"verify", "--db", db, "--key", pub}, &stdout, &stderr)
	// The streams of v3 are not matches (only the store is checked there): its events,
	// one global chain, and its signed head.
	if (version == "2" && code != 0) || !strings.Contains(stdout.String(), "ok   store: ") {
		t.Fatalf("verify of the migrated file: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}
