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
const crashEnv = "ARBITER_SQLITE_CRASH_DB"

// TestKillDuringAppends: every append acknowledged before kill -9 is in the file.
func TestKillDuringAppends(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	path := filepath.Join(t.TempDir(), "events.db")
	child := exec.Command(os.Args[0], "-test.run=^TestHelperProcessAppender$", "-test.count=1")
	child.Env = append(os.Environ(), crashEnv+"="+path)
	conformance.KillDuringAppends(t, child, 500, func(t *testing.T) eventstore.Store { return open(t, path) })
}

// TestHelperProcessAppender is the child of TestKillDuringAppends; it does nothing in a
// normal run, and appends until killed in the child.
func TestHelperProcessAppender(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("helper process of TestKillDuringAppends")
	}
	s, err := sqlite.Open(context.Background(), path)
	if err == nil {
		err = conformance.AppendUntilKilled(s)
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
}
