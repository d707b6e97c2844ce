package diskprobe

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"
)

// TestEveryAppendIsAcknowledgedAfterAFlush offers appends from a few clients, with CPU
// before each and bursts beside: every append that came back is counted once, in fewer
// commits than appends or as many, and nothing is left in the directory.
func TestEveryAppendIsAcknowledgedAfterAFlush(t *testing.T) {
	dir := t.TempDir()
	var progress []int
	res, err := RunAppends(context.Background(), AppendsConfig{Dir: dir, Duration: 1200 * time.Millisecond, Rate: 2000, Clients: 20,
		PageSize: 4096, BurstPages: 16, BurstEvery: 50 * time.Millisecond, Work: 5 * time.Microsecond,
		Progress: func(_ time.Duration, acked int) { progress = append(progress, acked) }})
	if err != nil {
		t.Fatal(err)
	}
	acks := res.Acks.Latencies
	// 2,000 appends/s for 1.2 s from 20 clients: no client sends before its append is
	// due, so there can be no more than 2,400 and the 20 due at the start (a slow disk
	// may make fewer).
	if len(acks) == 0 || len(acks) > 2420 {
		t.Errorf("%d appends acknowledged in %s at 2,000/s; want some, and no more than the schedule's 2,420", len(acks), res.Elapsed)
	}
	if res.Commits == 0 || res.Commits > len(acks) || len(res.Flushes.Latencies) != res.Commits || res.Flushes.Bursts == 0 {
		t.Errorf("%d commits (%d timed) and %d bursts for %d appends; want 1 to %d commits, each timed, and bursts",
			res.Commits, len(res.Flushes.Latencies), res.Flushes.Bursts, len(acks), len(acks))
	}
	if !slices.IsSorted(acks) || !slices.IsSorted(res.Flushes.Latencies) {
		t.Error("latencies not sorted")
	}
	if len(progress) == 0 || progress[len(progress)-1] > len(acks) {
		t.Errorf("progress %v against %d appends: want calls counting no more than were acknowledged", progress, len(acks))
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("left in %s: %v (%v)", dir, entries, err)
	}
}

func TestABadAppendsConfigIsRefusedAndWritesNothing(t *testing.T) {
	good := AppendsConfig{Duration: time.Second, Rate: 100, Clients: 1, PageSize: 4096}
	refusedWritingNothing(t, map[string]func(*AppendsConfig){
		"no duration":        func(c *AppendsConfig) { c.Duration = 0 },
		"no rate":            func(c *AppendsConfig) { c.Rate = 0 },
		"no client":          func(c *AppendsConfig) { c.Clients = 0 },
		"tiny pages":         func(c *AppendsConfig) { c.PageSize = 100 },
		"bursts without gap": func(c *AppendsConfig) { c.BurstPages = 10 },
	}, func(dir string, change func(*AppendsConfig)) error {
		cfg := good
		cfg.Dir = dir
		change(&cfg)
		_, err := RunAppends(context.Background(), cfg)
		return err
	})
}

func TestCancellingEndsTheAppendsWithoutError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	// An hour's run ends when ctx does: the test would time out otherwise.
	res, err := RunAppends(ctx, AppendsConfig{Dir: t.TempDir(), Duration: time.Hour, Rate: 1000, Clients: 10, PageSize: 4096})
	if err != nil || len(res.Acks.Latencies) == 0 {
		t.Fatalf("RunAppends cancelled = %d appends, %v; want some appends and no error", len(res.Acks.Latencies), err)
	}
}

// TestSpinCostIsPositive: --work is turned into rounds of spin by spinCost, which must be
// a cost a round can have (a zero would divide by zero; loose bounds, the test runs beside
// others).
func TestSpinCostIsPositive(t *testing.T) {
	if c := spinCost(); c <= 0 || c > 1000 {
		t.Fatalf("spinCost() = %g ns a round; want a positive cost under a microsecond", c)
	}
}
