package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	snapfile "github.com/arbiter-games/arbiter/snapshot"
)

// load plays chess moves on srv from several goroutines until stop is closed or the
// server dies, each a fresh match every 8 moves (clear of repetition draws), and counts
// the appends acknowledged.
type load struct {
	acked atomic.Int64
	stop  chan struct{}
	done  chan []ackedMoves
	n     int
}

// ackedMoves is a match and how many of its moves were acknowledged.
type ackedMoves struct {
	match string
	moves int
}

func startLoad(srv *server, white, black string, players int) *load {
	l := &load{stop: make(chan struct{}), done: make(chan []ackedMoves, players), n: players}
	shuffle := []string{"Nf3", "Nf6", "Nc3", "Nc6", "Nb1", "Nb8", "Ng1", "Ng8"}
	for range players {
		go func() {
			var all []ackedMoves
			defer func() { l.done <- all }()
			for {
				select {
				case <-l.stop:
					return
				default:
				}
				id := srv.newMatchQuiet(white, black)
				if id == "" {
					return
				}
				all = append(all, ackedMoves{match: id})
				for i, mv := range shuffle {
					if !srv.playQuiet([]string{white, black}[i%2], id, mv) {
						return // the server died: this move was never acknowledged
					}
					all[len(all)-1].moves++
					l.acked.Add(1)
				}
			}
		}()
	}
	return l
}

// end stops the load and returns what was acknowledged.
func (l *load) end() []ackedMoves {
	close(l.stop)
	var all []ackedMoves
	for range l.n {
		all = append(all, <-l.done...)
	}
	return all
}

// wroteLine is the log line of a snapshot written.
var wroteLine = regexp.MustCompile(`msg="wrote the read side's snapshot" snapshot=(\S+) position=([0-9]+)`)

// loadQueries are what a booted server must answer as a fold from zero after the load.
var loadQueries = []string{
	`{matches(first:500){id status version moves}}`,
	`{leaderboard(key:"CHESS"){player{id} rating{key rating}}}`,
}

func loadAnswers(t *testing.T, srv *server) []string {
	t.Helper()
	var out []string
	for _, q := range loadQueries {
		r := srv.post(t, "", q, nil)
		if len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", q, r.Errors)
		}
		out = append(out, string(r.Data))
	}
	return out
}

// Under load, serve's background writer writes a snapshot each --snapshot-every events
// (never sooner), keeps the last two, and does not stall appends while it holds the
// models' saved state; the next boot takes the newest and answers as a fold from zero.
func TestBackgroundSnapshotsUnderLoad(t *testing.T) {
	const every = 60
	db := filepath.Join(t.TempDir(), "arbiter.db")
	dir := db + ".snapshots"
	srv := startServer(t, db, "--snapshot-every", strconv.Itoa(every), "--snapshot-interval", "0")
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	l := startLoad(srv, white, black, 3)
	defer func() {
		if l != nil {
			l.end()
		}
	}()
	// The conditions end the waits; the deadline only bounds a writer that never writes.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	written := func() [][]string { return wroteLine.FindAllStringSubmatch(srv.stderr.String(), -1) }
	waitUntil(t, ctx, "three background snapshots", func() bool { return len(written()) >= 3 })
	w := written()
	for i := 1; i < len(w); i++ {
		a, _ := strconv.ParseInt(w[i-1][2], 10, 64)
		b, _ := strconv.ParseInt(w[i][2], 10, 64)
		if b-a < every {
			t.Fatalf("snapshots at %d then %d, less than --snapshot-every %d apart:\n%s", a, b, every, srv.stderr)
		}
	}

	// The writer held once every model has saved its state, before the file: appends go on.
	held, release := make(chan struct{}), make(chan struct{})
	var once, released sync.Once
	hold := func(d string) {
		if d == dir {
			once.Do(func() { close(held); <-release })
		}
	}
	snapshotHold.Store(&hold)
	defer snapshotHold.Store(nil)
	defer released.Do(func() { close(release) }) // a failing test lets the writer go
	select {
	case <-held:
	case <-ctx.Done():
		t.Fatal("the background writer never wrote again")
	}
	// Held, the writer has logged every file it wrote: the directory keeps the last two.
	w = written()
	if kept := must(snapfile.List(dir)); len(kept) != snapfile.Keep || kept[0] != w[len(w)-1][1] || kept[1] != w[len(w)-2][1] {
		t.Fatalf("the directory keeps %v, want the last two written:\n%s", kept, srv.stderr)
	}
	before := l.acked.Load()
	waitUntil(t, ctx, "appends acknowledged while the writer holds the models' state", func() bool { return l.acked.Load() >= before+20 })
	n := len(written())
	released.Do(func() { close(release) })
	waitUntil(t, ctx, "the held snapshot to be written", func() bool { return len(written()) > n })
	t.Logf("%d appends acknowledged while the writer held its state", l.acked.Load()-before)
	l.end()
	l = nil
	srv.stop(t) // and a snapshot of the stop

	newest := must(snapfile.List(dir))[0]
	zero := startServer(t, db, "--snapshots", "off")
	want := loadAnswers(t, zero)
	zero.stop(t)
	srv = startServer(t, db)
	if log := srv.stderr.String(); !strings.Contains(log, `msg="read the read side's snapshot" snapshot=`+newest) {
		t.Fatalf("the boot did not take the newest snapshot %s:\n%s", newest, log)
	}
	for i, got := range loadAnswers(t, srv) {
		if got != want[i] {
			t.Errorf("%s\nfrom the snapshot: %s\nfrom zero:         %s", loadQueries[i], got, want[i])
		}
	}
}

// holdSnapshotsEnv names the file that a server process run by a test (TestMain) creates
// when its background writer reaches its second snapshot, once every model has saved its
// state, where it then stops for good: the test kills it there.
const holdSnapshotsEnv = "ARBITER_TEST_HOLD_SNAPSHOT"

// holdSecondSnapshot is TestMain's part of holdSnapshotsEnv.
func holdSecondSnapshot(marker string) {
	var n atomic.Int64
	hold := func(string) {
		if n.Add(1) == 2 {
			if err := os.WriteFile(marker, nil, 0o644); err != nil {
				panic(err)
			}
			select {} // until the test kills the process
		}
	}
	snapshotHold.Store(&hold)
}

// A server process killed with SIGKILL in the middle of a background snapshot, its models'
// state taken and the file not yet written, leaves the previous snapshot whole and alone
// in the directory; the next boot starts from it and loses no acknowledged move.
func TestKillNineDuringABackgroundSnapshot(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	dir := db + ".snapshots"
	marker := filepath.Join(t.TempDir(), "held")
	t.Setenv(holdSnapshotsEnv, marker)
	srv, proc := startProcess(t, db, "--snapshot-every", "40", "--snapshot-interval", "0")
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	l := startLoad(srv, white, black, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	waitUntil(t, ctx, "the second background snapshot to be held", func() bool {
		_, err := os.Stat(marker)
		return err == nil
	})
	before := must(snapfile.List(dir))
	if err := proc.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	acked := l.end()
	_ = proc.Wait()

	entries := must(os.ReadDir(dir))
	if len(before) != 1 || len(entries) != 1 || filepath.Join(dir, entries[0].Name()) != before[0] {
		t.Fatalf("after the kill the directory holds %v, want the first snapshot %v alone", entries, before)
	}
	if _, err := snapfile.Read(before[0]); err != nil {
		t.Fatalf("the snapshot left by the kill: %v", err)
	}
	zero := startServer(t, db, "--snapshots", "off")
	want := loadAnswers(t, zero)
	zero.stop(t)
	srv = startServer(t, db)
	log := srv.stderr.String()
	if !strings.Contains(log, `msg="read the read side's snapshot" snapshot=`+before[0]) || strings.Contains(log, "snapshot refused") {
		t.Fatalf("the boot after the kill did not start from %s:\n%s", before[0], log)
	}
	for i, got := range loadAnswers(t, srv) {
		if got != want[i] {
			t.Errorf("%s\nfrom the snapshot: %s\nfrom zero:         %s", loadQueries[i], got, want[i])
		}
	}
	moves := 0
	for _, a := range acked {
		var d struct{ Match *struct{ Moves []string } }
		srv.must(t, "", `query($m:ID!){match(id:$m){moves}}`, map[string]any{"m": a.match}, &d)
		if d.Match == nil || len(d.Match.Moves) < a.moves {
			t.Fatalf("match %s: %d moves acknowledged before the kill, the boot has %+v", a.match, a.moves, d.Match)
		}
		moves += a.moves
	}
	t.Logf("%d moves acknowledged before the kill, all there after the boot", moves)
}
