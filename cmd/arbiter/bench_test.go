package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore/sqlite"
)

// BenchmarkEngineMoves plays 1,000 chess matches at once through the engine on an SQLite
// file; one op is one durable move. Each match sends its next move as soon as the last is
// acknowledged (a closed loop): it measures throughput. It also reports the p99 of Handle.
func BenchmarkEngineMoves(b *testing.B) { benchEngine(b, 0) }

// BenchmarkEngineMovesPaced offers 20,000 moves/s in all to 1,000 matches (20 moves/s each,
// an open loop) and reports the latency of each move from when it was due: the latency a
// player sees at that load, which a closed loop cannot show, since there latency is
// concurrency divided by throughput.
func BenchmarkEngineMovesPaced(b *testing.B) { benchEngine(b, 20_000) }

func benchEngine(b *testing.B, rate float64) {
	const matches = 1000
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	res, err := benchmark(ctx, store, benchConfig{
		Matches: matches, Moves: max(1, (b.N+matches-1)/matches), Seed: 1, Rate: rate,
		OnStart: b.ResetTimer,
	})
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(res.MovesPerSecond(), "moves/s")
	b.ReportMetric(float64(res.P99)/float64(time.Millisecond), "p99-ms")
	b.ReportMetric(float64(res.P50)/float64(time.Millisecond), "p50-ms")
	b.ReportMetric(float64(res.CPUPerMove())/float64(time.Microsecond), "cpu-µs/move")
}

// TestBenchSmall runs `arbiter bench` on a small load, then `arbiter verify` and `arbiter
// rebuild` on the database it filled.
func TestBenchSmall(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "bench.db")
	profiles := []string{filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof"), filepath.Join(dir, "trace.out")}
	_, out := lastLine(t, "bench", "--db", db, "--matches", "12", "--moves", "30", "--duration", "0",
		"--cpuprofile", profiles[0], "--memprofile", profiles[1], "--trace", profiles[2])
	for _, want := range []string{"durable moves", "p99", "arbiter verify --db " + db} {
		if !strings.Contains(out, want) {
			t.Errorf("bench output lacks %q:\n%s", want, out)
		}
	}
	// The writer's transactions of the timed part: every one of the 360 moves is an
	// append acknowledged after its commit, so all of them are counted.
	var moves, appends, commits int
	if _, err := fmt.Sscanf(out[strings.Index(out, "moves: "):], "moves: %d durable", &moves); err != nil {
		t.Fatalf("bench output: %v:\n%s", err, out)
	}
	if i := strings.Index(out, "commits: "); i < 0 {
		t.Errorf("bench output lacks the writer's commits:\n%s", out)
	} else if _, err := fmt.Sscanf(out[i:], "commits: %d appends in %d transactions", &appends, &commits); err != nil {
		t.Errorf("bench output: %v:\n%s", err, out)
	}
	if moves != 360 || appends < moves || commits < 1 || commits > appends {
		t.Errorf("bench counted %d moves, %d appends in %d commits:\n%s", moves, appends, commits, out)
	}
	// The writer's share of the timed part: its transactions run one after another
	// within it, so more than the whole would be a miscount.
	var busy, gcs int
	if i := strings.Index(out, "writer:  "); i < 0 {
		t.Errorf("bench output lacks the writer's share:\n%s", out)
	} else if _, err := fmt.Sscanf(out[i:], "writer:  in transactions %d%%", &busy); err != nil || busy < 1 || busy > 100 {
		t.Errorf("bench output: the writer in transactions %d%% of the time (%v):\n%s", busy, err, out)
	}
	if i := strings.Index(out, "gc: "); i < 0 {
		t.Errorf("bench output lacks the garbage collections:\n%s", out)
	} else if _, err := fmt.Sscanf(out[i:], "gc: %d collections", &gcs); err != nil {
		t.Errorf("bench output: %v:\n%s", err, out)
	}
	// What the runtime measured of the timed part: 360 moves handed between goroutines
	// are waits to run, and the collector's cycles cannot be fewer than bench's own count.
	var waits, cycles int
	if i := strings.Index(out, "runq:    "); i < 0 {
		t.Errorf("bench output lacks the run queue's waits:\n%s", out)
	} else if _, err := fmt.Sscanf(out[i:], "runq:    %d waits", &waits); err != nil || waits < 1 {
		t.Errorf("bench output: %d waits to run (%v):\n%s", waits, err, out)
	}
	if i := strings.Index(out, "gc cpu:  "); i < 0 {
		t.Errorf("bench output lacks the collector's CPU:\n%s", out)
	} else if _, err := fmt.Sscanf(out[i:], "gc cpu:  %d cycles", &cycles); err != nil || cycles < gcs {
		t.Errorf("bench output: %d cycles, %d collections (%v):\n%s", cycles, gcs, err, out)
	}
	for _, p := range profiles {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("bench wrote no profile %s: %v", p, err)
		}
	}
	last, out := lastLine(t, "verify", "--db", db)
	if !strings.HasPrefix(last, "12 matches and 24 other streams") || !strings.HasSuffix(last, "all ok") {
		t.Errorf("verify after bench: %s", out)
	}
	if strings.Count(out, "FINISHED") != 8 || strings.Count(out, "LIVE") != 4 {
		t.Errorf("verify after bench: want 8 finished and 4 live matches:\n%s", out)
	}
	last, out = lastLine(t, "rebuild", "--db", db)
	if last != "  digests equal" || !strings.Contains(out, "12 matches") || !strings.Contains(out, "16 players") {
		t.Errorf("rebuild after bench:\n%s", out)
	}
	var stdout, stderr strings.Builder
	if code := run(context.Background(), []string{"bench", "--db", db, "--matches", "1"}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "already exists") {
		t.Errorf("bench into a used database: exit %d, %s", code, stderr.String())
	}
}

// TestBenchPhases: with --phases, every move of the timed part is split, its phases add up
// to its latency, none is negative (each stamp was taken after the one before it, so none
// is left over from another move's append), and the commit phases are the writer's own
// transactions: with one append per move, their sum is each transaction's length times its
// appends. Paced (an open loop, where a move can be late before it is sent) and not.
func TestBenchPhases(t *testing.T) {
	for _, rate := range []float64{0, 4000} {
		t.Run(fmt.Sprintf("rate %.0f", rate), func(t *testing.T) {
			ctx := context.Background()
			store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "bench.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			res, err := benchmark(ctx, store, benchConfig{Matches: 40, Moves: 15, Seed: 7, Rate: rate, Phases: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Moves != 40*15 || res.unsplit != 0 || len(res.split) != res.Moves || len(res.latencies) != res.Moves || res.Phases.Moves != res.Moves {
				t.Fatalf("%d moves, %d latencies, %d split, %d not split, %d in the report", res.Moves, len(res.latencies), len(res.split), res.unsplit, res.Phases.Moves)
			}
			var committing time.Duration
			for k, p := range res.split {
				for ph, d := range p {
					if d < 0 {
						t.Errorf("move %d: phase %s is %s", k, phaseNames[ph], d)
					}
				}
				if p.Total() != res.latencies[k] {
					t.Errorf("move %d: phases %v add up to %s, its latency is %s", k, p, p.Total(), res.latencies[k])
				}
				if rate == 0 && (p[phaseBacklog] != 0 || p[phaseLag] != 0) {
					t.Errorf("move %d: unpaced, yet %s of backlog and %s of lag", k, p[phaseBacklog], p[phaseLag])
				}
				committing += p[phaseCommit]
			}
			if res.Commits.Appends != res.Moves || committing != res.Commits.Waited {
				t.Errorf("the moves spent %s in transactions; the writer's %d transactions of %d appends held appends for %s",
					committing, res.Commits.Count, res.Commits.Appends, res.Commits.Waited)
			}
			var out strings.Builder
			res.print(&out)
			if !strings.Contains(out.String(), "slowest 1%, mean of 6 ") {
				t.Errorf("bench output lacks the split of the slowest moves:\n%s", out.String())
			}
		})
	}
}

// TestBenchRunsWithTheServerGODEBUG: bench, as a process of its own, runs with the
// runtime settings of serverGODEBUG unless GODEBUG names them, and an operator's wins.
func TestBenchRunsWithTheServerGODEBUG(t *testing.T) {
	for _, c := range []struct{ env, want string }{
		{"", `GODEBUG "gcshrinkstackoff=1"`},
		{"GODEBUG=madvdontneed=1", `GODEBUG "madvdontneed=1,gcshrinkstackoff=1"`},
		{"GODEBUG=gcshrinkstackoff=0", `GODEBUG "gcshrinkstackoff=0"`},
	} {
		db := filepath.Join(t.TempDir(), "b.db")
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		env := []string{"ARBITER_TEST_MAIN=bench --db " + db + " --matches 1 --moves 2"}
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "GODEBUG=") {
				env = append(env, kv)
			}
		}
		if c.env != "" {
			env = append(env, c.env)
		}
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), c.want) {
			t.Errorf("with %q: want %s in the header, got %v:\n%s", c.env, c.want, err, out)
		}
	}
}
