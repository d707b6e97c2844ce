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

// v2File copies the file of schema version 2 that a build of that version wrote
// (eventstore/sqlite/testdata, `arbiter bench --matches 6 --moves 12` at 70c43de) and its
// public key into a directory of their own, and returns the file's path, the key's and
// the file's bytes.
func v2File(t *testing.T) (db, pub string, data []byte) {
	t.Helper()
	dir := t.TempDir()
	db, pub = filepath.Join(dir, "arbiter.db"), filepath.Join(dir, "arbiter.pub")
	for from, to := range map[string]string{"v2-bench.db": db, "v2-bench.pub": pub} {
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
// an SQLite file of schema version 2, which would change what they read: each refuses it,
// says what the file is and what to run, and leaves it byte for byte as it was. Migrated
// as a server migrates it when it opens it, the file then verifies.
func TestReadingCommandsLeaveAFileOfSchemaVersion2(t *testing.T) {
	db, pub, data := v2File(t)
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
		if code != 1 || !strings.Contains(msg, db+": the file has schema version 2") ||
			!strings.Contains(msg, "this command only reads a store and left the file as it is") ||
			!strings.Contains(msg, "sqlite3 "+db+` ".backup `) || !strings.Contains(msg, "arbiter serve --db "+db) {
			t.Errorf("arbiter %s on a file of schema version 2: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), msg)
		}
		if after, err := os.ReadFile(db); err != nil || !bytes.Equal(after, data) {
			t.Fatalf("arbiter %s changed the file of schema version 2 (%v)", strings.Join(args, " "), err)
		}
	}

	// What the message says to run: the server migrates the file as it opens it.
	s, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"verify", "--db", db, "--key", pub}, &stdout, &stderr); code != 0 {
		t.Fatalf("verify of the migrated file: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}
