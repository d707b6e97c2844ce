package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A lock file taken once is refused to a second taker, which reads the holder's words
// and writes nothing, and is granted again once released.
func TestAcquireRefusesAHeldLockAndNamesItsHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "node.lock")
	l, err := Acquire(path, "pid 1, serving on http://127.0.0.1:1/")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(path, "pid 2")
	var held *HeldError
	if !errors.As(err, &held) || !errors.Is(err, ErrHeld) || held.Holder != "pid 1, serving on http://127.0.0.1:1/" || held.Path != path {
		t.Fatalf("a second Acquire of a held lock: %v (%+v)", err, held)
	}
	if b, _ := os.ReadFile(path); string(b) != "pid 1, serving on http://127.0.0.1:1/\n" {
		t.Fatalf("the refused Acquire changed the lock file to %q", b)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(); err != nil {
		t.Fatalf("a second Release: %v", err)
	}
	l2, err := Acquire(path, "pid 2")
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	defer l2.Release()
	if b, _ := os.ReadFile(path); string(b) != "pid 2\n" {
		t.Fatalf("the new holder's lock file reads %q", b)
	}
}

// A directory's lock is refused while held, and granted once released.
func TestAcquireDir(t *testing.T) {
	dir := t.TempDir()
	l, err := AcquireDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireDir(dir); !errors.Is(err, ErrHeld) {
		t.Fatalf("a second AcquireDir of a held directory: %v", err)
	}
	l.Release()
	l2, err := AcquireDir(dir)
	if err != nil {
		t.Fatalf("AcquireDir after Release: %v", err)
	}
	l2.Release()
	if _, err := AcquireDir(filepath.Join(dir, "missing")); err == nil || errors.Is(err, ErrHeld) {
		t.Fatalf("AcquireDir of a missing directory: %v", err)
	}
}

// RecordLocked finds no lock on a file nobody locks, nor on a missing one; a file another
// process holds locked is found (projections' TestTempArchiveFileRemovesTheOldFilesNobodyHolds,
// with SQLite's locks in a process of its own).
func TestRecordLockedWithoutALock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	for _, want := range []string{"missing", "unlocked"} {
		if locked, err := RecordLocked(path); locked || err != nil {
			t.Fatalf("a %s file: locked %v, %v", want, locked, err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
