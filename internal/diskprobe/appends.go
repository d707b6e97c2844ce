package diskprobe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/internal/cputime"
)

// Appends is the other half of the probe: not the flushes alone but appends acknowledged
// after their flush, offered on the schedule `arbiter bench --rate` uses, by as many
// clients as the bench has matches, to one writer that commits whatever is waiting in one
// flush (a group commit) and then wakes every append of it. Nothing else runs: no
// SQLite, no rules, no encoding. The latency of an append counts from when it was due,
// as the bench's does, so a run is the floor that this machine puts under the bench's
// figure at the same rate: its scheduler's wake-ups and its disk's flushes, with none of
// Arbiter's work.
type AppendsConfig struct {
	Dir      string
	Duration time.Duration
	Rate     float64 // appends/s offered in all, spread evenly over the clients
	Clients  int
	PageSize int
	// BurstPages and BurstEvery are as in Config: checkpoint-sized writes to a second
	// file beside the log.
	BurstPages int
	BurstEvery time.Duration
	// Work is CPU each client spends before each append (a loop calibrated once), to
	// stand for the rules' and the encoding's work: with it, the run shows what a given
	// CPU cost per append does to the latency on this machine's processors.
	Work     time.Duration
	Progress func(elapsed time.Duration, acked int)
}

// What one flush writes: the store's commits at 20,000 moves/s wrote about 12 WAL
// frames for 20 appends, 5 of them pages that every commit rewrites (the heads, the
// signed head, the index's root), the rest one page for about three appends
// (docs/benchmarks.md, session 17).
const (
	fixedPages     = 5
	appendsPerPage = 3
)

// AppendsResult is the latency of every acknowledged append (sorted) and of every flush.
type AppendsResult struct {
	Elapsed time.Duration
	Acks    Result        // Latencies: each append, from when it was due to its acknowledgement
	Flushes Result        // Latencies: each commit: the batch's pages written to the log and flushed
	Commits int           // flushes, each acknowledging a batch
	CPU     time.Duration // the process's CPU over the run (0 where cputime cannot tell)
}

// RunAppends offers appends for cfg.Duration (or until ctx ends, which is no error) and
// returns their latencies. It leaves nothing behind in cfg.Dir.
func RunAppends(ctx context.Context, cfg AppendsConfig) (res AppendsResult, err error) {
	if cfg.Duration <= 0 || cfg.Rate <= 0 || cfg.Clients < 1 || cfg.PageSize < 512 || cfg.BurstPages < 0 || (cfg.BurstPages > 0 && cfg.BurstEvery <= 0) {
		return res, fmt.Errorf("%w: duration %s, %g appends/s from %d clients, pages of %d bytes, bursts of %d pages every %s: need a positive duration and rate, 1 client or more, pages of 512 bytes or more, and a positive interval for bursts",
			ErrBadConfig, cfg.Duration, cfg.Rate, cfg.Clients, cfg.PageSize, cfg.BurstPages, cfg.BurstEvery)
	}
	files, err := newScratch(cfg.Dir, cfg.BurstPages > 0)
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, files.remove()) }()

	ctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	burstsDone := files.startBursts(ctx, cfg.BurstPages, cfg.PageSize, cfg.BurstEvery)
	var writerErr error

	w := &groupWriter{f: files.log, page: make([]byte, cfg.PageSize), header: make([]byte, 24), wake: make(chan struct{}, 1)}
	writerDone := make(chan struct{})
	go func() { defer close(writerDone); writerErr = w.run(ctx) }()

	cpu0 := cputime.Used()
	start := time.Now().Add(10 * time.Millisecond) // every client's first append is due after all have started
	interval := time.Duration(float64(time.Second) * float64(cfg.Clients) / cfg.Rate)
	spins := 0
	if cfg.Work > 0 {
		spins = int(float64(cfg.Work) / spinCost())
	}
	lats := make([][]time.Duration, cfg.Clients)
	var clients sync.WaitGroup
	for i := range cfg.Clients {
		clients.Go(func() {
			ack := make(chan bool, 1)
			for k := 0; ; k++ {
				due := start.Add(interval*time.Duration(k) + interval*time.Duration(i)/time.Duration(cfg.Clients))
				if time.Until(due) > 0 {
					select {
					case <-ctx.Done():
						return
					case <-time.After(time.Until(due)):
					}
				}
				spin(spins)
				if !w.submit(ack) {
					return
				}
				if !<-ack {
					return
				}
				lats[i] = append(lats[i], time.Since(due))
			}
		})
	}
	if cfg.Progress != nil {
		tick := time.NewTicker(time.Second)
		for done := false; !done; {
			select {
			case <-ctx.Done():
				done = true
			case now := <-tick.C:
				cfg.Progress(now.Sub(start), w.acked())
			}
		}
		tick.Stop()
	}
	clients.Wait()
	<-writerDone
	cancel()
	var burstErr error
	res.Flushes.Bursts, burstErr = burstsDone()
	res.Elapsed, res.CPU = time.Since(start), cputime.Used()-cpu0
	res.Acks.Latencies = slices.Concat(lats...)
	slices.Sort(res.Acks.Latencies)
	res.Flushes.Latencies, res.Commits = w.flushes, len(w.flushes)
	slices.Sort(res.Flushes.Latencies)
	return res, errors.Join(writerErr, burstErr)
}

// groupWriter is a group commit at its simplest: appends queue under a mutex; the writer
// takes the whole queue, writes its pages, flushes, and acknowledges each.
type groupWriter struct {
	f            *os.File
	page, header []byte
	wake         chan struct{}

	mu      sync.Mutex
	queue   []chan bool
	closed  bool
	nAcked  int
	flushes []time.Duration
	off     int64
}

func (w *groupWriter) submit(ack chan bool) bool {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return false
	}
	w.queue = append(w.queue, ack)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return true
}

func (w *groupWriter) acked() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.nAcked
}

func (w *groupWriter) run(ctx context.Context) error {
	var batch []chan bool
	defer func() {
		w.mu.Lock()
		w.closed = true
		batch = append(batch, w.queue...)
		w.queue = nil
		w.mu.Unlock()
		for _, ack := range batch {
			ack <- false
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-w.wake:
		}
		w.mu.Lock()
		batch, w.queue = w.queue, batch[:0]
		w.mu.Unlock()
		if len(batch) == 0 {
			continue
		}
		t := time.Now()
		for range fixedPages + (len(batch)+appendsPerPage-1)/appendsPerPage {
			if _, err := w.f.WriteAt(w.header, w.off); err != nil {
				return fmt.Errorf("diskprobe: write the log: %w", err)
			}
			if _, err := w.f.WriteAt(w.page, w.off+int64(len(w.header))); err != nil {
				return fmt.Errorf("diskprobe: write the log: %w", err)
			}
			w.off += int64(len(w.header) + len(w.page))
		}
		if w.off >= logBytes {
			w.off = 0
		}
		if err := w.f.Sync(); err != nil {
			return fmt.Errorf("diskprobe: flush the log: %w", err)
		}
		took := time.Since(t)
		for _, ack := range batch {
			ack <- true
		}
		w.mu.Lock()
		w.nAcked += len(batch)
		w.flushes = append(w.flushes, took)
		w.mu.Unlock()
		batch = batch[:0]
	}
}

// spinSink keeps the compiler from removing spin's loop.
var spinSink atomic.Uint64

// spin burns the CPU of n rounds of a small hash.
func spin(n int) {
	x := uint64(n) | 1
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	spinSink.Add(x)
}

// spinCost is the nanoseconds one round of spin takes on this processor, from the best
// of five measures of a million rounds (the least disturbed).
func spinCost() float64 {
	best := time.Duration(1<<63 - 1)
	for range 5 {
		t := time.Now()
		spin(1 << 20)
		best = min(best, time.Since(t))
	}
	return max(float64(best), 1) / (1 << 20)
}
