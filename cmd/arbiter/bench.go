package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/replay/playout"

	"github.com/arbiter-games/arbiter/internal/cputime"
	"github.com/arbiter-games/arbiter/internal/schedstats"
)

func init() {
	register("bench", "fill a new database through the engine with concurrent chess matches and measure durable moves/s and latency; bench spectators loads a server with websocket spectators; bench boot times a server's boot until /readyz; bench soak samples a loaded server's memory; bench disk measures the disk's own flush latency with the store's write pattern", runBench)
}

// runBench is `arbiter bench [--db FILE] [--matches 1000] [--moves 200] [--duration 10s]`.
// `arbiter bench spectators ...` is the load test of live subscriptions (spectators.go);
// `arbiter bench boot ...` measures a server's boot on a store (bootbench.go);
// `arbiter bench disk ...` measures the disk's flushes without the store (diskbench.go).
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "spectators" {
		return runSpectators(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "boot" {
		return runBootBench(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "soak" {
		return runSoak(ctx, args[1:], stdout, stderr) // soak.go
	}
	if len(args) > 0 && args[0] == "disk" {
		return runDiskBench(ctx, args[1:], stdout, stderr) // diskbench.go
	}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "a new SQLite file to fill (default: a new file in the temporary directory; never $ARBITER_DB)")
	matches := fs.Int("matches", 1000, "chess matches played at once")
	moves := fs.Int("moves", 200, "moves (plies) per match")
	duration := fs.Duration("duration", 10*time.Second, "stop playing after this long, even if moves remain; 0 for no limit")
	seed := fs.Uint64("seed", 1, "match i plays the pseudo-random game of seed+i")
	rate := fs.Float64("rate", 0, "moves/s offered in all, spread evenly over the matches (open loop; latency counts from when each move was due); 0 plays as fast as acknowledgements come back")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the timed part (the moves) to this file")
	memProfile := fs.String("memprofile", "", "write an allocation profile (pprof allocs, taken after the moves) to this file")
	traceFile := fs.String("trace", "", "write an execution trace of the timed part to this file (go tool trace)")
	phases := fs.Bool("phases", false, "split each move's latency where it changes hands (due, Handle, the writer's queue, its transaction, the wake-up, the fold) and print the split of the median and the slowest 1 % of moves")
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	if *matches < 1 || *moves < 1 || *duration < 0 || *rate < 0 {
		return fmt.Errorf("--matches and --moves must be 1 or more and --duration not negative (got %d, %d, %s)", *matches, *moves, *duration)
	}
	path, err := newBenchFile("bench", *db)
	if err != nil {
		return err
	}
	store, err := openStore(ctx, path)
	if err != nil {
		return err
	}
	if head, err := store.HeadPosition(ctx); err != nil || head > 0 {
		store.Close()
		return cmp.Or(err, fmt.Errorf("%s already holds events: bench fills a new database, pass another --db", describeStore(path)))
	}
	fmt.Fprintf(stdout, "bench: %d chess matches x %d moves into %s (GOMAXPROCS %d, GODEBUG %q)\n", *matches, *moves, describeStore(path), runtime.GOMAXPROCS(0), os.Getenv("GODEBUG"))
	prof := profiles{cpu: *cpuProfile, mem: *memProfile, trace: *traceFile}
	res, err := benchmark(ctx, store, benchConfig{Matches: *matches, Moves: *moves, Duration: *duration, Seed: *seed, Rate: *rate, Progress: stderr,
		Phases: *phases, OnStart: prof.start, OnStop: prof.stop})
	err = errors.Join(err, prof.err)
	if cerr := store.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("closing %s: %w", path, cerr)
	}
	if err != nil {
		return err
	}
	res.print(stdout)
	fmt.Fprintf(stdout, "check it with: arbiter verify --db %s && arbiter rebuild --db %s\n", path, path)
	return nil
}

// benchConfig is one run of the benchmark.
type benchConfig struct {
	Matches  int
	Moves    int
	Duration time.Duration // 0: play every move
	Seed     uint64
	// Rate, when above 0, offers that many moves per second in all: match i plays its moves
	// on a fixed schedule, one every Matches/Rate seconds, and a move's latency counts from
	// when it was due, so a slow store shows as latency rather than as fewer requests
	// (an open loop). 0 plays each move as soon as the previous one is acknowledged.
	Rate     float64
	Progress io.Writer // a line per second while playing; nil for none
	// Phases splits each move's latency (phases.go): the appends carry an
	// eventstore.AppendTrace, which costs four clock readings per move.
	Phases  bool
	OnStart func() // called when setup is done and the timed part starts
	OnStop  func() // called when the timed part ends
}

// profiles writes the profiles asked for by bench's flags, of the timed part only.
type profiles struct {
	cpu, mem, trace string
	files           []*os.File
	err             error
}

func (p *profiles) create(path string) *os.File {
	f, err := os.Create(path)
	if err != nil {
		p.err = errors.Join(p.err, err)
		return nil
	}
	p.files = append(p.files, f)
	return f
}

func (p *profiles) start() {
	if p.cpu != "" {
		if f := p.create(p.cpu); f != nil {
			p.err = errors.Join(p.err, pprof.StartCPUProfile(f))
		}
	}
	if p.trace != "" {
		if f := p.create(p.trace); f != nil {
			p.err = errors.Join(p.err, trace.Start(f))
		}
	}
}

func (p *profiles) stop() {
	if p.cpu != "" {
		pprof.StopCPUProfile()
	}
	if p.trace != "" {
		trace.Stop()
	}
	if p.mem != "" {
		if f := p.create(p.mem); f != nil {
			p.err = errors.Join(p.err, pprof.Lookup("allocs").WriteTo(f, 0))
		}
	}
	for _, f := range p.files {
		p.err = errors.Join(p.err, f.Close())
	}
}

// benchResult is what a run measured.
type benchResult struct {
	Matches       int
	Setup         time.Duration // registering players, creating and seating: not timed
	Moves         int           // moves acknowledged (durable) in the timed part
	Elapsed       time.Duration
	P50, P99, Max time.Duration // of engine.Handle, per move
	Finished      int           // matches ended afterwards (resigned, agreed, or over by the rules)
	CPU           time.Duration // CPU time of the whole process (user and system) in the timed part
	GCs           uint32        // garbage collections in the timed part
	GCPause       time.Duration // their stop-the-world pauses, in all
	// Runtime is what the Go runtime measured of the timed part: how long goroutines
	// waited to run once runnable, and the collector's share of the CPU. A latency tail
	// with long waits to run comes from the run queue, not from the store.
	Runtime schedstats.Report
	// Commits is what the store's writer did in the timed part, if it tells
	// (eventstore.CommitObserver): its transactions' durations and sizes.
	Commits commitStats
	// Phases is the split of the moves' latencies, with benchConfig.Phases (phased).
	Phases phaseReport
	phased bool
	// latencies and split are each move's latency and its phases, in the same order,
	// with benchConfig.Phases, unless the store left some moves unstamped (unsplit).
	latencies []time.Duration
	split     []movePhases
	unsplit   int
}

// commitStats summarizes the transactions of a store's single writer.
type commitStats struct {
	Count, Appends int
	P50, P99, Max  time.Duration
	Over10ms       int
	// Busy is the writer's time in transactions: near the timed part's length, the
	// writer is the bottleneck and a move waits for whole transactions in a queue.
	Busy time.Duration
	// Waited is the time the appends spent in transactions: each transaction's length
	// times its appends. With one append per move it is the sum of the moves' commit phase.
	Waited time.Duration
}

func summarizeCommits(cs []eventstore.Commit) commitStats {
	st := commitStats{Count: len(cs)}
	took := make([]time.Duration, len(cs))
	for i, c := range cs {
		st.Appends += c.Appends
		took[i] = c.Took
		st.Busy += c.Took
		st.Waited += c.Took * time.Duration(c.Appends)
		if c.Took > 10*time.Millisecond {
			st.Over10ms++
		}
	}
	if len(took) > 0 {
		slices.Sort(took)
		st.P50, st.P99, st.Max = took[len(took)*50/100], took[min(len(took)*99/100, len(took)-1)], took[len(took)-1]
	}
	return st
}

// CPUPerMove is the process's CPU time per durable move: unlike moves/s, it hardly moves
// when other programs share the machine.
func (r benchResult) CPUPerMove() time.Duration { return r.CPU / time.Duration(max(r.Moves, 1)) }

// MovesPerSecond is the durable throughput of the timed part.
func (r benchResult) MovesPerSecond() float64 { return float64(r.Moves) / r.Elapsed.Seconds() }

func (r benchResult) print(w io.Writer) {
	fmt.Fprintf(w, "setup:   %d matches, %d players registered, created and seated in %s\n", r.Matches, 2*r.Matches, r.Setup.Round(time.Millisecond))
	fmt.Fprintf(w, "moves:   %d durable moves in %s: %.0f moves/s\n", r.Moves, r.Elapsed.Round(time.Millisecond), r.MovesPerSecond())
	fmt.Fprintf(w, "latency: per move (from when it was due, with --rate) p50 %s, p99 %s, max %s\n", r.P50.Round(time.Microsecond), r.P99.Round(time.Microsecond), r.Max.Round(time.Microsecond))
	fmt.Fprintf(w, "cpu:     %s of CPU per move (all goroutines, the store's writer included)\n", r.CPUPerMove().Round(time.Microsecond))
	fmt.Fprintf(w, "gc:      %d collections, %s of pauses in all\n", r.GCs, r.GCPause.Round(time.Microsecond))
	fmt.Fprintln(w, r.Runtime)
	if c := r.Commits; c.Count > 0 {
		fmt.Fprintf(w, "commits: %d appends in %d transactions (%.1f each), each took p50 %s, p99 %s, max %s; %d over 10ms\n",
			c.Appends, c.Count, float64(c.Appends)/float64(c.Count), c.P50.Round(time.Microsecond), c.P99.Round(time.Microsecond), c.Max.Round(time.Microsecond), c.Over10ms)
		fmt.Fprintf(w, "writer:  in transactions %.0f%% of the timed part\n", 100*c.Busy.Seconds()/r.Elapsed.Seconds())
	}
	if r.phased {
		r.Phases.print(w)
		if r.unsplit > 0 {
			fmt.Fprintf(w, "         %d moves not split: their appends were not stamped\n", r.unsplit)
		}
	}
}

// benchmark plays cfg.Matches chess matches at once through a real engine on store: each
// match's moves are chosen before the clock starts (playout.Moves), every move is one
// engine.Handle, acknowledged only once durable. After the timed part, two thirds of the
// matches are ended (resignation, agreement) so that the store holds every kind of match.
func benchmark(ctx context.Context, store eventstore.Store, cfg benchConfig) (benchResult, error) {
	res := benchResult{Matches: cfg.Matches}
	eng := engine.New(engine.Config{Store: store, Games: games(), Logger: slog.New(slog.DiscardHandler)})
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}

	start := time.Now()
	ms := make([]playout.Match, cfg.Matches)
	if err := each(ctx, cfg.Matches, func(i int) (err error) {
		ms[i], err = playout.Create(ctx, eng, i, cfg.Seed+uint64(i), cfg.Moves)
		return err
	}); err != nil {
		return res, err
	}
	res.Setup = time.Since(start)
	fmt.Fprintf(progress, "setup done in %s; playing\n", res.Setup.Round(time.Millisecond))

	var (
		done      atomic.Int64
		stop      atomic.Bool
		latencies = make([][]time.Duration, cfg.Matches)
		splits    = make([][]movePhases, cfg.Matches)
		unsplit   atomic.Int64
		played    = make([]int, cfg.Matches)
	)
	// The writer's transactions in the timed part, when the store tells them: every move
	// is acknowledged only after its commit, so once the moves are done no commit of the
	// timed part is still to come.
	var (
		commitsMu sync.Mutex
		commits   []eventstore.Commit
	)
	observer, _ := store.(eventstore.CommitObserver)
	if observer != nil {
		observer.ObserveCommits(func(c eventstore.Commit) {
			commitsMu.Lock()
			commits = append(commits, c)
			commitsMu.Unlock()
		})
	}
	if cfg.OnStart != nil {
		cfg.OnStart()
	}
	var mem0, mem1 runtime.MemStats
	runtime.ReadMemStats(&mem0)
	start, cpu0, sched0 := time.Now(), cputime.Used(), schedstats.Take()
	quit := make(chan struct{})
	var reporter sync.WaitGroup
	reporter.Go(func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		last := int64(0)
		for {
			select {
			case <-quit:
				return
			case now := <-t.C:
				n := done.Load()
				fmt.Fprintf(progress, "%5.0fs %9d moves %7d moves/s\n", now.Sub(start).Seconds(), n, n-last)
				last = n
			}
		}
	})
	if cfg.Duration > 0 {
		timer := time.AfterFunc(cfg.Duration, func() { stop.Store(true) })
		defer timer.Stop()
	}
	err := each(ctx, cfg.Matches, func(i int) error {
		m := ms[i]
		lat := make([]time.Duration, 0, len(m.Moves))
		var split []movePhases
		defer func() { latencies[i], splits[i] = lat, split }()
		var interval time.Duration
		if cfg.Rate > 0 {
			interval = time.Duration(float64(time.Second) * float64(cfg.Matches) / cfg.Rate)
		}
		mctx, trace := ctx, (*eventstore.AppendTrace)(nil)
		if cfg.Phases {
			trace = new(eventstore.AppendTrace)
			mctx = eventstore.WithAppendTrace(ctx, trace)
			split = make([]movePhases, 0, len(m.Moves))
		}
		var prev time.Time // when the match's previous move returned
		for ply := range m.Moves {
			if stop.Load() {
				return nil
			}
			var due time.Time // zero: the move is due when it is sent (no --rate)
			if interval > 0 {
				due = start.Add(interval*time.Duration(ply) + interval*time.Duration(i)/time.Duration(cfg.Matches))
				time.Sleep(time.Until(due))
			}
			record := func(begin, end time.Time) {
				if due.IsZero() {
					due = begin
				}
				lat = append(lat, end.Sub(due))
				if trace != nil {
					if p, ok := splitMove(due, prev, begin, end, trace); ok {
						split = append(split, p)
					} else {
						unsplit.Add(1)
					}
				}
				prev = end
			}
			if trace != nil {
				*trace = eventstore.AppendTrace{}
			}
			if err := m.Play(mctx, eng, ply, ply+1, record); err != nil {
				return err
			}
			played[i] = ply + 1
			done.Add(1)
		}
		return nil
	})
	res.Elapsed, res.CPU, res.Runtime = time.Since(start), cputime.Used()-cpu0, schedstats.Take().Since(sched0)
	runtime.ReadMemStats(&mem1)
	res.GCs, res.GCPause = mem1.NumGC-mem0.NumGC, time.Duration(mem1.PauseTotalNs-mem0.PauseTotalNs)
	if cfg.OnStop != nil {
		cfg.OnStop()
	}
	if observer != nil {
		observer.ObserveCommits(nil)
		commitsMu.Lock()
		res.Commits = summarizeCommits(commits)
		commitsMu.Unlock()
	}
	close(quit)
	reporter.Wait()
	if err != nil {
		return res, err
	}
	all := slices.Concat(latencies...)
	if cfg.Phases {
		res.phased = true
		res.latencies, res.split, res.unsplit = slices.Clone(all), slices.Concat(splits...), int(unsplit.Load())
		res.Phases = reportPhases(slices.Clone(res.split))
	}
	slices.Sort(all)
	res.Moves = len(all)
	if len(all) > 0 {
		res.P50, res.P99, res.Max = all[len(all)*50/100], all[min(len(all)*99/100, len(all)-1)], all[len(all)-1]
	}

	var finished atomic.Int64
	err = each(ctx, cfg.Matches, func(i int) error {
		if err := ms[i].Finish(ctx, eng, playout.EndingOf(i), played[i]); err != nil {
			return err
		}
		if snap, err := eng.Match(ctx, ms[i].ID); err == nil && snap.State.Result != nil {
			finished.Add(1)
		}
		return nil
	})
	res.Finished = int(finished.Load())
	return res, err
}

// each runs f(0..n-1) concurrently and returns the first error; after an error the
// remaining calls still run (they are short), which keeps the code free of cancellation.
func each(ctx context.Context, n int, f func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if ctx.Err() != nil {
				errs[i] = ctx.Err()
				return
			}
			errs[i] = f(i)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// newBenchFile is the database a measuring command (bench, soak) fills: path, or a new
// file in the temporary directory named after the command, the time and the process (two
// soaks started in one second once shared a file, and one died of SQLITE_BUSY). A
// benchmark writes thousands of players and matches: never into a database in use, so an
// existing file is refused.
func newBenchFile(command, path string) (string, error) {
	if path == "" {
		path = filepath.Join(os.TempDir(), fmt.Sprintf("arbiter-%s-%s-%d.db", command, time.Now().Format("20060102-150405"), os.Getpid()))
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		return "", fmt.Errorf("%s already exists: %s fills a new database, pass another --db", path, command)
	}
	return path, nil
}
