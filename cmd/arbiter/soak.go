package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/metrics"
	"github.com/arbiter-games/arbiter/replay/playout"
)

// runSoak is `arbiter bench soak`: a server (the engine, the read side fed over the bus,
// the archiver) on a new SQLite file, under a steady load of rated chess matches played
// by a fixed population of players, its heap (after a GC) and RSS sampled over time. Its
// memory must follow the live matches, not the throughput: the heap stays flat once the
// archive window is full.
func runSoak(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "a new SQLite file to fill (default: a new file in the temporary directory)")
	cfg := soakConfig{Progress: stderr}
	fs.IntVar(&cfg.Live, "live", 200, "matches played at once: as many pairs of players, each playing one match after another")
	fs.Float64Var(&cfg.Rate, "rate", 1000, "moves/s offered in all, spread evenly over the live matches")
	fs.IntVar(&cfg.Moves, "moves", 200, "moves (plies) per match; then it ends, by a resignation or an agreed draw in turn")
	fs.DurationVar(&cfg.Duration, "duration", 3*time.Minute, "how long the load lasts")
	fs.DurationVar(&cfg.Every, "every", 15*time.Second, "how often the heap (after a GC) and RSS are sampled")
	fs.DurationVar(&cfg.ArchiveAfter, "archive-after", time.Minute, "serve's --archive-after: how long a finished match keeps its board in memory")
	fs.StringVar(&cfg.MemProfile, "memprofile", "", "write a heap profile to this file at the end, after a GC, before the window is archived, and one to this file+\".steady\" at the first sample once the window is full (go tool pprof -base)")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "the games played are those of seed, seed+1, ... (playout.Moves)")
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	if cfg.Live < 1 || cfg.Moves < 1 || cfg.Rate <= 0 || cfg.Duration <= 0 || cfg.Every <= 0 || cfg.ArchiveAfter < 0 {
		return fmt.Errorf("--live and --moves must be 1 or more, --rate, --duration and --every above 0, --archive-after not negative")
	}
	path, err := newBenchFile("soak", *db)
	if err != nil {
		return err
	}
	if cfg.MemProfile != "" {
		runtime.MemProfileRate = 4096 // a sample per 4 KiB rather than 512 KiB: a match's few KB show
	}
	store, err := openStore(ctx, path)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "soak: %d live chess matches of %d moves, %.0f moves/s, for %s, archived %s after their end, into %s (GOMAXPROCS %d)\n",
		cfg.Live, cfg.Moves, cfg.Rate, cfg.Duration, cfg.ArchiveAfter, path, runtime.GOMAXPROCS(0))
	res, err := soak(ctx, store, cfg)
	if cerr := store.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("closing %s: %w", path, cerr)
	}
	if err != nil {
		return err
	}
	res.print(stdout)
	return nil
}

// soakConfig is one soak.
type soakConfig struct {
	Live         int
	Rate         float64
	Moves        int
	Duration     time.Duration
	Every        time.Duration
	ArchiveAfter time.Duration
	Seed         uint64
	Progress     io.Writer // a line per sample; nil for none
	MemProfile   string    // a file for the heap profile at the end; "" for none
}

// soakSample is the server's memory at one time.
type soakSample struct {
	At       time.Duration
	Heap     uint64 // bytes of live heap after a GC (runtime.MemStats.HeapAlloc)
	RSS      float64
	GoSys    uint64 // bytes the Go runtime holds from the OS and has not released (the rest of RSS is SQLite's and the binary's)
	Moves    int64  // acknowledged so far
	Finished int64  // matches ended so far
	Window   int    // finished matches whose board the read side holds (--archive-after)
	Archived int    // finished matches without it
	Cached   int    // match states the engine holds
}

func (s soakSample) String() string {
	return fmt.Sprintf("%6.0fs heap %6.1f MB  go %6.1f MB  rss %6.1f MB  moves %9d  finished %6d  in window %5d  archived %6d  engine cache %5d",
		s.At.Seconds(), float64(s.Heap)/1e6, float64(s.GoSys)/1e6, s.RSS/1e6, s.Moves, s.Finished, s.Window, s.Archived, s.Cached)
}

// soakResult is what a soak measured.
type soakResult struct {
	Samples []soakSample
	// PerWindow is what the read side frees per finished match when the window is
	// archived at the end (its board, beyond what an archived match keeps).
	PerWindow float64
	// PerArchived is the slope of the heap over the archived matches in the samples taken
	// once the window was full: what each finished match keeps for good.
	PerArchived float64
	// Growth is the heap's slope over time in those samples, in bytes per minute.
	Growth float64
	// Steady is how many samples those are.
	Steady int
}

func (r soakResult) print(w io.Writer) {
	for _, s := range r.Samples {
		fmt.Fprintln(w, s)
	}
	first, last := r.Samples[0], r.Samples[len(r.Samples)-1]
	fmt.Fprintf(w, "heap:    %.1f MB at the first sample, %.1f MB at the last; rss %.1f MB, %.1f MB\n",
		float64(first.Heap)/1e6, float64(last.Heap)/1e6, first.RSS/1e6, last.RSS/1e6)
	fmt.Fprintf(w, "steady:  over the %d samples once the archive window was full, the heap grew %.3f MB/min (least squares over time), %.0f bytes per archived match (over the matches archived)\n", r.Steady, r.Growth/1e6, r.PerArchived)
	fmt.Fprintf(w, "match:   a finished match costs %.0f bytes in the window beyond its archived form, and %.0f bytes archived (%.0f bytes in all while in the window)\n",
		r.PerWindow, r.PerArchived, r.PerWindow+r.PerArchived)
}

// soak plays cfg's load on a server over store and samples its memory.
func soak(ctx context.Context, store eventstore.Store, cfg soakConfig) (soakResult, error) {
	var res soakResult
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	a, err := startApp(ctx, store, appConfig{archiveAfter: cfg.ArchiveAfter}, slog.New(slog.DiscardHandler))
	if err != nil {
		return res, err
	}
	defer a.stop()
	eng := a.engine
	players := make([][2]string, cfg.Live)
	if err := each(ctx, cfg.Live, func(i int) error {
		for seat := range 2 {
			p, _, err := eng.RegisterPlayer(ctx, fmt.Sprintf("soak %d.%d", i, seat), "")
			if err != nil {
				return err
			}
			players[i][seat] = p.ID
		}
		return nil
	}); err != nil {
		return res, err
	}
	games := make([][]string, cfg.Live)
	for i := range games {
		games[i] = playout.Moves(cfg.Seed+uint64(i), cfg.Moves)
	}

	var (
		moves, finished atomic.Int64
		stop            atomic.Bool
		wg              sync.WaitGroup
		errs            = make([]error, cfg.Live)
	)
	interval := time.Duration(float64(time.Second) * float64(cfg.Live) / cfg.Rate)
	start := time.Now()
	sample := func() soakSample {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		rss, _ := metrics.Resident()
		by, archived := a.matches.Count()
		return soakSample{At: time.Since(start), Heap: ms.HeapAlloc, GoSys: ms.Sys - ms.HeapReleased, RSS: rss, Moves: moves.Load(), Finished: finished.Load(),
			Window: by[match.Finished] - archived, Archived: archived, Cached: eng.Cached()}
	}
	for slot := range cfg.Live {
		wg.Go(func() {
			// Slot i's moves are due every interval, the slots spread over it.
			due := start.Add(interval * time.Duration(slot) / time.Duration(cfg.Live))
			for k := 0; !stop.Load(); k++ {
				m := playout.Match{Index: k, Players: players[slot], Moves: games[(slot+k)%len(games)]}
				if k == 0 {
					// The slots' first matches are cut short in steps, so that matches
					// end evenly over time, not all at once: a sample of the heap then
					// finds as many matches in the window, and as many moves in the live
					// ones, whenever it is taken.
					m.Moves = m.Moves[:max(1, len(m.Moves)*(slot+1)/cfg.Live)]
				}
				if err := soakMatch(ctx, eng, &m, &due, interval, &stop, &moves); err != nil {
					errs[slot] = err
					stop.Store(true)
					return
				}
				if stop.Load() {
					return
				}
				ending := playout.Resign
				if k%2 == 1 {
					ending = playout.Agree
				}
				if err := m.Finish(ctx, eng, ending, len(m.Moves)); err != nil {
					errs[slot] = err
					stop.Store(true)
					return
				}
				finished.Add(1)
			}
		})
	}
	// Steady state: the samples once the first archived match has been out of the window
	// for a whole window, so that as many matches enter it as leave.
	steady := func(s soakSample) bool {
		return s.At >= cfg.ArchiveAfter+2*time.Duration(cfg.Moves)*interval && s.Archived > 0
	}
	profiled := false
	timer := time.NewTimer(cfg.Duration)
	defer timer.Stop()
	tick := time.NewTicker(cfg.Every)
	defer tick.Stop()
	for running := true; running; {
		select {
		case <-ctx.Done():
			stop.Store(true)
			running = false
		case <-timer.C:
			stop.Store(true)
			running = false
		case <-tick.C:
			if stop.Load() { // a slot failed
				running = false
				continue
			}
			s := sample()
			res.Samples = append(res.Samples, s)
			fmt.Fprintln(progress, s)
			if cfg.MemProfile != "" && !profiled && steady(s) {
				profiled = true
				if err := writeHeapProfile(cfg.MemProfile + ".steady"); err != nil {
					stop.Store(true)
					wg.Wait()
					return res, err
				}
			}
		}
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return res, err
		}
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	// The read side has applied every event once its position is the store's head.
	head, err := store.HeadPosition(ctx)
	if err != nil {
		return res, err
	}
	if err := waitFor(ctx, time.Minute, func() bool { return a.follower.Position() >= head }); err != nil {
		return res, fmt.Errorf("the read side did not reach the store's head %d: %w", head, err)
	}
	last := sample()
	res.Samples = append(res.Samples, last)
	if cfg.MemProfile != "" {
		if err := writeHeapProfile(cfg.MemProfile); err != nil {
			return res, err
		}
	}
	if by, _ := a.matches.Count(); int64(by[match.Finished]) != finished.Load() {
		return res, fmt.Errorf("the read side holds %d finished matches, %d were played to their end", by[match.Finished], finished.Load())
	}
	a.matches.Archive(time.Now().Add(cfg.ArchiveAfter))
	after := sample()
	if last.Window > 0 {
		res.PerWindow = (float64(last.Heap) - float64(after.Heap)) / float64(last.Window)
	}
	// The slopes are over the samples taken under the load: the last one, once it has
	// stopped, finds none of the moves in flight, and would bend them down.
	var full []soakSample
	for _, s := range res.Samples[:len(res.Samples)-1] {
		if steady(s) {
			full = append(full, s)
		}
	}
	res.Steady = len(full)
	res.PerArchived = slope(full, func(s soakSample) float64 { return float64(s.Archived) })
	res.Growth = slope(full, func(s soakSample) float64 { return s.At.Minutes() })
	return res, nil
}

// soakMatch creates m's match with its players seated, and plays its moves, each when
// it is due, until they are played or stop is set.
func soakMatch(ctx context.Context, eng *engine.Engine, m *playout.Match, due *time.Time, interval time.Duration, stop *atomic.Bool, moves *atomic.Int64) error {
	meta := func(what string, seat int) engine.Meta {
		return engine.Meta{CommandID: fmt.Sprintf("soak-%d-%s", m.Index, what), Actor: "player:" + m.Players[seat]}
	}
	ack, err := eng.Create(ctx, engine.CreateMatch{Game: classic.ID, Rated: true, By: m.Players[0]}, meta("create", 0))
	if err != nil {
		return fmt.Errorf("soak: creating a match: %w", err)
	}
	m.ID = ack.MatchID
	for seat, p := range m.Players {
		s := seat
		if _, err := eng.Handle(ctx, m.ID, match.Join{PlayerID: p, Name: p, Seat: &s}, meta(fmt.Sprintf("join%d", seat), seat)); err != nil {
			return fmt.Errorf("soak: seating %s in %s: %w", p, m.ID, err)
		}
	}
	for ply := range m.Moves {
		if stop.Load() {
			return nil
		}
		time.Sleep(time.Until(*due))
		*due = due.Add(interval)
		if err := m.Play(ctx, eng, ply, ply+1, nil); err != nil {
			return err
		}
		moves.Add(1)
	}
	return nil
}

// slope is the least-squares slope of the heap over x in samples (0 for fewer than two).
func slope(samples []soakSample, x func(soakSample) float64) float64 {
	n := float64(len(samples))
	if n < 2 {
		return 0
	}
	var sx, sy, sxx, sxy float64
	for _, s := range samples {
		xi, yi := x(s), float64(s.Heap)
		sx, sy, sxx, sxy = sx+xi, sy+yi, sxx+xi*xi, sxy+xi*yi
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}

// writeHeapProfile writes the heap's profile to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("writing the heap profile: %w", err)
	}
	return f.Close()
}
