package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/internal/cputime"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/replay"
)

func init() {
	register("rebuild", "rebuild every projection (from the newest snapshot that fits, else from zero), measure it and check it against an incremental feed", runRebuild)
}

// runRebuild is `arbiter rebuild [--db FILE] [--key FILE] [--head-log FILE] [--cpuprofile FILE]
// [--snapshots DIR] [--from-zero] [--verify-snapshot]`. The read models live in memory (the
// server rebuilds them at boot), so this is a check and a measurement: it rebuilds them
// as the server's boot does, from the newest snapshot that fits (unless --from-zero) and
// then with projections.Rebuild; with --verify-snapshot it folds new models from zero too
// and fails if any digest differs from the snapshot's and its tail's. Then it feeds fresh ones the same events
// one at a time through the store's subscription, as a live server is fed, and fails if
// any digest differs. Before, it checks the store's head as serve does at boot
// (replay.CheckSignedHead): read models rebuilt from a store that lost acknowledged events would
// lack them without a word.
func runRebuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("rebuild", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := dbFlag(fs)
	keys := addKeyFlags(fs)
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the paged pass to this file (go tool pprof reads it)")
	snaps := addSnapshotFlags(fs, false)
	fromZero := fs.Bool("from-zero", false, "ignore the snapshots: fold every event from zero")
	verifySnapshot := fs.Bool("verify-snapshot", false, "also fold from zero, and fail unless every model's digest equals the snapshot's and its tail's")
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	if err := checkDB(dbPath(*db)); err != nil {
		return err
	}
	keyFile, logFile, explicitLog := keys.paths(dbPath(*db))
	pub, err := publicKey(keyFile)
	if err != nil {
		return err
	}
	logged, _, err := loggedHeads(logFile, explicitLog)
	if err != nil {
		return err
	}
	store, err := openExisting(ctx, dbPath(*db), keyFile)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := replay.CheckSignedHead(ctx, store, pub, logged); err != nil {
		return err
	}
	head, err := store.HeadPosition(ctx)
	if err != nil {
		return fmt.Errorf("reading the store's head: %w", err)
	}

	rebuilt := readModels(store, nil)
	from, used := int64(0), ""
	begin, cpuBegin := time.Now(), cputime.Used()
	if dir := snapshotDir(*snaps.dir, dbPath(*db)); !*fromZero && dir != "" {
		// The snapshots count the rows of the node's archive index: the models read a copy
		// of it, and leave the node's own as it is.
		var archive *projections.ArchiveFile
		if archive, err = projections.CopyArchiveFile(ctx, archivePath(dir)); err != nil {
			return err
		}
		defer archive.Close()
		var refused []*projections.Refused
		used, refused, err = projections.LoadSnapshot(ctx, store, dir, func() []projections.Stored {
			rebuilt = readModels(store, archive)
			return storedOf(rebuilt)
		})
		if err != nil {
			return err
		}
		for _, r := range refused {
			if used != "" {
				fmt.Fprintf(stdout, "%v: starting from the older %s\n", r, used)
			} else {
				fmt.Fprintf(stdout, "%v: folding from zero\n", r)
			}
		}
		if used != "" {
			from = lowestCheckpoint(rebuilt)
			fmt.Fprintf(stdout, "read the snapshot %s in %s: the models are at position %d of %d\n", used, rounded(time.Since(begin)), from, head)
			if m, ok := rebuilt[0].(*projections.Matches); ok {
				r := m.RestoredStates()
				fmt.Fprintf(stdout, "live matches: %d game states read back, %d folded again (%d without a stored form, %d that did not read back)\n",
					r.Decoded, r.Unstored+r.Refused, r.Unstored, r.Refused)
				if r.Refused > 0 {
					fmt.Fprintf(stdout, "  the first that did not read back: %s\n", r.FirstRefused)
				}
			}
		}
	}
	if *verifySnapshot && used == "" {
		return fmt.Errorf("--verify-snapshot: no snapshot was read, there is nothing to verify")
	}
	stopProfile, err := startCPUProfile("--cpuprofile", *cpuProfile)
	if err != nil {
		return err
	}
	defer func() {
		if err := stopProfile(); err != nil {
			fmt.Fprintln(stderr, err)
		}
	}()
	restore := lessGC() // as the server's boot
	defer restore()
	start, cpu0 := time.Now(), cputime.Used()
	tick := newTicker(time.Second)
	err = projections.Rebuild(ctx, store, func(pos, head int64) {
		if tick.due() {
			fmt.Fprintf(stderr, "rebuild: %d of %d events, %.0f events/s\n", pos, head, float64(pos-from)/time.Since(start).Seconds())
		}
	}, fedOf(rebuilt)...)
	if err != nil {
		return err
	}
	took, cpu := time.Since(start), cputime.Used()-cpu0
	restore()
	pprof.StopCPUProfile() // the paged pass alone
	if used == "" {
		fmt.Fprintf(stdout, "rebuilt %d projections from %d events in %s: %.0f events/s, %s of CPU per event\n", len(rebuilt), head, took.Round(time.Millisecond), float64(head)/took.Seconds(), perEvent(cpu, head))
	} else {
		if tail := head - from; tail > 0 {
			fmt.Fprintf(stdout, "folded the tail: %d events after position %d in %s: %.0f events/s, %s of CPU per event\n", tail, from, rounded(took), float64(tail)/took.Seconds(), perEvent(cpu, tail))
		} else {
			fmt.Fprintln(stdout, "no events after the snapshot: it is at the store's head")
		}
		fmt.Fprintf(stdout, "%d projections ready in %s (the snapshot read in %s, the tail folded in %s), %s of CPU\n", len(rebuilt),
			rounded(time.Since(begin)), rounded(start.Sub(begin)), rounded(took), cpuUsed(cputime.Used()-cpuBegin))
	}
	for _, p := range rebuilt {
		fmt.Fprintf(stdout, "  %-8s %s\n", p.Name(), p.Digest())
	}
	for _, p := range rebuilt {
		if m, ok := p.(*projections.Matches); ok {
			for _, u := range m.SetAside() {
				fmt.Fprintf(stdout, "  set aside: %v (the server refuses it with MATCH_UNAVAILABLE; see `arbiter verify --match %s`)\n", u, u.Match)
			}
		}
	}

	if *verifySnapshot {
		zero := readModels(store, nil)
		start := time.Now()
		restore := lessGC()
		err := projections.Rebuild(ctx, store, nil, fedOf(zero)...)
		restore()
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "folded the same models from zero in %s\n", time.Since(start).Round(time.Millisecond))
		if err := sameDigests(stdout, "snapshot and tail", rebuilt, "from zero", zero); err != nil {
			return fmt.Errorf("the snapshot does not fold as the store does: %w", err)
		}
	}

	fed := readModels(store, nil)
	start, cpu0 = time.Now(), cputime.Used()
	if err := feed(ctx, store, head, fedOf(fed), stderr); err != nil {
		return err
	}
	took, cpu = time.Since(start), cputime.Used()-cpu0
	fmt.Fprintf(stdout, "fed the same %d events one at a time through a subscription in %s: %.0f events/s, %s of CPU per event\n", head, took.Round(time.Millisecond), float64(head)/took.Seconds(), perEvent(cpu, head))
	if err := sameDigests(stdout, "rebuild", rebuilt, "incremental", fed); err != nil {
		return fmt.Errorf("%w between the rebuild and the incremental feed: a projection depends on how its events are paged", err)
	}
	return nil
}

// sameDigests prints the models of a and b (readModels, named aName and bName) whose
// digests differ, or that they are equal, and fails when any differs.
func sameDigests(stdout io.Writer, aName string, a []projections.Projection, bName string, b []projections.Projection) error {
	differ := 0
	for i, p := range b {
		if x, y := a[i].Digest(), p.Digest(); x != y {
			differ++
			fmt.Fprintf(stdout, "  %-8s DIFFERS: %s %s, %s %s\n", p.Name(), aName, x, bName, y)
		}
	}
	if differ > 0 {
		return fmt.Errorf("%d projection(s) differ", differ)
	}
	fmt.Fprintln(stdout, "  digests equal")
	return nil
}

// storedOf is the models of readModels that a snapshot holds: those fed events.
func storedOf(models []projections.Projection) []projections.Stored {
	var out []projections.Stored
	for _, p := range fedOf(models) {
		out = append(out, p.(projections.Stored))
	}
	return out
}

// lowestCheckpoint is where a rebuild of models starts.
func lowestCheckpoint(models []projections.Projection) int64 {
	low := int64(-1)
	for _, p := range models {
		if c := p.Checkpoint(); low < 0 || c < low {
			low = c
		}
	}
	return max(low, 0)
}

// readModels returns fresh, empty projections: every read model the server keeps, as
// the server wires them: the ratings are the economy's own (fed by it, as the API reads
// them), listed for their digest. The matches are archived at once: read back from store;
// their index is archive when not nil, else in memory.
func readModels(store eventstore.Store, archive *projections.ArchiveFile) []projections.Projection {
	reg := games()
	economy := projections.NewEconomy(reg)
	opts := []projections.MatchesOption{projections.ArchiveAfter(0, store)}
	if archive != nil {
		opts = append(opts, projections.ArchiveIndex(archive))
	}
	return []projections.Projection{projections.NewMatches(reg, opts...), economy.RatingsModel(), projections.NewCardsPlayed(reg), economy, projections.NewChoices(reg), projections.NewDisputes()}
}

// fedOf is the models of readModels that are fed events: all but the economy's ratings,
// which the economy feeds.
func fedOf(models []projections.Projection) []projections.Projection {
	return slices.DeleteFunc(slices.Clone(models), func(p projections.Projection) bool {
		_, ok := p.(*projections.Ratings)
		return ok
	})
}

// perEvent is the CPU time per event of n, or "unknown" where the system does not say.
func perEvent(cpu time.Duration, n int64) string {
	if cpu <= 0 || n <= 0 {
		return "unknown"
	}
	return (cpu / time.Duration(n)).String()
}

// cpuUsed is cpu, or "unknown" where the system does not say.
func cpuUsed(cpu time.Duration) string {
	if cpu <= 0 {
		return "unknown"
	}
	return rounded(cpu).String()
}

// rounded is d to the millisecond, or to the microsecond below one: a snapshot at the
// head is ready in less than a millisecond, which is not "0s".
func rounded(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}

// feed applies every event up to head to ps one at a time, from a store subscription.
func feed(ctx context.Context, store eventstore.Store, head int64, ps []projections.Projection, stderr io.Writer) error {
	if head == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sub, err := store.Subscribe(ctx, 0)
	if err != nil {
		return fmt.Errorf("subscribing to the store: %w", err)
	}
	start, tick := time.Now(), newTicker(time.Second)
	for ev := range sub.Events() {
		for _, p := range ps {
			if err := p.Apply(ev); err != nil {
				return fmt.Errorf("incremental feed: %s at position %d: %w", p.Name(), ev.Position, err)
			}
		}
		if tick.due() {
			fmt.Fprintf(stderr, "incremental: %d of %d events, %.0f events/s\n", ev.Position, head, float64(ev.Position)/time.Since(start).Seconds())
		}
		if ev.Position >= head {
			return nil
		}
	}
	if err := sub.Err(); err != nil {
		return fmt.Errorf("incremental feed: %w", err)
	}
	return fmt.Errorf("incremental feed: the subscription ended before position %d", head)
}
