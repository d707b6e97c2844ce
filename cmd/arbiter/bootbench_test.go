package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchBoot runs `arbiter bench boot` on a database filled by `arbiter bench`: each
// boot is a real `arbiter serve` process (this test binary, run as arbiter through
// ARBITER_TEST_MAIN, see TestMain) timed until /readyz answers ready. On a file that is
// not a store, serve exits and bench boot reports it rather than waiting for its timeout.
// serve's flags after "--" reach it: --cpuprofile writes the profile of its run.
func TestBenchBoot(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bench.db")
	lastLine(t, "bench", "--db", db, "--matches", "6", "--moves", "20", "--duration", "0")
	t.Setenv("ARBITER_TEST_MAIN", "serve --addr 127.0.0.1:0 --db "+db)
	last, out := lastLine(t, "bench", "boot", "--db", db, "--runs", "2")
	if strings.Count(out, ": ready in ") != 2 || !strings.HasPrefix(last, "boot: median ") || !strings.Contains(last, "over 2 runs") {
		t.Errorf("bench boot:\n%s", out)
	}
	// The first boot stopped as by Ctrl-C and left the store whole: the second booted on it.
	if _, out := lastLine(t, "verify", "--db", db); !strings.Contains(out, "all ok") {
		t.Errorf("verify after two boots:\n%s", out)
	}

	// serve's own flags follow "--"; serve --cpuprofile writes the profile of its run.
	// (The child takes its arguments from ARBITER_TEST_MAIN, which names the same flag.)
	prof := filepath.Join(t.TempDir(), "boot.pprof")
	t.Setenv("ARBITER_TEST_MAIN", "serve --addr 127.0.0.1:0 --db "+db+" --cpuprofile "+prof)
	if _, out := lastLine(t, "bench", "boot", "--db", db, "--runs", "1", "--", "--cpuprofile", prof); !strings.Contains(out, "boot 1: ready in ") {
		t.Errorf("bench boot with serve's flags after --:\n%s", out)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("serve --cpuprofile wrote no profile: %v", err)
	}

	notAStore := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(notAStore, []byte(strings.Repeat("not a database\n", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ARBITER_TEST_MAIN", "serve --addr 127.0.0.1:0 --db "+notAStore)
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"bench", "boot", "--db", notAStore, "--runs", "1"}, &stdout, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), "boot 1: serve ") {
		t.Errorf("bench boot on a file that is not a store: exit %d, stdout %s, stderr %s", code, stdout.String(), stderr.String())
	}
}
