package conformance

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
)

// KillDuringAppends proves that an acknowledged append survives kill -9 of the process
// that made it. child is a process (typically the test binary re-run with -test.run
// naming a helper test) that opens the store and calls AppendUntilKilled. The test kills
// it with SIGKILL after killAfter acknowledgements, then opens the store with reopen and
// checks that every acknowledged event is there, positions have no gap and every
// stream's chain verifies.
func KillDuringAppends(t *testing.T, child *exec.Cmd, killAfter int, reopen func(t *testing.T) eventstore.Store) {
	t.Helper()
	child.Stderr = os.Stderr
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	var acked []string
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		id, ok := strings.CutPrefix(lines.Text(), "ack ")
		if !ok {
			continue
		}
		acked = append(acked, id)
		if len(acked) == killAfter {
			if err := child.Process.Kill(); err != nil { // SIGKILL on Unix
				t.Fatal(err)
			}
		}
		// Lines still in the pipe were acknowledged before the kill: they count too.
	}
	_ = child.Wait()
	if len(acked) < killAfter {
		t.Fatalf("the child acknowledged only %d appends before it stopped", len(acked))
	}

	s := reopen(t)
	defer s.Close()
	all := mustReadAll(t, s)
	checkGapless(t, all, 0)
	stored := make(map[string]bool, len(all))
	streams := make(map[string]bool)
	for _, e := range all {
		stored[e.ID] = true
		streams[e.Stream] = true
	}
	for _, id := range acked {
		if !stored[id] {
			t.Fatalf("acknowledged event %q is missing after kill -9", id)
		}
	}
	for st := range streams {
		checkStream(t, mustReadStream(t, s, st))
	}
	t.Logf("%d appends acknowledged, %d events stored after kill -9", len(acked), len(all))
}

// AppendUntilKilled is the child's side of KillDuringAppends: 8 goroutines, two per
// stream so that version conflicts happen, append one event at a time with the version
// they read, and print "ack <event ID>" once Append returned. It returns only on error.
func AppendUntilKilled(s eventstore.Store) error {
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		errs = make(chan error, 8)
	)
	for g := range 8 {
		wg.Go(func() {
			ctx := context.Background()
			stream := fmt.Sprintf("match-%d", g%4)
			for i := 0; ; i++ {
				e := eventstore.Proposed{ID: fmt.Sprintf("g%d-%d", g, i), Type: "Ping", SchemaVersion: 1, Payload: []byte(`{}`)}
				for {
					v, err := s.StreamVersion(ctx, stream)
					if err == nil {
						_, err = s.Append(ctx, stream, v, e)
					}
					if err == nil {
						break
					}
					if !errors.Is(err, eventstore.ErrWrongVersion) {
						errs <- err
						return
					}
				}
				mu.Lock()
				fmt.Println("ack " + e.ID)
				mu.Unlock()
			}
		})
	}
	return <-errs
}
