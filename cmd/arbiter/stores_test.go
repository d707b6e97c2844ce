package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore/sqlite"
)

// storeFiles are the files of a stored store in testdata: the SQLite file, the server's
// signing key and its head log, which verify checks together.
var storeFiles = []string{"arbiter.db", "arbiter.key", "arbiter.heads"}

// copyStore copies a store of testdata to a directory of the test's and returns its
// file, so that what the test does to it (a server's writes, a match played on) never
// touches the recorded store.
func copyStore(t *testing.T, from string) string {
	t.Helper()
	dir := t.TempDir()
	copyStoreTo(t, from, dir)
	db := filepath.Join(dir, "arbiter.db")
	migrateCopy(t, db)
	return db
}

// migrateCopy brings a copied store to the current schema, as `arbiter serve` does when it
// first opens a file an older build wrote: the stores of testdata were recorded by those
// builds, and the commands that only read a store (verify, replay, rebuild, snapshot)
// refuse to migrate it (TestReadingCommandsLeaveAFileOfAnOlderSchemaVersion).
func migrateCopy(t *testing.T, db string) {
	t.Helper()
	s, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatalf("migrate the copy %s: %v", db, err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("close the copy %s: %v", db, err)
	}
}

// copyStoreTo copies the store files of directory from into directory to.
func copyStoreTo(t *testing.T, from, to string) {
	t.Helper()
	for _, name := range storeFiles {
		b, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
