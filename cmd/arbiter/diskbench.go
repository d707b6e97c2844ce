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
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	runs := []struct {
		name  string
		burst int
	}{{"log alone", 0}, {"beside bursts", *burst}}
	if *burst == 0 {
		runs = runs[:1]
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

func round(d time.Duration) time.Duration { return d.Round(time.Microsecond) }
