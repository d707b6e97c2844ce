package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/arbiter-games/arbiter/internal/diskprobe"
)

// runDiskBench is `arbiter bench disk [--dir DIR] [--duration 10s] ...`: the disk's own
// flush latency with the store's write pattern, the store left out (internal/diskprobe).
// It runs twice: the log's flushes alone, then beside checkpoint-sized bursts written to
// a second file, because on the disks measured here the bursts, not the log, made the
// flushes that took over 10 ms (docs/benchmarks.md).
func runDiskBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench disk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", os.TempDir(), "the directory to measure: where the store's file is or will be (two files are written in a new directory there and removed)")
	duration := fs.Duration("duration", 10*time.Second, "how long each of the two runs flushes")
	pages := fs.Int("pages", 12, "pages written to the log before each flush (the store writes about 12 a commit at 20,000 moves/s)")
	pageSize := fs.Int("page-size", 4096, "bytes in a page (SQLite's page size)")
	burst := fs.Int("burst", 1500, "pages of a checkpoint-sized burst written to the second file and flushed; 0 runs the log alone")
	every := fs.Duration("burst-every", 200*time.Millisecond, "time between two bursts (the store checkpoints about every 4,096 events: 0.2 s at 20,000 moves/s)")
	rate := fs.Float64("rate", 0, "appends/s offered by --clients clients to a group commit on the log, each acknowledged after its flush, latency from when it was due (as `arbiter bench --rate`): the machine's floor under the bench's figure; 0 measures the flushes back to back")
	work := fs.Duration("work", 0, "with --rate, CPU each client spends before each append (a calibrated loop), standing for the engine's work per move: `arbiter bench` prints its CPU per move")
	clients := fs.Int("clients", 1000, "with --rate, the clients offering appends (the bench's --matches)")
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	runs := []diskRun{{"log alone", 0}, {"beside bursts", *burst}}
	if *burst == 0 {
		runs = runs[:1]
	}
	if *rate > 0 {
		return runAppendsBench(ctx, stdout, stderr, runs, diskprobe.AppendsConfig{Dir: *dir, Duration: *duration, Rate: *rate, Clients: *clients, Work: *work,
			PageSize: *pageSize, BurstPages: *burst, BurstEvery: *every})
	}
	fmt.Fprintf(stdout, "bench disk: in %s, %s a run: flushes of %d pages of %d bytes", *dir, *duration, *pages, *pageSize)
	if *burst > 0 {
		fmt.Fprintf(stdout, "; then beside bursts of %d pages every %s", *burst, *every)
	}
	fmt.Fprintln(stdout)
	for _, run := range runs {
		res, err := diskprobe.Run(ctx, diskprobe.Config{Dir: *dir, Duration: *duration, Pages: *pages, PageSize: *pageSize,
			BurstPages: run.burst, BurstEvery: *every, Progress: func(elapsed time.Duration, flushes int) {
				fmt.Fprintf(stderr, "%s: %3.0fs %8d flushes\n", run.name, elapsed.Seconds(), flushes)
			}})
		if err != nil {
			return fmt.Errorf("bench disk (%s): %w", run.name, err)
		}
		secs := res.Elapsed.Seconds()
		fmt.Fprintf(stdout, "%-14s %7d flushes (%.0f/s): p50 %s, p90 %s, p99 %s, p99.9 %s, max %s; over 5ms %d, over 10ms %d (%.2f/s)\n",
			run.name+":", len(res.Latencies), float64(len(res.Latencies))/secs,
			round(res.Quantile(.5)), round(res.Quantile(.9)), round(res.Quantile(.99)), round(res.Quantile(.999)), round(res.Quantile(1)),
			res.Over(5*time.Millisecond), res.Over(10*time.Millisecond), float64(res.Over(10*time.Millisecond))/secs)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	fmt.Fprintln(stdout, "an append is acknowledged after a flush of the log: every flush over 10 ms holds every append waiting meanwhile past 10 ms")
	return nil
}

type diskRun struct {
	name  string
	burst int
}

// runAppendsBench is `bench disk --rate R`: appends acknowledged after their flush by a
// group commit with nothing of Arbiter in it, offered as `arbiter bench --rate R` offers
// moves (diskprobe.RunAppends), alone and beside the bursts.
func runAppendsBench(ctx context.Context, stdout, stderr io.Writer, runs []diskRun, cfg diskprobe.AppendsConfig) error {
	fmt.Fprintf(stdout, "bench disk: in %s, %s a run: %.0f appends/s from %d clients (%s of CPU before each), each acknowledged after the flush of its group commit", cfg.Dir, cfg.Duration, cfg.Rate, cfg.Clients, cfg.Work)
	if cfg.BurstPages > 0 {
		fmt.Fprintf(stdout, "; then beside bursts of %d pages every %s", cfg.BurstPages, cfg.BurstEvery)
	}
	fmt.Fprintln(stdout)
	for _, run := range runs {
		cfg := cfg
		cfg.BurstPages = run.burst
		cfg.Progress = func(elapsed time.Duration, acked int) {
			fmt.Fprintf(stderr, "%s: %3.0fs %8d appends acknowledged\n", run.name, elapsed.Seconds(), acked)
		}
		res, err := diskprobe.RunAppends(ctx, cfg)
		if err != nil {
			return fmt.Errorf("bench disk (%s): %w", run.name, err)
		}
		secs, a, f := res.Elapsed.Seconds(), res.Acks, res.Flushes
		fmt.Fprintf(stdout, "%-14s %7d appends (%.0f/s) in %d commits, %s of CPU per append: latency p50 %s, p99 %s, p99.9 %s, max %s, over 10ms %d (%.2f%%); commits (write and flush) p50 %s, p99 %s, max %s, over 10ms %d\n",
			run.name+":", len(a.Latencies), float64(len(a.Latencies))/secs, res.Commits, round(res.CPU/time.Duration(max(1, len(a.Latencies)))),
			round(a.Quantile(.5)), round(a.Quantile(.99)), round(a.Quantile(.999)), round(a.Quantile(1)),
			a.Over(10*time.Millisecond), 100*float64(a.Over(10*time.Millisecond))/max(1, float64(len(a.Latencies))),
			round(f.Quantile(.5)), round(f.Quantile(.99)), round(f.Quantile(1)), f.Over(10*time.Millisecond))
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	fmt.Fprintln(stdout, "nothing but the scheduler and the disk is in these latencies: `arbiter bench --rate` at the same rate cannot do better on this machine")
	return nil
}

func round(d time.Duration) time.Duration { return d.Round(time.Microsecond) }
