package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
)

// crashEnv carries the database path to the helper process; it is unset in a normal run.
// checkpointsEnv, set, makes the helper checkpoint every 32 events.
const (
	crashEnv       = "ARBITER_SQLITE_CRASH_DB"
	checkpointsEnv = "ARBITER_SQLITE_CRASH_CHECKPOINTS"
)

// TestKillDuringAppends: every append acknowledged before kill -9 is in the file.
func TestKillDuringAppends(t *testing.T) { killDuringAppends(t, 500, false) }

// TestKillDuringCheckpoints: the same, when the child went through a background
// checkpoint every 32 events (about a hundred before the kill), the WAL written over
// from its start after each.
func TestKillDuringCheckpoints(t *testing.T) { killDuringAppends(t, 3000, true) }

func killDuringAppends(t *testing.T, killAfter int, checkpoints bool) {
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	path := filepath.Join(t.TempDir(), "events.db")
	child := exec.Command(os.Args[0], "-test.run=^TestHelperProcessAppender$", "-test.count=1")
	child.Env = append(os.Environ(), crashEnv+"="+path)
	if checkpoints {
		child.Env = append(child.Env, checkpointsEnv+"=1")
	}
	conformance.KillDuringAppends(t, child, killAfter, func(t *testing.T) eventstore.Store { return open(t, path) })
}

// TestHelperProcessAppender is the child of killDuringAppends; it does nothing in a
// normal run, and appends until killed in the child.
func TestHelperProcessAppender(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("helper process of TestKillDuringAppends")
	}
	var opts []sqlite.Option
	if os.Getenv(checkpointsEnv) != "" {
		opts = append(opts, sqlite.WithCheckpoints(32, 1000))
	}
	s, err := sqlite.Open(context.Background(), path, opts...)
	if err == nil {
		err = conformance.AppendUntilKilled(s)
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
}
