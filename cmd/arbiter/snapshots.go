package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/filelock"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/settlement"
)

// Snapshots of the read side (package snapshot, projections.Stored): serve writes one in
// the background and when it stops, and boots from the newest that fits its store, then
// folds only the events after it. `arbiter snapshot` writes one offline.

// snapshotFlags are the flags of serve, rebuild and snapshot that say where snapshots are.
type snapshotFlags struct {
	dir      *string
	every    *int64
	interval *time.Duration
}

// addSnapshotFlags adds --snapshots, and with writer, serve's --snapshot-every and
// --snapshot-interval.
func addSnapshotFlags(fs *flag.FlagSet, writer bool) snapshotFlags {
	f := snapshotFlags{dir: fs.String("snapshots", "", "the directory of the read side's snapshots (default: <db>.snapshots for an SQLite file, none for a server's store; off for none)")}
	if writer {
		f.every = fs.Int64("snapshot-every", 200_000, "write a snapshot of the read side once this many events were applied since the last (0: only on a graceful stop)")
		f.interval = fs.Duration("snapshot-interval", 10*time.Minute, "write a snapshot of the read side this often when any event was applied since the last (0: only on a graceful stop)")
	}
	return f
}

// snapshotDir is where the snapshots of the store at db are: the flag's directory, "" for
// none ("off", or a server's store without the flag), else <db>.snapshots next to the file.
func snapshotDir(flagValue, db string) string {
	switch {
	case flagValue == "off":
		return ""
	case flagValue != "":
		return flagValue
	case isServer(db):
		return ""
	}
	return db + ".snapshots"
}

// archivePath is the lobby's index of archived matches that goes with the directory of
// snapshots dir: beside it (<dir>-archive.db), so that the directory holds snapshots alone.
func archivePath(dir string) string { return filepath.Clean(dir) + "-archive.db" }

// lockPath is the lock a serving node holds on its files that go with the directory of
// snapshots dir (the directory and its archive index, archivePath): beside it,
// <dir>.lock, holding the words of its holder (nodeHolder).
func lockPath(dir string) string { return filepath.Clean(dir) + ".lock" }

// lockNode takes the lock of the node's files that go with the directory of snapshots
// dir (lockPath), which serve holds as long as it runs and `arbiter snapshot` while it
// writes: the kernel releases it when the process ends, kill -9 included. A lock held
// elsewhere is an error that names its holder and says what to do (refusal, the
// command's own reason), and nothing has been written.
func lockNode(dir, holder, refusal string) (*filelock.Lock, error) {
	return lockFile(lockPath(dir), "the snapshots "+dir+" are", holder, refusal)
}

// storeLockPath is the lock serve holds on an SQLite store at db: beside the file,
// <db>.lock, of the file the path leads to when it is a link.
func storeLockPath(db string) string {
	if real, err := filepath.EvalSymlinks(db); err == nil {
		db = real
	}
	return db + ".lock"
}

// lockStore takes the lock of the SQLite store at db (storeLockPath), which serve holds
// as long as it runs, whatever its snapshots: one file has one server, which alone
// appends to it and writes its head log. A PostgreSQL store is shared by its nodes and
// takes none.
func lockStore(db, holder string) (*filelock.Lock, error) {
	return lockFile(storeLockPath(db), "the store "+db+" is", holder,
		"an SQLite file is served by one server at a time: stop that server first, or serve another --db (nodes that share a store put it in PostgreSQL)")
}

// lockFile takes the lock at path for holder; held elsewhere, the error says what is held
// (what: "the store x.db is"), by whom, and what to do (refusal).
func lockFile(path, what, holder, refusal string) (*filelock.Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("the directory of the lock %s: %w", path, err)
	}
	l, err := filelock.Acquire(path, holder)
	var held *filelock.HeldError
	if errors.As(err, &held) {
		who := held.Holder
		if who == "" {
			who = "another process"
		}
		return nil, fmt.Errorf("%w: %s held by %s (lock %s): %s", ErrNodeBusy, what, who, path, refusal)
	}
	return l, err
}

// ErrNodeBusy is the error of a command refused because a running process holds the
// node's files (lockNode).
var ErrNodeBusy = errors.New("the node's files are in use")

// nodeHolder is what a process writes into the node's lock (lockNode), which a command
// refused the lock prints: what it is, its process ID, and since when.
func nodeHolder(what string) string {
	return fmt.Sprintf("%s (pid %d, since %s)", what, os.Getpid(), time.Now().UTC().Format(time.RFC3339))
}

// openArchiveFile opens the lobby's index of archived matches beside the directory of
// snapshots (archivePath), whose snapshots it goes with (each records how many of its rows
// it saw); without one (--snapshots off, a server's store without the flag, bench soak), a new
// file in the temporary directory, removed when the server stops: the read side folds
// from zero at each boot then, which writes it again.
func openArchiveFile(ctx context.Context, snapshots string, log *slog.Logger) (*projections.ArchiveFile, error) {
	if snapshots == "" {
		return projections.TempArchiveFile(ctx, projections.ArchiveLogger(log))
	}
	path := archivePath(snapshots)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("the directory of the archive index: %w", err)
	}
	return projections.OpenArchiveFile(ctx, path, projections.ArchiveLogger(log))
}

// readSide makes a's read models, empty, wired as the server folds them: one fold of the
// ratings and of the economy (the API's ratings are the economy's, which reads a class's
// league at each duel's end), and the settlement process reading what matches are owed
// from the same model.
func (a *app) readSide(reg *game.Registry, cfg appConfig, log *slog.Logger) {
	opts := []projections.MatchesOption{projections.ArchiveAfter(cfg.archiveAfter, a.store), projections.OnSetAside(func(u *match.Unreplayable) {
		log.Error("match set aside: its stored events do not replay; it is refused with MATCH_UNAVAILABLE, every other match is served",
			"match", u.Match, "version", u.Version, "cause", u.Err, "see", "arbiter verify --match "+u.Match)
	})}
	if a.archive != nil {
		opts = append(opts, projections.ArchiveIndex(a.archive))
	}
	a.matches = projections.NewMatches(reg, opts...)
	a.cards = projections.NewCardsPlayed(reg)
	a.economy = projections.NewEconomy(reg)
	a.choices = projections.NewChoices(reg)
	a.ratings = a.economy.RatingsModel()
	if cfg.archiveAfter >= 0 { // a rated match's ruling record leaves memory with its view
		a.ratings.ArchiveRecords(cfg.archiveAfter, a.store)
	}
	a.disputes = projections.NewDisputes()
	a.public = projections.NewPublicHead()
	a.settle = settlement.New(a.engine, log, settlement.Shared(a.economy))
}

// stored is a's read models in the order they are fed.
func (a *app) stored() []projections.Stored {
	return []projections.Stored{a.matches, a.cards, a.economy, a.choices, a.disputes, a.public, a.settle}
}

// asProjections is ms as the projections Rebuild takes.
func asProjections(ms []projections.Stored) []projections.Projection {
	out := make([]projections.Projection, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// restoreSnapshot reads the newest snapshot of cfg.snapshots that fits the store into a's
// empty read models. Each refused snapshot is one log line with why, and what the boot
// starts from instead: the older snapshot, or a fold from zero.
func (a *app) restoreSnapshot(ctx context.Context, reg *game.Registry, cfg appConfig, log *slog.Logger) error {
	if cfg.snapshots == "" {
		return nil
	}
	a.snapshotAt.Store(-1)
	start, first := time.Now(), true
	used, refused, err := projections.LoadSnapshot(ctx, a.store, cfg.snapshots, func() []projections.Stored {
		if !first {
			a.readSide(reg, cfg, log) // the models had begun to read a refused one
		}
		first = false
		return a.stored()
	})
	if err != nil {
		return err
	}
	for _, r := range refused {
		if used != "" {
			log.Warn("snapshot refused: the read side starts from an older one", "snapshot", r.Path, "reason", r.Reason, "older", used)
		} else {
			log.Warn("snapshot refused: the read side folds from zero", "snapshot", r.Path, "reason", r.Reason)
		}
	}
	if used != "" {
		_, archived := a.matches.Count()
		a.noteSnapshot(a.matches.Checkpoint(), archived)
		r := a.matches.RestoredStates()
		log.Info("read the read side's snapshot", "snapshot", used, "position", a.matches.Checkpoint(), "took", time.Since(start).Round(time.Millisecond),
			"states", r.Decoded, "folded", r.Unstored+r.Refused)
		if r.Refused > 0 {
			// Only time is lost (each such match is folded from its events), but a codec
			// that no longer reads what it wrote must be heard of.
			log.Warn("stored game states refused: their matches were folded again from their events", "refused", r.Refused, "first", r.FirstRefused)
		}
	}
	return nil
}

// writeSnapshot writes a snapshot of a's read models, and logs it. hold, when not nil, is
// called once every model has saved its state, before the file is written.
func (a *app) writeSnapshot(ctx context.Context, dir string, log *slog.Logger, hold func()) {
	start, at := time.Now(), a.matches.Checkpoint()
	_, archived := a.matches.Count()
	ms := a.stored()
	if hold != nil {
		ms[len(ms)-1] = heldAfterSave{ms[len(ms)-1], hold}
	}
	path, err := projections.WriteSnapshot(ctx, a.store, dir, ms...)
	if err != nil {
		log.Error("the read side's snapshot was not written: the next boot folds more events", "dir", dir, "err", err)
		return
	}
	a.noteSnapshot(at, archived) // at least: the matches may have moved on while it was written
	log.Info("wrote the read side's snapshot", "snapshot", path, "position", at, "took", time.Since(start).Round(time.Millisecond))
}

// snapshotHold, set by the tests, is called by the background writer of the snapshots in
// dir once it holds every model's saved state, before it writes the file: a test stops it
// there to count the appends acknowledged meanwhile, or to kill the process in the middle
// of a write.
var snapshotHold atomic.Pointer[func(dir string)]

// heldAfterSave is a model whose Save calls hold once it has saved.
type heldAfterSave struct {
	projections.Stored
	hold func()
}

func (h heldAfterSave) Save() (int64, []byte, error) {
	pos, data, err := h.Stored.Save()
	h.hold()
	return pos, data, err
}

// runSnapshots writes a snapshot once every cfg.snapshotEvery events applied, or every
// cfg.snapshotInterval when any was, until ctx ends. It looks at the read side's position
// every second (an atomic read): a snapshot is never urgent.
func (a *app) runSnapshots(cfg appConfig, log *slog.Logger) func(context.Context) error {
	return func(ctx context.Context) error {
		if cfg.snapshotEvery <= 0 && cfg.snapshotInterval <= 0 {
			return nil
		}
		look := time.Second
		if cfg.snapshotInterval > 0 {
			look = min(look, cfg.snapshotInterval)
		}
		tick := time.NewTicker(look)
		defer tick.Stop()
		last, lastAt := a.matches.Checkpoint(), time.Now()
		for {
			select {
			case <-ctx.Done():
				return nil
			case <-tick.C:
			}
			pos := a.follower.Position()
			due := cfg.snapshotEvery > 0 && pos-last >= cfg.snapshotEvery ||
				cfg.snapshotInterval > 0 && pos > last && time.Since(lastAt) >= cfg.snapshotInterval
			if due {
				var hold func()
				if h := snapshotHold.Load(); h != nil {
					hold = func() { (*h)(cfg.snapshots) }
				}
				a.writeSnapshot(ctx, cfg.snapshots, log, hold)
				last, lastAt = pos, time.Now()
			}
		}
	}
}

func init() {
	register("snapshot", "fold the read side from zero and write its snapshot, which serve and rebuild then start from", runSnapshot)
}

// runSnapshot is `arbiter snapshot [--db FILE] [--snapshots DIR]`: the read side folded
// from zero, as serve's boot folds it, written as the newest snapshot.
func runSnapshot(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("snapshot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := dbFlag(fs)
	keys := addKeyFlags(fs)
	snaps := addSnapshotFlags(fs, false)
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	dir := snapshotDir(*snaps.dir, dbPath(*db))
	if dir == "" {
		return fmt.Errorf("--snapshots: name the directory of the snapshots (a server's store has none by default)")
	}
	keyFile, _, _ := keys.paths(dbPath(*db))
	store, err := openExisting(ctx, dbPath(*db), keyFile)
	if err != nil {
		return err
	}
	defer store.Close()
	// The node's server writes the same files (the snapshots, the archive index, which a
	// fold from zero empties): the two would cut each other's rows and snapshots.
	lock, err := lockNode(dir, nodeHolder("arbiter snapshot"),
		"stop that server first (a graceful stop writes a snapshot itself), or write these snapshots elsewhere with --snapshots; nothing was written")
	if err != nil {
		return err
	}
	defer lock.Release()
	log := slog.New(slog.NewTextHandler(stderr, nil))
	reg := games()
	a := &app{store: store, engine: engine.New(engine.Config{Store: store, Games: reg, Logger: log})}
	if a.archive, err = openArchiveFile(ctx, dir, log); err != nil {
		return err
	}
	defer a.archive.Close()
	a.readSide(reg, appConfig{archiveAfter: defaultArchiveAfter}, log) // serve's, whose archive queue the snapshot holds
	start := time.Now()
	restore := lessGC()
	err = projections.Rebuild(ctx, store, nil, asProjections(a.stored())...)
	restore()
	if err != nil {
		return err
	}
	folded := time.Since(start)
	path, err := projections.WriteSnapshot(ctx, store, dir, a.stored()...)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "folded %d events in %s, wrote %s in %s\n", a.matches.Checkpoint(), folded.Round(time.Millisecond), path, (time.Since(start) - folded).Round(time.Millisecond))
	return nil
}
