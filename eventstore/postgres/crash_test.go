package postgres_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/postgres"
)

// crashEnv carries the schema to the helper process; it is unset in a normal run.
const crashEnv = "ARBITER_PG_CRASH_SCHEMA"

// TestKillClientDuringAppends: every append acknowledged to a client process before it
// is killed with kill -9 is stored (the server keeps running).
func TestKillClientDuringAppends(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	url := serverURL(t)
	schema := freshSchema(t, url)
	child := exec.Command(os.Args[0], "-test.run=^TestHelperProcessAppender$", "-test.count=1")
	child.Env = append(os.Environ(), crashEnv+"="+schema)
	conformance.KillDuringAppends(t, child, 300, func(t *testing.T) eventstore.Store { return open(t, url, schema) })
}

// TestHelperProcessAppender is the child of TestKillClientDuringAppends.
func TestHelperProcessAppender(t *testing.T) {
	schema := os.Getenv(crashEnv)
	if schema == "" {
		t.Skip("helper process of TestKillClientDuringAppends")
	}
	s, err := postgres.Open(context.Background(), os.Getenv("ARBITER_PG_URL"), postgres.WithSchema(schema))
	if err == nil {
		err = conformance.AppendUntilKilled(s)
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
}
