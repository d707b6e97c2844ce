package sqlite_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
)

// crashEnv carries the database path to the helper process; it is unset in a normal run.
const crashEnv = "ARBITER_SQLITE_CRASH_DB"

// TestKillDuringAppends proves that an acknowledged append survives kill -9: a child
// process appends from several goroutines and prints each event ID once Append returned;
// the test kills it with SIGKILL mid-flight, reopens the file and finds every printed ID.
func TestKillDuringAppends(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	path := t.TempDir() + "/events.db"
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcessAppender$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const killAfter = 500
	var acked []string
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		id, ok := strings.CutPrefix(lines.Text(), "ack ")
		if !ok {
			continue
		}
		acked = append(acked, id)
		if len(acked) == killAfter {
			if err := cmd.Process.Kill(); err != nil { // SIGKILL on Unix
				t.Fatal(err)
			}
		}
		// Lines already in the pipe were acknowledged before the kill: they count too.
	}
	_ = cmd.Wait()
	if len(acked) < killAfter {
		t.Fatalf("the helper acknowledged only %d appends before it stopped", len(acked))
	}

	s := open(t, path)
	defer s.Close()
	all, err := s.ReadAll(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	stored := make(map[string]bool, len(all))
	streams := make(map[string]bool)
	for i, e := range all {
		if e.Position != int64(i)+1 {
			t.Fatalf("position %d at index %d: a gap", e.Position, i)
		}
		stored[e.ID] = true
		streams[e.Stream] = true
	}
	for _, id := range acked {
		if !stored[id] {
			t.Fatalf("acknowledged event %q is missing after kill -9", id)
		}
	}
	for st := range streams {
		evs, err := s.ReadStream(context.Background(), st, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := eventstore.VerifyChain(evs); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d appends acknowledged, %d events stored after kill -9", len(acked), len(all))
}

// TestHelperProcessAppender is the child of TestKillDuringAppends; it does nothing in a
// normal run. It appends until killed.
func TestHelperProcessAppender(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("helper process of TestKillDuringAppends")
	}
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			stream := fmt.Sprintf("match-%d", g%4) // two writers per stream: conflicts happen
			for i := 0; ; i++ {
				e := eventstore.Proposed{ID: fmt.Sprintf("g%d-%d", g, i), Type: "Ping", SchemaVersion: 1, Payload: []byte(`{}`)}
				for {
					v, err := s.StreamVersion(context.Background(), stream)
					if err == nil {
						_, err = s.Append(context.Background(), stream, v, e)
					}
					if err == nil {
						break
					}
					if !errors.Is(err, eventstore.ErrWrongVersion) {
						fmt.Fprintln(os.Stderr, err)
						os.Exit(2)
					}
				}
				mu.Lock()
				fmt.Println("ack " + e.ID)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}
