package projections

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
)

// openArchiveFile opens an archive index in a new file of the test's, closed at its end.
func openArchiveFile(t *testing.T, path string) *ArchiveFile {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "archive.db")
	}
	f, err := OpenArchiveFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// listings is every listing of m's lobby, paged by three: all, by status, by each game and
// player, and both, each as the IDs of its pages in order.
func listings(t *testing.T, m *Matches, games, players []string) []string {
	t.Helper()
	var out []string
	for _, status := range []match.Status{"", match.Finished, match.Live} {
		for _, g := range append([]string{""}, games...) {
			for _, p := range append([]string{""}, players...) {
				f := Filter{Status: status, Game: g, Player: p, Limit: 3}
				var ids []string
				for {
					page, err := m.listing(f)
					if err != nil {
						t.Fatal(err)
					}
					for _, l := range page {
						ids = append(ids, l.id)
					}
					if len(page) < f.Limit {
						break
					}
					f.After = page[len(page)-1].id
				}
				out = append(out, fmt.Sprintf("%s/%s/%s: %s", status, g, p, strings.Join(ids, " ")))
			}
		}
	}
	return out
}

// TestArchiveFileListsAsTheMemoryIndex: the same archived rows, in a file and in memory,
// list the same pages for every filter and cursor, whether the rows are written to the
// file or still pending (a batch not yet full), and a match's lookups agree. The rows are
// seeded random, and the test holds for every seed.
func TestArchiveFileListsAsTheMemoryIndex(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 15))
		rows := archivedRows(rng, 100+rng.IntN(300), 8)
		mem := archivedModel(rows)
		file := NewMatches(game.NewRegistry(classic.Rules{}), ArchiveIndex(openArchiveFile(t, "")))
		if err := file.archive.restoreFile(ctx, &StoredMatches{Archived: rows}, 7); err != nil {
			t.Fatal(err)
		}
		// Archived after the restore, one by one: some written in batches, the last ones
		// pending.
		for _, r := range archivedRows(rng, archiveBatch+rng.IntN(archiveBatch), 8) {
			r.ID = "late-" + r.ID
			mem.archive.restore([]StoredArchived{r}, mem.archive.digest)
			file.archive.file.add(r, 9)
			file.archive.n++
		}
		file.archive.file.flush()
		for _, r := range archivedRows(rng, 1+rng.IntN(20), 8) {
			r.ID = "pending-" + r.ID
			mem.archive.restore([]StoredArchived{r}, mem.archive.digest)
			file.archive.file.add(r, 11)
			file.archive.n++
		}
		players := []string{"p0", "p3", "p7", "nobody"}
		games := []string{"chess", "sol", "none"}
		want, got := listings(t, mem, games, players), listings(t, file, games, players)
		if d := slices.Compare(want, got); d != 0 {
			for i := range want {
				if want[i] != got[i] {
					t.Fatalf("seed %d: in memory %s\nin the file %s", seed, want[i], got[i])
				}
			}
		}
		for _, id := range []string{rows[0].ID, rows[len(rows)-1].ID, "pending-x", "none"} {
			a, okA, _ := mem.archive.find(id)
			b, okB, err := file.archive.find(id)
			if err != nil || a != b || okA != okB {
				t.Fatalf("seed %d: find %s: in memory %v %v, in the file %v %v %v", seed, id, a, okA, b, okB, err)
			}
		}
	}
}

// allGames is every game of the corpus.
func allGames() *game.Registry {
	return game.NewRegistry(classic.Rules{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{})
}

// fileReadSide is readSide with the matches' index in f, every match archived as it ends.
func fileReadSide(reg *game.Registry, f *ArchiveFile, store eventstore.Store) []Stored {
	ms := readSide(reg, 0, store)
	ms[0] = NewMatches(reg, ArchiveAfter(0, store), ArchiveIndex(f))
	return ms
}

// lobbyOf is what a read side's lobby lists, and its digests.
func lobbyOf(t *testing.T, ms []Stored) string {
	t.Helper()
	m := ms[0].(*Matches)
	var games, players []string
	m.mu.RLock()
	for _, v := range m.byID {
		games = append(games, v.State.Game)
		for _, s := range v.State.Seats {
			players = append(players, s.PlayerID)
		}
	}
	m.mu.RUnlock()
	games = append(games, "chess", "solwaris", "magicchess")
	return strings.Join(append(digests(ms), listings(t, m, slices.Compact(slices.Sorted(slices.Values(games))), slices.Compact(slices.Sorted(slices.Values(players))))...), "\n")
}

// TestArchiveFileFollowsTheSnapshots: with the lobby's index in a file, a read side
// restored from a snapshot and fed the rest of the store lists and digests as one folded
// from zero with the index in memory, at every position of a store of every game, when:
// the file holds rows archived after the snapshot (the node went on, wrote a batch, and
// was killed before its next snapshot, its file never closed); the file was filled by a
// fold from zero of another read side; another node folds into a file of its own. A file
// that lost the snapshot's rows refuses it: the read side folds from zero.
func TestArchiveFileFollowsTheSnapshots(t *testing.T) {
	ctx := context.Background()
	store, head := corpusStore(t)
	reg := allGames()
	whole := readSide(reg, 0, store)
	if err := Rebuild(ctx, store, nil, projs(whole)...); err != nil {
		t.Fatal(err)
	}
	if _, archived := whole[0].(*Matches).Count(); archived == 0 {
		t.Fatal("the corpus archives no match: the test shows nothing")
	}
	want := lobbyOf(t, whole)
	other := fileReadSide(reg, openArchiveFile(t, ""), store) // another node, its own file
	if err := Rebuild(ctx, store, nil, projs(other)...); err != nil {
		t.Fatal(err)
	}
	if got := lobbyOf(t, other); got != want {
		t.Fatalf("another node's file:\n%s\nin memory:\n%s", got, want)
	}
	for cut := int64(0); cut <= head; cut += head/8 + 1 {
		path := filepath.Join(t.TempDir(), "archive.db")
		killed := openArchiveFile(t, path)
		before := fileReadSide(reg, killed, store)
		if err := Rebuild(ctx, upTo{store, cut}, nil, projs(before)...); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := WriteSnapshot(ctx, store, dir, before...); err != nil {
			t.Fatal(err)
		}
		_, archivedAtCut := before[0].(*Matches).Count()
		// The node goes on past its snapshot and writes the rows it archived: the file is
		// ahead of the snapshot when the node dies.
		if err := Rebuild(ctx, store, nil, projs(before)...); err != nil {
			t.Fatal(err)
		}
		if err := killed.flush(); err != nil {
			t.Fatal(err)
		}
		after := fileReadSide(reg, openArchiveFile(t, path), store) // the restart: the same file
		used, refused, err := LoadSnapshot(ctx, store, dir, func() []Stored { return after })
		if err != nil || used == "" || len(refused) > 0 {
			t.Fatalf("at %d: used %q, refused %v, err %v", cut, used, refused, err)
		}
		if err := Rebuild(ctx, store, nil, projs(after)...); err != nil {
			t.Fatal(err)
		}
		if got := lobbyOf(t, after); got != want {
			t.Fatalf("snapshot at %d, its file ahead, then the tail:\n%s\nfrom zero in memory:\n%s", cut, got, want)
		}

		// A fold from zero into the file another fold filled.
		zero := fileReadSide(reg, openArchiveFile(t, path), store)
		if err := Rebuild(ctx, store, nil, projs(zero)...); err != nil {
			t.Fatal(err)
		}
		if got := lobbyOf(t, zero); got != want {
			t.Fatalf("from zero into a filled file:\n%s\nin memory:\n%s", got, want)
		}

		// A file that lost the rows the snapshot saw refuses it.
		if archivedAtCut > 0 {
			lost := openArchiveFile(t, "")
			used, refused, err := LoadSnapshot(ctx, store, dir, func() []Stored { return fileReadSide(reg, lost, store) })
			if err != nil || used != "" || len(refused) != 1 || !strings.Contains(refused[0].Reason, ErrArchiveFileBehind.Error()) {
				t.Fatalf("at %d: a file without the snapshot's %d rows: used %q, refused %v, err %v", cut, archivedAtCut, used, refused, err)
			}
		}
	}
}

// BenchmarkArchiveFileWrite writes batches of archiveBatch archived matches, two players
// each, to a file that grows: the writer's cost per batch, as the file's goroutine pays it.
func BenchmarkArchiveFileWrite(b *testing.B) {
	f, err := OpenArchiveFile(context.Background(), filepath.Join(b.TempDir(), "archive.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	rows := make([]fileRow, archiveBatch)
	n := 0
	for b.Loop() {
		for i := range rows {
			n++
			rows[i] = fileRow{StoredArchived{ID: fmt.Sprintf("m%09d", n), Created: int64(n) * 1e9, Game: "chess", Players: []string{fmt.Sprintf("p%d", n%1000), fmt.Sprintf("p%d", n%997+1000)}}, 7}
		}
		if err := f.write(rows); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/row")
}

// observe opens a connection of its own to the archive index at path: SQLite's
// data_version on it changes when another connection commits to the file.
func observe(t *testing.T, path string) (dataVersion func() int64, exec func(q string)) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); db.Close() })
	dataVersion = func() int64 {
		var v int64
		if err := conn.QueryRowContext(context.Background(), "PRAGMA data_version").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	exec = func(q string) {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	return dataVersion, exec
}

// TestArchiveFileHoldingTheSnapshotIsNotWritten: a restore whose file holds exactly the
// snapshot's rows (a graceful stop) writes nothing to it; a file ahead of the snapshot is
// cut back to its rows; a file without them, or with another match in the snapshot's
// last place, refuses the snapshot.
func TestArchiveFileHoldingTheSnapshotIsNotWritten(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "archive.db")
	f := openArchiveFile(t, path)
	rows := archivedRows(rand.New(rand.NewPCG(1, 2)), 300, 8)
	if err := (&archive{file: f}).restoreFile(ctx, &StoredMatches{Archived: rows}, 7); err != nil {
		t.Fatal(err)
	}
	version, _ := observe(t, path)
	restore := func(n int, last string) error {
		return (&archive{file: f}).restoreFile(ctx, &StoredMatches{ArchivedCount: n, ArchivedLast: last}, 9)
	}
	before := version()
	if err := restore(300, rows[299].ID); err != nil {
		t.Fatal(err)
	}
	if after := version(); after != before {
		t.Fatalf("a file holding the snapshot's 300 rows was written to (data_version %d, then %d)", before, after)
	}
	if err := restore(200, rows[199].ID); err != nil {
		t.Fatal(err)
	}
	if after := version(); after == before {
		t.Fatal("a file ahead of the snapshot was not cut back")
	}
	if _, ok, err := f.find(rows[200].ID); ok || err != nil {
		t.Fatalf("the 201st row is still found after the cut to 200 (err %v)", err)
	}
	if _, ok, err := f.find(rows[199].ID); !ok || err != nil {
		t.Fatalf("the 200th row is lost by the cut to 200 (err %v)", err)
	}
	for _, c := range []struct {
		n    int
		last string
	}{{201, rows[200].ID}, {150, rows[10].ID}} {
		if err := restore(c.n, c.last); !errors.Is(err, ErrArchiveFileBehind) {
			t.Fatalf("a snapshot of %d rows up to %s on a file of 200: %v, want ErrArchiveFileBehind", c.n, c.last, err)
		}
	}
}

// TestArchiveFileLogsAFailedWrite: a batch the file's writer cannot write is logged, and
// its rows stay readable from memory.
func TestArchiveFileLogsAFailedWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "archive.db")
	var logged bytes.Buffer
	f, err := OpenArchiveFile(context.Background(), path, ArchiveLogger(slog.New(slog.NewTextHandler(&logged, nil))))
	if err != nil {
		t.Fatal(err)
	}
	_, exec := observe(t, path)
	exec("DROP TABLE archived_players") // a file the writer cannot write
	rows := archivedRows(rand.New(rand.NewPCG(3, 4)), archiveBatch, 8)
	for _, r := range rows { // the last one wakes the writer, before Close below
		f.add(r, 5)
	}
	if _, ok, err := f.find(rows[0].ID); !ok || err != nil {
		t.Fatalf("a row of the failed batch is not found (err %v)", err)
	}
	if err := f.Close(); err == nil {
		t.Fatal("Close wrote the pending rows to a file without its table")
	}
	if got := logged.String(); !strings.Contains(got, "level=ERROR") || !strings.Contains(got, "archive index was not written") ||
		!strings.Contains(got, fmt.Sprintf("pending=%d", archiveBatch)) || !strings.Contains(got, "archived_players") {
		t.Fatalf("the failed write logged %q", got)
	}
}

// TestHoldsReportsAnUnreadableArchiveIndex: a match held in the archive file is held, one
// in neither memory nor the file is not, and an archive file that cannot be read is an
// error, not "not held".
func TestHoldsReportsAnUnreadableArchiveIndex(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "archive.db")
	m := NewMatches(game.NewRegistry(classic.Rules{}), ArchiveIndex(openArchiveFile(t, path)))
	rows := archivedRows(rand.New(rand.NewPCG(5, 6)), 10, 4)
	if err := m.archive.restoreFile(ctx, &StoredMatches{Archived: rows}, 3); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{rows[3].ID: true, "nowhere": false} {
		if held, err := m.Holds(id); held != want || err != nil {
			t.Fatalf("Holds(%s) = %v, %v; want %v", id, held, err, want)
		}
	}
	_, exec := observe(t, path)
	exec("DROP TABLE archived")
	if held, err := m.Holds("nowhere"); err == nil {
		t.Fatalf("Holds on an unreadable archive index = %v, nil; want an error", held)
	}
}

// TestTempArchiveFileRemovesTheStaleOnes: a temporary archive index lives in a directory
// its process holds the lock of; opening a new one removes the directories whose lock
// nobody holds (a process killed with SIGKILL left them: the kernel released its lock,
// see cmd/arbiter's TestATemporaryArchiveIndexLeftByAKillIsRemoved) and logs them, and
// leaves those in use. Close removes its own.
func TestTempArchiveFileRemovesTheStaleOnes(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	inUse, err := TempArchiveFile(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer inUse.Close()
	stale, err := os.MkdirTemp(tmp, tempArchivePattern)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stale, "archive.db"), []byte("left by a kill"), 0o644); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	f, err := TempArchiveFile(context.Background(), ArchiveLogger(slog.New(slog.NewTextHandler(&logged, nil))))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the stale directory %s is still there (%v)", stale, err)
	}
	if got := logged.String(); !strings.Contains(got, "removed the temporary archive indexes") || !strings.Contains(got, stale) {
		t.Fatalf("the removal logged %q", got)
	}
	for _, g := range []*ArchiveFile{inUse, f} {
		if _, err := os.Stat(g.Path()); err != nil {
			t.Fatalf("an archive index in use was removed: %v", err)
		}
		if filepath.Dir(filepath.Dir(g.Path())) != tmp {
			t.Fatalf("a temporary archive index at %s, outside %s", g.Path(), tmp)
		}
	}
	f.add(StoredArchived{ID: "m1", Created: 1, Game: "chess", Players: []string{"p"}}, 1)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(f.Path())); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Close left the temporary directory %s (%v)", filepath.Dir(f.Path()), err)
	}
	entries, _ := os.ReadDir(tmp)
	if len(entries) != 1 || entries[0].Name() != filepath.Base(filepath.Dir(inUse.Path())) {
		t.Fatalf("the temporary directory holds %v, want the index in use alone", entries)
	}
}

// TestTempArchiveFileRemovesTheOldFilesNobodyHolds: the builds before the locked
// directories kept a temporary archive index in a file $TMPDIR/arbiter-archive-*.db, which
// a kill left behind for good. Opening a new one removes those files (their -wal and -shm
// too) that no process holds, and logs them; one that another process has open (SQLite's
// record lock on its -shm) is left alone, and removed by the next open once that process
// was killed. Files of other names are not touched.
func TestTempArchiveFileRemovesTheOldFilesNobodyHolds(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	left := filepath.Join(tmp, "arbiter-archive-1111.db")
	other := filepath.Join(tmp, "arbiter-archive-1111.txt")
	for _, p := range []string{left, left + "-wal", left + "-shm", other} {
		if err := os.WriteFile(p, []byte("left by a kill"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	held := filepath.Join(tmp, "arbiter-archive-2222.db")
	holder := exec.Command(os.Args[0], "-test.run=^TestHoldAnOldArchiveIndex$")
	holder.Env = append(os.Environ(), "ARBITER_TEST_HOLD_ARCHIVE="+held)
	stdin, err := holder.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = holder.Process.Kill(); _ = holder.Wait() })
	for lines := bufio.NewScanner(stdout); ; { // the holder says "held" once the index is open
		if !lines.Scan() {
			t.Fatalf("the holder of %s ended before it held it: %v", held, lines.Err())
		}
		if lines.Text() == "held" {
			break
		}
	}
	open := func() string {
		t.Helper()
		var logged bytes.Buffer
		f, err := TempArchiveFile(context.Background(), ArchiveLogger(slog.New(slog.NewTextHandler(&logged, nil))))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return logged.String()
	}
	exists := func(path string) bool {
		_, err := os.Stat(path)
		return err == nil
	}

	logged := open()
	for _, p := range []string{left, left + "-wal", left + "-shm"} {
		if exists(p) {
			t.Errorf("%s, left by an old build, is still there", p)
		}
	}
	if !strings.Contains(logged, "removed the temporary archive indexes") || !strings.Contains(logged, left) || strings.Contains(logged, held) {
		t.Errorf("the removal logged %q", logged)
	}
	if !exists(held) || !exists(held+"-shm") || !exists(other) {
		t.Fatalf("a file in use (%s: %v, its -shm: %v) or of another name (%v) was removed", held, exists(held), exists(held+"-shm"), exists(other))
	}

	if err := holder.Process.Kill(); err != nil { // as kill -9: its locks go with it
		t.Fatal(err)
	}
	_ = holder.Wait()
	logged = open()
	if exists(held) || exists(held+"-shm") || !strings.Contains(logged, held) {
		t.Fatalf("once its holder was killed, %s is there: %v (its -shm: %v); logged %q", held, exists(held), exists(held+"-shm"), logged)
	}
	if !exists(other) {
		t.Fatalf("%s, of another name, was removed", other)
	}
}

// TestHoldAnOldArchiveIndex is no test of its own: TestTempArchiveFileRemovesTheOldFilesNobodyHolds
// runs it in a process of its own, to hold an archive index as an old build's server did
// (SQLite's connections open on it), until its standard input ends or it is killed.
func TestHoldAnOldArchiveIndex(t *testing.T) {
	path := os.Getenv("ARBITER_TEST_HOLD_ARCHIVE")
	if path == "" {
		t.Skip("run by TestTempArchiveFileRemovesTheOldFilesNobodyHolds, in a process of its own")
	}
	f, err := OpenArchiveFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Println("held")
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// readOnly makes the file at path one this process cannot open for writing: mode 0444,
// or for root, whom modes do not stop, the immutable attribute (chattr +i), both undone
// at the test's end. The test fails unless an open for writing then fails.
func readOnly(t *testing.T, path string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(path, 0o444); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(path, 0o644) })
	} else {
		if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
			t.Skipf("root is stopped by no file mode, and chattr +i %s failed: %v %s", path, err, out)
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })
	}
	if w, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
		w.Close()
		t.Fatalf("%s still opens for writing", path)
	}
}

// TestArchiveFileLogsAWriteToAReadOnlyFile: an archive index on a file that takes no
// writes (a real read-only file, not a damaged one) logs each batch its writer cannot
// write, saying what failed and what to do; the rows stay readable from memory; Close
// returns the failure and logs the rows it could not write either.
func TestArchiveFileLogsAWriteToAReadOnlyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "archive.db")
	f, logged := readOnlyArchive(t, path, nil)
	rows := archivedRows(rand.New(rand.NewPCG(7, 8)), archiveBatch, 8)
	for _, r := range rows { // the last one wakes the writer, which Close waits for
		f.add(r, 5)
	}
	if _, ok, err := f.find(rows[archiveBatch-1].ID); !ok || err != nil {
		t.Fatalf("a row of the batch not written is not found (err %v)", err)
	}
	if err := f.Close(); err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Fatalf("Close of an index on a read-only file: %v, want SQLite's readonly error", err)
	}
	lines := strings.Split(strings.TrimSpace(logged.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("logged %d lines, want the writer's and Close's:\n%s", len(lines), logged.String())
	}
	for i, want := range []string{"archive index was not written: its rows stay in memory", "archive index was not written as it closed"} {
		l := lines[i]
		if !strings.Contains(l, "level=ERROR") || !strings.Contains(l, want) || !strings.Contains(l, "make the file writable") ||
			!strings.Contains(l, "file="+path) || !strings.Contains(l, fmt.Sprintf("pending=%d", archiveBatch)) || !strings.Contains(l, "readonly") {
			t.Errorf("line %d logged %q, want %q, what to do, the file, the rows pending and the error", i+1, l, want)
		}
	}
}

// TestAFailedEmptyingOfTheArchiveIndexIsLoggedOnce: a fold from zero empties the index
// before its first archived match; on a read-only file that fails, every listing of
// archived matches then fails with it, and the operator hears of it once, with the file
// and what to do, however many matches are archived after.
func TestAFailedEmptyingOfTheArchiveIndexIsLoggedOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "archive.db")
	f, logged := readOnlyArchive(t, path, archivedRows(rand.New(rand.NewPCG(3, 4)), 3, 4))
	a := &archive{file: f}
	for _, id := range []string{"m-1", "m-2", "m-3"} {
		a.addToFile(&MatchView{ID: id}, id, 9)
	}
	_ = f.Close() // its pending rows cannot be written either: logged apart
	if a.err == nil || !strings.Contains(a.err.Error(), "readonly") {
		t.Fatalf("the archive's error after a failed emptying: %v, want SQLite's readonly error", a.err)
	}
	var lines []string
	for _, l := range strings.Split(logged.String(), "\n") {
		if strings.Contains(l, "could not be emptied for a fold from zero") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 {
		t.Fatalf("the failed emptying logged %d times, want once:\n%s", len(lines), logged.String())
	}
	if l := lines[0]; !strings.Contains(l, "level=ERROR") || !strings.Contains(l, "file="+path) || !strings.Contains(l, "make the file writable") || !strings.Contains(l, "readonly") {
		t.Errorf("logged %q, want the level, the file, what to do and the error", l)
	}
}

// readOnlyArchive writes rows into a new archive index at path, makes the file read-only
// (readOnly) and opens it again with a logger into the returned buffer.
func readOnlyArchive(t *testing.T, path string, rows []StoredArchived) (*ArchiveFile, *bytes.Buffer) {
	t.Helper()
	f, err := OpenArchiveFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		f.add(r, 5)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	readOnly(t, path)
	logged := new(bytes.Buffer)
	f, err = OpenArchiveFile(context.Background(), path, ArchiveLogger(slog.New(slog.NewTextHandler(logged, nil))))
	if err != nil {
		t.Fatalf("an archive index on a read-only file does not open for reading: %v", err)
	}
	return f, logged
}
