// Package diskprobe measures how long a disk takes to make writes durable, with the
// write pattern of Arbiter's SQLite store and without the store: a log file written a
// few pages at a time, each write followed by a flush (fsync), back to back, as the
// store's writer commits its write-ahead log; and, beside it if asked, bursts of pages
// written to a second file and flushed, as the store's checkpoints copy the log into the
// database file. An append is acknowledged only after its flush, so the flush's latency
// is a floor under the append's: `arbiter bench disk` prints it, so that a figure from
// `arbiter bench` can be read against the disk it ran on. RunAppends (appends.go) goes one
// step closer to the bench: appends offered at a rate by many clients and acknowledged by
// a bare group commit, the machine's floor under the bench's latency.
package diskprobe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Config is one run of the probe.
type Config struct {
	Dir      string        // where the two files are made (in a new directory, removed at the end)
	Duration time.Duration // how long the flushes run
	// Pages is how many pages of PageSize bytes each flush of the log covers (the store
	// writes about 12 at 20,000 moves/s: a few pages of events, their index, the heads).
	Pages    int
	PageSize int
	// BurstPages pages are written to the second file every BurstEvery and flushed;
	// 0 writes nothing there (the log alone). The store's checkpoint copies about
	// 1,500 pages every 0.2 s at 20,000 moves/s.
	BurstPages int
	BurstEvery time.Duration
	// Progress, if set, is called about once a second with the flushes so far.
	Progress func(elapsed time.Duration, flushes int)
}

// Result is the latency of every flush of the log in one run.
type Result struct {
	Elapsed   time.Duration
	Latencies []time.Duration // sorted
	Bursts    int             // bursts written to the second file
}

// Quantile returns the q-quantile (0 < q ≤ 1) of the flushes' latency, 0 if none.
func (r Result) Quantile(q float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	i := min(int(float64(len(r.Latencies))*q), len(r.Latencies)-1)
	return r.Latencies[i]
}

// Over counts the flushes that took longer than d.
func (r Result) Over(d time.Duration) int {
	i, _ := slices.BinarySearch(r.Latencies, d+1)
	return len(r.Latencies) - i
}

// ErrBadConfig is returned, wrapped, for a configuration that cannot run.
var ErrBadConfig = errors.New("diskprobe: bad configuration")

// Run writes and flushes for cfg.Duration (or until ctx ends, which is no error) and
// returns the latencies. It leaves nothing behind in cfg.Dir.
func Run(ctx context.Context, cfg Config) (res Result, err error) {
	if cfg.Duration <= 0 || cfg.Pages < 1 || cfg.PageSize < 512 || cfg.BurstPages < 0 || (cfg.BurstPages > 0 && cfg.BurstEvery <= 0) {
		return res, fmt.Errorf("%w: duration %s, %d pages of %d bytes a flush, bursts of %d pages every %s: need a positive duration, 1 page or more of 512 bytes or more, and a positive interval for bursts",
			ErrBadConfig, cfg.Duration, cfg.Pages, cfg.PageSize, cfg.BurstPages, cfg.BurstEvery)
	}
	files, err := newScratch(cfg.Dir, cfg.BurstPages > 0)
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, files.remove()) }()

	ctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	burstsDone := files.startBursts(ctx, cfg.BurstPages, cfg.PageSize, cfg.BurstEvery)
	start := time.Now()
	res.Latencies, err = flushes(ctx, files.log, cfg, start)
	cancel()
	var burstErr error
	res.Bursts, burstErr = burstsDone()
	res.Elapsed = time.Since(start)
	slices.Sort(res.Latencies)
	return res, errors.Join(err, burstErr)
}

// scratch is what a run writes in: a new directory under the one asked for, the log in
// it and, for bursts, a second file.
type scratch struct {
	dir     string
	log, db *os.File
}

func newScratch(parent string, withBursts bool) (s *scratch, err error) {
	dir, err := os.MkdirTemp(parent, "arbiter-diskprobe-")
	if err != nil {
		return nil, fmt.Errorf("diskprobe: make a directory to write in (is %s a writable directory?): %w", parent, err)
	}
	s = &scratch{dir: dir}
	if s.log, err = os.Create(filepath.Join(dir, "log")); err == nil && withBursts {
		s.db, err = os.Create(filepath.Join(dir, "db"))
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("diskprobe: %w", err), s.remove())
	}
	return s, nil
}

// remove closes the files and removes the directory with them.
func (s *scratch) remove() error {
	var errs []error
	for _, f := range []*os.File{s.log, s.db} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	return errors.Join(append(errs, os.RemoveAll(s.dir))...)
}

// logBytes bounds the log file: it is written over from its start, as the store's
// write-ahead log is after each checkpoint.
const logBytes = 16 << 20

// flushes writes cfg.Pages pages to f, each with a small header written on its own as
// SQLite writes a frame's, then flushes f, until ctx ends.
func flushes(ctx context.Context, f *os.File, cfg Config, start time.Time) ([]time.Duration, error) {
	page := make([]byte, cfg.PageSize)
	header := make([]byte, 24)
	var (
		lat      []time.Duration
		off      int64
		reported = start
	)
	for ctx.Err() == nil {
		for range cfg.Pages {
			if _, err := f.WriteAt(header, off); err != nil {
				return lat, fmt.Errorf("diskprobe: write the log: %w", err)
			}
			if _, err := f.WriteAt(page, off+int64(len(header))); err != nil {
				return lat, fmt.Errorf("diskprobe: write the log: %w", err)
			}
			off += int64(len(header) + len(page))
		}
		t := time.Now()
		if err := f.Sync(); err != nil {
			return lat, fmt.Errorf("diskprobe: flush the log: %w", err)
		}
		now := time.Now()
		lat = append(lat, now.Sub(t))
		if off >= logBytes {
			off = 0
		}
		if cfg.Progress != nil && now.Sub(reported) >= time.Second {
			reported = now
			cfg.Progress(now.Sub(start), len(lat))
		}
	}
	return lat, nil
}

// startBursts writes bursts to the scratch's second file, if it has one, until ctx ends;
// the function it returns waits for them to end and says how many there were.
func (s *scratch) startBursts(ctx context.Context, pages, pageSize int, every time.Duration) (wait func() (int, error)) {
	if s.db == nil {
		return func() (int, error) { return 0, nil }
	}
	var (
		n   int
		err error
	)
	done := make(chan struct{})
	go func() { defer close(done); n, err = bursts(ctx, s.db, pages, pageSize, every) }()
	return func() (int, error) { <-done; return n, err }
}

// bursts writes pages pages at the end of f every interval and flushes them, until ctx
// ends: a checkpoint copying new pages into a growing database file.
func bursts(ctx context.Context, f *os.File, pages, pageSize int, every time.Duration) (int, error) {
	page := make([]byte, pageSize)
	t := time.NewTicker(every)
	defer t.Stop()
	var off int64
	n := 0
	for {
		select {
		case <-ctx.Done():
			return n, nil
		case <-t.C:
		}
		for range pages {
			if _, err := f.WriteAt(page, off); err != nil {
				return n, fmt.Errorf("diskprobe: write the second file: %w", err)
			}
			off += int64(len(page))
		}
		if err := f.Sync(); err != nil {
			return n, fmt.Errorf("diskprobe: flush the second file: %w", err)
		}
		n++
		if off >= 1<<30 { // the file stops growing at 1 GiB: written over from its start
			off = 0
		}
	}
}
