package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	snapfile "github.com/arbiter-games/arbiter/snapshot"
)

// TestASnapshotIsRefusedWhileItsNodeServes: a serving node holds the lock of its
// snapshots and archive index, and of its store, so `arbiter snapshot` on the same files,
// or a second serve, is refused with the running server named (its process, its URL) and
// what to do, and changes none of the node's files. Once the server is killed with
// SIGKILL the kernel has released the lock, and the snapshot is written.
func TestASnapshotIsRefusedWhileItsNodeServes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	first := startServer(t, db)
	first.register(t, "Ada")
	first.stop(t) // a graceful stop writes the node's first snapshot
	snaps := snapshotDir("", db)
	if l, err := snapfile.List(snaps); err != nil || len(l) != 1 {
		t.Fatalf("the graceful stop left the snapshots %v (%v), want one", l, err)
	}

	srv, proc := startProcess(t, db)
	srv.register(t, "Bo")
	before := nodeFiles(t, db)
	for _, args := range [][]string{
		{"snapshot", "--db", db},
		{"serve", "--addr", "127.0.0.1:0", "--db", db},
	} {
		// A serve that is not refused stops at once (its context is over) rather than
		// serving for good: the test then fails on its exit code, and does not hang.
		ctx, cancel := context.WithCancel(context.Background())
		if args[0] == "serve" {
			cancel()
		}
		var stdout, stderr bytes.Buffer
		code := run(ctx, args, &stdout, &stderr)
		cancel()
		msg := stderr.String()
		held, what := snaps, "--snapshots" // the snapshot command is refused the node's lock
		if args[0] == "serve" {
			held, what = storeLockPath(db), "--db" // a serve, the store's first
		}
		if code != 1 || !strings.Contains(msg, "pid "+strconv.Itoa(proc.Process.Pid)) || !strings.Contains(msg, "arbiter serve of "+db+" on "+srv.url+"/") ||
			!strings.Contains(msg, "stop that server") || !strings.Contains(msg, what) || !strings.Contains(msg, held) {
			t.Errorf("arbiter %s while the node serves: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), msg)
		}
		if after := nodeFiles(t, db); after != before {
			t.Fatalf("the refused arbiter %s changed the node's files:\nbefore %s\nafter  %s", args[0], before, after)
		}
	}

	if err := proc.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = proc.Wait() // the process is gone, and its lock with it
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"snapshot", "--db", db}, &stdout, &stderr); code != 0 {
		t.Fatalf("arbiter snapshot after the server was killed: exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "wrote "+snaps) {
		t.Fatalf("arbiter snapshot after the server was killed printed %q", stdout.String())
	}
	if l, err := snapfile.List(snaps); err != nil || len(l) != 2 {
		t.Fatalf("after the snapshot the directory holds %v (%v), want two snapshots", l, err)
	}
}

// TestOneServerAFileWhateverItsSnapshots: a serve holds the lock of its SQLite file
// (<db>.lock) with or without a directory of snapshots, so a second serve of the same
// file is refused, with --snapshots off as with another directory of snapshots, naming
// the running server and what to do, before it writes anything (no archive index of its
// own in the temporary directory, no lock of its snapshots). Once the server is killed with SIGKILL,
// the next serve of the file serves.
func TestOneServerAFileWhateverItsSnapshots(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the refused serves below run in this process
	env := []string{"TMPDIR=" + tmp}
	db := filepath.Join(t.TempDir(), "arbiter.db")
	indexes := func() []string { return tempArchiveIndexes(t, tmp) }
	srv, proc := startProcessEnv(t, env, db, "--snapshots", "off")
	srv.register(t, "Ada")
	before := indexes()
	other := filepath.Join(t.TempDir(), "other.snapshots")
	for _, snapshots := range []string{"off", other} {
		// A serve that is not refused stops at once (its context is over) rather than
		// serving for good: the test then fails on its exit code, and does not hang.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var stdout, stderr bytes.Buffer
		code := run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--snapshots", snapshots}, &stdout, &stderr)
		msg := stderr.String()
		if code != 1 || !strings.Contains(msg, "pid "+strconv.Itoa(proc.Process.Pid)) || !strings.Contains(msg, "arbiter serve of "+db+" on "+srv.url+"/") ||
			!strings.Contains(msg, "lock "+db+".lock") || !strings.Contains(msg, "stop that server first, or serve another --db") {
			t.Errorf("a second serve of %s with --snapshots %s: exit %d\n%s%s", db, snapshots, code, stdout.String(), msg)
		}
		if got := indexes(); !slices.Equal(got, before) {
			t.Errorf("the refused serve with --snapshots %s left %v in the temporary directory, want %v", snapshots, got, before)
		}
		if _, err := os.Stat(lockPath(other)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the refused serve with --snapshots %s made the snapshots' lock %s: %v", snapshots, lockPath(other), err)
		}
	}

	if err := proc.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = proc.Wait() // the process is gone, and its lock with it
	next, _ := startProcessEnv(t, env, db, "--snapshots", "off")
	next.register(t, "Bo")
}

// tempArchiveIndexes lists the directories of temporary archive indexes in tmp, the
// temporary directory of the servers a test starts.
func tempArchiveIndexes(t *testing.T, tmp string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(tmp, "arbiter-archive-*.d"))
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// nodeFiles describes the node's files beside the store at db, those a serve or a
// snapshot of the node writes (its snapshots and its archive index): each file's name,
// size and SHA-256. The store, its key and its head log are left out: the server writes
// them as it serves.
func nodeFiles(t *testing.T, db string) string {
	t.Helper()
	var out strings.Builder
	dir := snapshotDir("", db)
	for _, root := range []string{dir, archivePath(dir), archivePath(dir) + "-wal"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(&out, "%s %d %x; ", strings.TrimPrefix(path, filepath.Dir(db)), len(b), sha256.Sum256(b))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out.String()
}

// TestATemporaryArchiveIndexLeftByAKillIsRemoved: a server without a directory of
// snapshots keeps its archive index in a directory of the temporary directory, which a
// kill with SIGKILL leaves behind. The next server to open one removes it (its process,
// gone, no longer holds its lock), and leaves alone the one of a server still running; a
// graceful stop removes the server's own.
func TestATemporaryArchiveIndexLeftByAKillIsRemoved(t *testing.T) {
	tmp := t.TempDir()
	env := []string{"TMPDIR=" + tmp}
	indexes := func() []string { return tempArchiveIndexes(t, tmp) }
	_, killed := startProcessEnv(t, env, filepath.Join(t.TempDir(), "a.db"), "--snapshots", "off")
	left := indexes()
	if len(left) != 1 {
		t.Fatalf("a server without snapshots keeps %v in the temporary directory, want one archive index", left)
	}
	if err := killed.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = killed.Wait()
	if got := indexes(); len(got) != 1 || got[0] != left[0] {
		t.Fatalf("after the kill the temporary directory holds %v, want %s left behind", got, left[0])
	}

	srv, running := startProcessEnv(t, env, filepath.Join(t.TempDir(), "b.db"), "--snapshots", "off")
	srv.register(t, "Ada") // it serves
	kept := indexes()
	if len(kept) != 1 || kept[0] == left[0] {
		t.Fatalf("after the next boot the temporary directory holds %v: %s, the killed server's, should be gone and the new server's there", kept, left[0])
	}
	_, other := startProcessEnv(t, env, filepath.Join(t.TempDir(), "c.db"), "--snapshots", "off")
	both := indexes()
	if len(both) != 2 || !slices.Contains(both, kept[0]) {
		t.Fatalf("with two servers running the temporary directory holds %v, want %s (still in use) and the new one's", both, kept[0])
	}
	for _, p := range []*exec.Cmd{running, other} {
		if err := p.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if err := p.Wait(); err != nil {
			t.Fatalf("a graceful stop: %v", err)
		}
	}
	if got := indexes(); len(got) != 0 {
		t.Fatalf("after two graceful stops the temporary directory holds %v", got)
	}
}
