package diskprobe

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"
	"time"
)

func TestRunFlushesBesideBurstsAndLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	var progress []int
	res, err := Run(context.Background(), Config{Dir: dir, Duration: 1200 * time.Millisecond, Pages: 2, PageSize: 4096,
		BurstPages: 16, BurstEvery: 50 * time.Millisecond, Progress: func(_ time.Duration, n int) { progress = append(progress, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Latencies) == 0 || res.Bursts == 0 {
		t.Fatalf("%d flushes and %d bursts in %s; want some of each", len(res.Latencies), res.Bursts, res.Elapsed)
	}
	if !slices.IsSorted(res.Latencies) || res.Latencies[0] <= 0 {
		t.Errorf("latencies not sorted or not positive: first %s", res.Latencies[0])
	}
	if q50, q99, max := res.Quantile(.5), res.Quantile(.99), res.Quantile(1); q50 > q99 || q99 > max || max != res.Latencies[len(res.Latencies)-1] {
		t.Errorf("quantiles out of order: p50 %s, p99 %s, max %s", q50, q99, max)
	}
	if len(progress) == 0 || progress[0] <= 0 {
		t.Errorf("progress %v: want a call after the first second", progress)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("left in %s: %v (%v)", dir, entries, err)
	}
}

func TestTheLogAloneWritesNoSecondFile(t *testing.T) {
	res, err := Run(context.Background(), Config{Dir: t.TempDir(), Duration: 100 * time.Millisecond, Pages: 1, PageSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Latencies) == 0 || res.Bursts != 0 {
		t.Errorf("%d flushes, %d bursts; want flushes and no bursts", len(res.Latencies), res.Bursts)
	}
}

func TestABadConfigIsRefusedAndWritesNothing(t *testing.T) {
	good := Config{Duration: time.Second, Pages: 1, PageSize: 4096}
	refusedWritingNothing(t, map[string]func(*Config){
		"no duration":        func(c *Config) { c.Duration = 0 },
		"no pages":           func(c *Config) { c.Pages = 0 },
		"tiny pages":         func(c *Config) { c.PageSize = 100 },
		"negative burst":     func(c *Config) { c.BurstPages = -1 },
		"bursts without gap": func(c *Config) { c.BurstPages = 10 },
	}, func(dir string, change func(*Config)) error {
		cfg := good
		cfg.Dir = dir
		change(&cfg)
		_, err := Run(context.Background(), cfg)
		return err
	})
}

// refusedWritingNothing runs each change of a good configuration in a directory of its
// own: each must be refused with ErrBadConfig, leaving the directory empty.
func refusedWritingNothing[C any](t *testing.T, changes map[string]func(*C), run func(dir string, change func(*C)) error) {
	t.Helper()
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := run(dir, change); !errors.Is(err, ErrBadConfig) {
				t.Errorf("the run = %v; want ErrBadConfig", err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("a refused run wrote %v", entries)
			}
		})
	}
}

func TestAMissingDirectoryIsNamed(t *testing.T) {
	dir := t.TempDir() + "/not-there"
	_, err := Run(context.Background(), Config{Dir: dir, Duration: time.Second, Pages: 1, PageSize: 4096})
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Run in %s = %v; want an error wrapping os.ErrNotExist", dir, err)
	}
}

func TestCancellingEndsTheRunWithoutError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	// An hour's run ends when ctx does: the test would time out otherwise.
	res, err := Run(ctx, Config{Dir: t.TempDir(), Duration: time.Hour, Pages: 1, PageSize: 4096, BurstPages: 4, BurstEvery: 10 * time.Millisecond})
	if err != nil || len(res.Latencies) == 0 {
		t.Fatalf("Run cancelled = %d flushes, %v; want some flushes and no error", len(res.Latencies), err)
	}
}

func TestOverCountsStrictlyLonger(t *testing.T) {
	r := Result{Latencies: []time.Duration{1, 5, 10, 10, 11, 20}}
	for d, want := range map[time.Duration]int{0: 6, 5: 4, 10: 2, 11: 1, 20: 0, 100: 0} {
		if got := r.Over(d); got != want {
			t.Errorf("Over(%d) = %d; want %d", d, got, want)
		}
	}
	if (Result{}).Quantile(.99) != 0 {
		t.Error("the quantile of no flush is not 0")
	}
}
