package projections

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/internal/filelock"
	_ "modernc.org/sqlite" // the driver "sqlite"
)

// ArchiveFile is a node's index of its archived matches on disk: the rows a listing of
// finished matches filters and sorts on (by game, by player, newest first), so that an
// archived match keeps nothing in memory. It is a cache of the events, not a source of
// truth: each row carries the global position the model had when it archived the match,
// a snapshot of the read side records how many rows it has seen (Matches.Save), a model
// restored from a snapshot cuts the file back to those rows, and a model folded from zero
// empties it. A file that holds fewer rows than a snapshot has seen refuses the snapshot,
// and the read side folds from zero.
//
// Rows are written in batches by a goroutine of the file's own, never by the fold: until a
// batch is written its rows are read from memory.
type ArchiveFile struct {
	db      *sql.DB
	path    string
	temp    bool           // removed by Close
	tempDir string         // also removed by Close: the temporary file's directory
	lock    *filelock.Lock // a temporary file's directory's, released by Close

	// db is taken for reading by the queries and for writing by a batch's write, so that
	// a query sees each row once: in the file, or still pending.
	dbmu    sync.RWMutex
	mu      sync.Mutex // pending
	pending []fileRow
	wake    chan struct{}
	done    chan struct{}
	err     error // the last write's failure, until a write succeeds
	log     *slog.Logger
}

// ArchiveFileOption configures an ArchiveFile.
type ArchiveFileOption func(*ArchiveFile)

// ArchiveLogger is where the file's writer reports a batch it could not write (default
// slog.Default()): the rows then stay in memory until a write succeeds, and an operator
// must hear of a file that takes no rows.
func ArchiveLogger(l *slog.Logger) ArchiveFileOption { return func(f *ArchiveFile) { f.log = l } }

// fileRow is a row of the file.
type fileRow struct {
	StoredArchived
	pos int64
}

// archiveBatch is how many rows wake the file's writer: a transaction per batch.
const archiveBatch = 256

const archiveSchema = `
CREATE TABLE IF NOT EXISTS archived (
	seq  INTEGER PRIMARY KEY, -- the order the matches were archived in
	id   TEXT NOT NULL UNIQUE,
	ord  INTEGER NOT NULL,    -- minus the creation time (Unix ns): a listing's order is (ord, id)
	game TEXT NOT NULL,
	pos  INTEGER NOT NULL     -- the model's position when it archived the match
);
CREATE INDEX IF NOT EXISTS archived_all ON archived (ord, id);
CREATE INDEX IF NOT EXISTS archived_game ON archived (game, ord, id);
CREATE TABLE IF NOT EXISTS archived_players (
	player TEXT NOT NULL,
	ord    INTEGER NOT NULL,
	id     TEXT NOT NULL,
	game   TEXT NOT NULL,
	seq    INTEGER NOT NULL,
	PRIMARY KEY (player, ord, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS archived_players_seq ON archived_players (seq);
`

// OpenArchiveFile opens (creating it if need be) the archive index at path.
func OpenArchiveFile(ctx context.Context, path string, opts ...ArchiveFileOption) (*ArchiveFile, error) {
	// The file is re-derived from the events: a write lost to a power failure costs a
	// fold, so nothing waits for the disk.
	q := url.Values{"_pragma": {"journal_mode(WAL)", "synchronous(OFF)", "busy_timeout(5000)"}}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("projections: opening the archive index %s: %w", path, err)
	}
	// Idle connections are kept: a new one costs an open of the file and its pragmas,
	// and database/sql keeps only two by default.
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	if _, err := db.ExecContext(ctx, archiveSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("projections: opening the archive index %s: %w (the file is a cache of the events: move it away, or delete it, and start again; the boot folds the events from zero and writes it anew)", path, err)
	}
	f := &ArchiveFile{db: db, path: path, wake: make(chan struct{}, 1), done: make(chan struct{}), log: slog.Default()}
	for _, o := range opts {
		o(f)
	}
	go f.run()
	return f, nil
}

// TempArchiveFile opens an archive index in a new directory of the temporary directory
// (tempArchiveDir), which Close removes: for a node without a directory of snapshots,
// whose read side folds from zero at each boot anyway. The directories that processes
// which ended without Close (kill -9) left there are removed first, and logged.
func TempArchiveFile(ctx context.Context, opts ...ArchiveFileOption) (*ArchiveFile, error) {
	dir, lock, removed, err := tempArchiveDir()
	if err != nil {
		return nil, err
	}
	f, err := OpenArchiveFile(ctx, filepath.Join(dir, "archive.db"), opts...)
	if err != nil {
		os.RemoveAll(dir)
		lock.Release()
		return nil, err
	}
	f.temp, f.tempDir, f.lock = true, dir, lock
	if len(removed) > 0 {
		f.log.Info("removed the temporary archive indexes of processes that ended without removing them (killed)", "removed", removed)
	}
	return f, nil
}

// tempArchivePattern names the directories of the temporary archive indexes
// (TempArchiveFile, CopyArchiveFile) in the temporary directory, each locked
// (filelock.AcquireDir) by the process that uses it for as long as it does.
const tempArchivePattern = "arbiter-archive-*.d"

// tempArchiveDir makes a new directory for a temporary archive index and takes its lock,
// after removing the directories of the pattern whose lock nobody holds: those of
// processes that ended without removing theirs (the kernel released their locks).
// removed is the directories removed.
func tempArchiveDir() (dir string, lock *filelock.Lock, removed []string, err error) {
	removed = append(removeStaleArchiveDirs(os.TempDir()), removeOldArchiveFiles(os.TempDir())...)
	// Another process removing stale directories may take this one's lock between its
	// creation and its locking, and remove it: then it is made again.
	for range 8 {
		dir, err := os.MkdirTemp("", tempArchivePattern)
		if err != nil {
			return "", nil, removed, fmt.Errorf("projections: a temporary archive index: %w", err)
		}
		lock, err := filelock.AcquireDir(dir)
		if errors.Is(err, filelock.ErrHeld) || errors.Is(err, os.ErrNotExist) {
			continue // taken for stale, and being removed
		}
		if err != nil {
			os.Remove(dir)
			return "", nil, removed, fmt.Errorf("projections: a temporary archive index: %w", err)
		}
		locked, err1 := lock.Stat()
		named, err2 := os.Stat(dir)
		if err1 != nil || err2 != nil || !os.SameFile(locked, named) {
			lock.Release() // locked once removed: the path names no directory, or another
			continue
		}
		return dir, lock, removed, nil
	}
	return "", nil, removed, fmt.Errorf("projections: a temporary archive index: each new directory of %s was removed before it was locked", os.TempDir())
}

// removeStaleArchiveDirs removes the directories of temporary archive indexes in tmp that
// no process holds the lock of, and returns them. One in use is locked, and left alone.
func removeStaleArchiveDirs(tmp string) []string {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil // nothing to clean where nothing can be read; MkdirTemp will say why
	}
	prefix, suffix, _ := strings.Cut(tempArchivePattern, "*")
	var removed []string
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) || !strings.HasSuffix(e.Name(), suffix) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		lock, err := filelock.AcquireDir(dir)
		if err != nil {
			continue // in use, or gone already
		}
		if os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
		lock.Release()
	}
	return removed
}

// oldTempArchivePattern names the temporary archive indexes of the builds before the
// locked directories (session 18): files of the temporary directory, with SQLite's -wal
// and -shm beside them, which a kill -9 left there for good.
const oldTempArchivePattern = "arbiter-archive-*.db"

// removeOldArchiveFiles removes the files of the old pattern in tmp (oldTempArchivePattern,
// with their -wal, -shm and -journal) that no process holds, and returns them. Those builds
// took no flock, but SQLite holds a record lock on the -shm of a WAL database for as long
// as a connection has it open, and on the database itself in a transaction
// (filelock.RecordLocked): a file with either locked, or whose locks cannot be asked
// about, is in use, and left alone.
func removeOldArchiveFiles(tmp string) []string {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil
	}
	held := func(path string) bool {
		locked, err := filelock.RecordLocked(path)
		return locked || err != nil
	}
	var removed []string
	for _, e := range entries {
		if match, _ := filepath.Match(oldTempArchivePattern, e.Name()); !match || !e.Type().IsRegular() {
			continue
		}
		db := filepath.Join(tmp, e.Name())
		if held(db) || held(db+"-shm") {
			continue
		}
		for _, p := range []string{db + "-wal", db + "-shm", db + "-journal"} {
			os.Remove(p)
		}
		if os.Remove(db) == nil { // last: a file left is found again by the next open
			removed = append(removed, db)
		}
	}
	return removed
}

// Path is the file's path.
func (f *ArchiveFile) Path() string { return f.path }

// archiveFix is what an operator does about an archive index that takes no writes.
const archiveFix = "make the file writable (its directory too) or free its disk; or stop the server, delete the file and start again: it is a cache of the events, which the boot folds again to write it anew"

// Close writes the pending rows and closes the file (and removes a temporary one). Rows it
// cannot write are logged, and lost from the file, not from the store: the next boot
// folds their events again (from a snapshot that did not see them, or from zero).
func (f *ArchiveFile) Close() error {
	close(f.wake)
	<-f.done
	err := f.flush()
	if err != nil {
		f.mu.Lock()
		n := len(f.pending)
		f.mu.Unlock()
		f.log.Error("the lobby's archive index was not written as it closed: the next boot archives its rows again; "+archiveFix, "file", f.path, "pending", n, "err", err)
	}
	if cerr := f.db.Close(); err == nil {
		err = cerr
	}
	if f.temp {
		for _, p := range []string{f.path, f.path + "-wal", f.path + "-shm", f.tempDir} {
			if rerr := os.Remove(p); err == nil && rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
				err = rerr
			}
		}
		f.lock.Release() // after the removal: a directory unlocked is anyone's to remove
	}
	return err
}

// run writes the pending rows whenever a batch is full, until Close.
func (f *ArchiveFile) run() {
	defer close(f.done)
	for range f.wake {
		// The rows stay pending (read from memory) and are tried again with the next batch.
		if err := f.flush(); err != nil {
			f.mu.Lock()
			n := len(f.pending)
			f.mu.Unlock()
			f.log.Error("the lobby's archive index was not written: its rows stay in memory until a write succeeds; "+archiveFix, "file", f.path, "pending", n, "err", err)
		}
	}
}

// add queues a row; the fold does not wait for the file.
func (f *ArchiveFile) add(r StoredArchived, pos int64) {
	f.mu.Lock()
	f.pending = append(f.pending, fileRow{r, pos})
	full := len(f.pending)%archiveBatch == 0
	f.mu.Unlock()
	if full {
		select {
		case f.wake <- struct{}{}:
		default: // a write is already due
		}
	}
}

// flush writes the pending rows in one transaction.
func (f *ArchiveFile) flush() error {
	f.dbmu.Lock()
	defer f.dbmu.Unlock()
	f.mu.Lock()
	rows := f.pending
	f.mu.Unlock()
	if len(rows) == 0 {
		return nil
	}
	err := f.write(rows)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err = err; err != nil {
		return err
	}
	f.pending = slices.Clone(f.pending[len(rows):]) // a new array: the written rows' memory goes
	return nil
}

func (f *ArchiveFile) write(rows []fileRow) error {
	ctx := context.Background()
	tx, err := f.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("projections: writing the archive index: %w", err)
	}
	defer tx.Rollback()
	// The rows are numbered here, after the last (the numbers have no gaps: cut deletes
	// only from the end), and written many to a statement: a statement per row cost
	// about three times as much in database/sql and the driver as in SQLite.
	var last int64
	if err := tx.QueryRowContext(ctx, `SELECT IFNULL(MAX(seq), 0) FROM archived`).Scan(&last); err != nil {
		return fmt.Errorf("projections: writing the archive index: %w", err)
	}
	var matches, players [][]any
	for i, r := range rows {
		seq := last + int64(i) + 1
		matches = append(matches, []any{seq, r.ID, -r.Created, r.Game, r.pos})
		for _, p := range r.Players {
			players = append(players, []any{p, -r.Created, r.ID, r.Game, seq})
		}
	}
	if err := insertMany(ctx, tx, "archived (seq, id, ord, game, pos)", matches); err != nil {
		return err
	}
	if err := insertMany(ctx, tx, "archived_players (player, ord, id, game, seq)", players); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("projections: writing the archive index: %w", err)
	}
	return nil
}

// insertPerStatement is how many rows an INSERT of insertMany takes: with five columns,
// well under SQLite's limit of 32,766 parameters.
const insertPerStatement = 200

// insertMany inserts rows, each a row of the columns of into ("table (col, ...)"), in
// statements of up to insertPerStatement rows.
func insertMany(ctx context.Context, tx *sql.Tx, into string, rows [][]any) error {
	for len(rows) > 0 {
		n := min(len(rows), insertPerStatement)
		tuple := "(?" + strings.Repeat(", ?", len(rows[0])-1) + ")"
		args := make([]any, 0, n*len(rows[0]))
		for _, r := range rows[:n] {
			args = append(args, r...)
		}
		q := "INSERT INTO " + into + " VALUES " + tuple + strings.Repeat(", "+tuple, n-1)
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("projections: writing the archive index: %w", err)
		}
		rows = rows[n:]
	}
	return nil
}

// ErrArchiveFileBehind is the error of a snapshot whose archived matches the archive
// index does not hold (a file lost, or written by another node): the snapshot is
// refused and the read side folds from zero, which writes the file again.
var ErrArchiveFileBehind = errors.New("the archive index does not hold the snapshot's archived matches")

// cut makes the file hold exactly the first n rows archived, of which the last has ID
// last, or replaces its rows with rows when they are given (a snapshot that held them).
// A file that holds exactly those rows already, as after a graceful stop, is only read:
// two lookups of its primary key, whatever its size; nothing is written.
func (f *ArchiveFile) cut(ctx context.Context, n int, last string, rows []StoredArchived, pos int64) error {
	if err := f.flush(); err != nil {
		return err
	}
	f.dbmu.Lock()
	defer f.dbmu.Unlock()
	var count int64
	if err := f.db.QueryRowContext(ctx, `SELECT IFNULL(MAX(seq), 0) FROM archived`).Scan(&count); err != nil {
		return fmt.Errorf("projections: cutting the archive index: %w", err)
	}
	keep := int64(n)
	if rows != nil {
		keep = 0
	} else if n > 0 {
		// The rows are numbered from 1 without gaps (write): the n-th is the one of seq n.
		var id string
		err := f.db.QueryRowContext(ctx, `SELECT id FROM archived WHERE seq = ?`, n).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) || err == nil && id != last {
			return fmt.Errorf("%w: %s has not the %d rows, up to match %s", ErrArchiveFileBehind, f.path, n, last)
		}
		if err != nil {
			return fmt.Errorf("projections: cutting the archive index: %w", err)
		}
	}
	if count > keep {
		tx, err := f.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("projections: cutting the archive index: %w", err)
		}
		defer tx.Rollback()
		for _, table := range []string{"archived", "archived_players"} {
			q := "DELETE FROM " + table // emptied at once, without a search
			if keep > 0 {
				q += " WHERE seq > " + strconv.FormatInt(keep, 10)
			}
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("projections: cutting the archive index: %w", err)
			}
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("projections: cutting the archive index: %w", err)
		}
	}
	if len(rows) > 0 {
		batch := make([]fileRow, len(rows))
		for i, r := range rows {
			batch[i] = fileRow{r, pos}
		}
		return f.write(batch)
	}
	return nil
}

// find is the archived match of ID id, as a listing sorts it.
func (f *ArchiveFile) find(id string) (listed, bool, error) {
	f.dbmu.RLock()
	defer f.dbmu.RUnlock()
	f.mu.Lock()
	for _, r := range f.pending {
		if r.ID == id {
			f.mu.Unlock()
			return listed{id: r.ID, created: r.Created}, true, nil
		}
	}
	f.mu.Unlock()
	var ord int64
	err := f.db.QueryRow(`SELECT ord FROM archived WHERE id = ?`, id).Scan(&ord)
	if errors.Is(err, sql.ErrNoRows) {
		return listed{}, false, nil
	}
	if err != nil {
		return listed{}, false, fmt.Errorf("projections: reading the archive index: %w", err)
	}
	return listed{id: id, created: -ord}, true, nil
}

// match adds to out the archived matches that f selects, newest first, after the cursor
// (nil for none), and at most fl.Limit of them when it is positive: those of the file, and
// those still pending, merged. The caller has checked fl.Status.
func (f *ArchiveFile) match(fl Filter, cursor *listed, out []listed) ([]listed, error) {
	f.dbmu.RLock()
	defer f.dbmu.RUnlock()
	var pending []listed
	f.mu.Lock()
	for _, r := range f.pending {
		l := listed{id: r.ID, created: r.Created}
		if (fl.Game == "" || r.Game == fl.Game) && (fl.Player == "" || slices.Contains(r.Players, fl.Player)) && (cursor == nil || byNewest(l, *cursor) > 0) {
			pending = append(pending, l)
		}
	}
	f.mu.Unlock()
	slices.SortFunc(pending, byNewest)

	var (
		where []string
		args  []any
		table = "archived"
	)
	if fl.Player != "" {
		table = "archived_players"
		where, args = append(where, "player = ?"), append(args, fl.Player)
	}
	if fl.Game != "" {
		where, args = append(where, "game = ?"), append(args, fl.Game)
	}
	if cursor != nil {
		where, args = append(where, "(ord, id) > (?, ?)"), append(args, -cursor.created, cursor.id)
	}
	q := "SELECT ord, id FROM " + table
	for i, w := range where {
		if i == 0 {
			q += " WHERE " + w
		} else {
			q += " AND " + w
		}
	}
	q += " ORDER BY ord, id"
	if fl.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", fl.Limit)
	}
	rows, err := f.db.Query(q, args...)
	if err != nil {
		return out, fmt.Errorf("projections: reading the archive index: %w", err)
	}
	defer rows.Close()
	var stored []listed
	for rows.Next() {
		var l listed
		if err := rows.Scan(&l.created, &l.id); err != nil {
			return out, fmt.Errorf("projections: reading the archive index: %w", err)
		}
		l.created = -l.created
		stored = append(stored, l)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("projections: reading the archive index: %w", err)
	}
	for taken := 0; len(stored)+len(pending) > 0 && (fl.Limit <= 0 || taken < fl.Limit); taken++ {
		if len(pending) == 0 || len(stored) > 0 && byNewest(stored[0], pending[0]) < 0 {
			out, stored = append(out, stored[0]), stored[1:]
		} else {
			out, pending = append(out, pending[0]), pending[1:]
		}
	}
	return out, nil
}

// CopyArchiveFile opens a copy of the archive index at path in a new file of the
// temporary directory, which Close removes (an empty one when there is no file at path):
// for a process that reads a node's snapshots, as arbiter rebuild does, without cutting
// or writing the node's own file. The copy is consistent while a server writes the file.
func CopyArchiveFile(ctx context.Context, path string) (*ArchiveFile, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return TempArchiveFile(ctx)
	}
	src, err := OpenArchiveFile(ctx, path)
	if err != nil {
		return nil, err
	}
	dir, lock, _, err := tempArchiveDir()
	if err != nil {
		src.Close()
		return nil, fmt.Errorf("projections: copying the archive index: %w", err)
	}
	copied := filepath.Join(dir, "archive.db")
	_, err = src.db.ExecContext(ctx, `VACUUM INTO ?`, copied)
	if cerr := src.Close(); err == nil {
		err = cerr
	}
	var f *ArchiveFile
	if err == nil {
		f, err = OpenArchiveFile(ctx, copied)
	}
	if err != nil {
		os.RemoveAll(dir)
		lock.Release()
		return nil, fmt.Errorf("projections: copying the archive index %s: %w", path, err)
	}
	f.temp, f.tempDir, f.lock = true, dir, lock
	return f, nil
}
