package sqlite

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
	"github.com/arbiter-games/arbiter/serverkey"
)

// schemaV2 is the tables of schema version 2, as the builds before version 3 made them.
const schemaV2 = `
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (2);
CREATE TABLE events (
	position       INTEGER PRIMARY KEY,
	stream         TEXT    NOT NULL,
	version        INTEGER NOT NULL,
	id             TEXT    NOT NULL UNIQUE,
	type           TEXT    NOT NULL,
	schema_version INTEGER NOT NULL,
	payload        BLOB    NOT NULL,
	command_id     TEXT    NOT NULL,
	actor          TEXT    NOT NULL,
	visibility     TEXT    NOT NULL,
	time_ns        INTEGER NOT NULL,
	prev_hash      TEXT    NOT NULL,
	hash           TEXT    NOT NULL,
	global_hash    TEXT    NOT NULL,
	UNIQUE (stream, version)
);
CREATE TABLE head (position INTEGER NOT NULL, hash TEXT NOT NULL, signed_ns INTEGER NOT NULL, signature BLOB);`

// appendV2 is one append of the file written by writeV2.
type appendV2 struct {
	stream string
	events []eventstore.Proposed
}

// v2Appends are appends of every kind of ID and content: the engine's UUIDs, other IDs
// (an upper-case UUID and one with its dashes elsewhere are not the canonical form),
// hidden events, several events per append, streams interleaved.
func v2Appends(n int) []appendV2 {
	ids := []func(i int) string{
		func(i int) string { return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", i*7919, i, i, i, i*104729) },
		func(i int) string { return fmt.Sprintf("loot:match-%d:%d", i, i%2) },
		func(i int) string { return strings.ToUpper(fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", i, i, i, i, i)) },
		func(i int) string { return fmt.Sprintf("%09x-%03x-4%03x-8%03x-%012x", i, i, i, i, i) },
	}
	var out []appendV2
	for i := range n {
		a := appendV2{stream: fmt.Sprintf("match-%d", i%7)}
		if i%11 == 0 {
			a.stream = fmt.Sprintf("player-%d", i)
		}
		for j := range 1 + i%3 {
			k := i*3 + j
			a.events = append(a.events, testEvent(ids[k%len(ids)](k), k, fmt.Sprintf("cmd-%d", i)))
		}
		out = append(out, a)
	}
	return out
}

// testEvent is the kth event of a test's appends, with the given IDs: its schema version,
// payload, visibility and time vary with k.
func testEvent(id string, k int, command string) eventstore.Proposed {
	return eventstore.Proposed{
		ID: id, Type: "MovePlayed", SchemaVersion: 1 + k%2,
		Payload: fmt.Appendf(nil, `{"ply":%d}`, k), CommandID: command, Actor: "seat:0",
		Visibility: []visibility.Visibility{visibility.Public, visibility.Seat(1), visibility.Server}[k%3],
		Time:       time.Unix(1764547200, int64(k)).UTC(),
	}
}

// writeV2 writes a file of schema version 2 holding appends, sealed and signed as the
// builds of version 2 did, and returns its events.
func writeV2(t *testing.T, path string, appends []appendV2) []eventstore.Event {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(schemaV2); err != nil {
		t.Fatal(err)
	}
	type end struct {
		version int64
		hash    string
	}
	tails := map[string]end{}
	var all []eventstore.Event
	global := ""
	for _, a := range appends {
		tl := tails[a.stream]
		sealed := eventstore.Seal(a.stream, tl.version, tl.hash, int64(len(all))+1, global, time.Now(), a.events)
		for _, e := range sealed {
			q := `INSERT INTO events (` + sqlstore.Columns + `) VALUES (?` + strings.Repeat(", ?", 13) + `)`
			if _, err := db.Exec(q, sqlstore.Args(e)...); err != nil {
				t.Fatal(err)
			}
		}
		last := sealed[len(sealed)-1]
		tails[a.stream] = end{last.Version, last.Hash}
		global = last.GlobalHash
		all = append(all, sealed...)
	}
	h := eventstore.SignHead(conformance.Signer, int64(len(all)), global, time.Unix(1764547300, 0))
	if _, err := db.Exec(`INSERT INTO head VALUES (?, ?, ?, ?)`, h.Position, h.Hash, h.Time.UnixNano(), h.Signature); err != nil {
		t.Fatal(err)
	}
	return all
}

// readV2 reads every event of a file of schema version 2 as the builds of version 2 did.
func readV2(t *testing.T, path string) []eventstore.Event {
	return readFile(t, path, `SELECT `+sqlstore.Columns+` FROM events ORDER BY position`, sqlstore.Scan)
}

// readStored reads every event of a file of schema version 3 or later with SQL of its
// own, not through a Store: what the file holds before a migration.
func readStored(t *testing.T, path string) []eventstore.Event {
	return readFile(t, path, `SELECT `+selectColumns+` FROM `+fromEvents+` ORDER BY e.position`, scanEvent)
}

// readFile reads the events of the file at path that query selects, each with scan.
func readFile(t *testing.T, path, query string, scan func(sqlstore.Scanner) (eventstore.Event, error)) []eventstore.Event {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []eventstore.Event
	for rows.Next() {
		e, err := scan(rows)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func readAll(t *testing.T, s *Store) []eventstore.Event {
	t.Helper()
	all, err := s.ReadAll(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// checkChains verifies every stream's chain and the global chain of all, and that the
// signed head names the last event.
func checkChains(t *testing.T, s *Store, all []eventstore.Event) eventstore.Head {
	t.Helper()
	streams := map[string][]eventstore.Event{}
	var chain eventstore.GlobalChain
	for _, e := range all {
		streams[e.Stream] = append(streams[e.Stream], e)
		if err := chain.Next(e); err != nil {
			t.Fatal(err)
		}
	}
	for name, evs := range streams {
		if err := eventstore.VerifyChain(evs); err != nil {
			t.Fatalf("stream %s: %v", name, err)
		}
	}
	h, err := s.SignedHead(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if h.Position != chain.Position || h.Hash != chain.Hash {
		t.Fatalf("signed head at %d %q, the store ends at %d %q", h.Position, h.Hash, chain.Position, chain.Hash)
	}
	return h
}

// checkStreams reads every stream of all, whole and from its middle, and checks that it
// holds the events of all that are its own, in order.
func checkStreams(t *testing.T, s *Store, all []eventstore.Event) {
	t.Helper()
	streams := map[string][]eventstore.Event{}
	for _, e := range all {
		streams[e.Stream] = append(streams[e.Stream], e)
	}
	for name, want := range streams {
		for _, after := range []int{0, len(want) / 2} {
			got, err := s.ReadStream(context.Background(), name, int64(after), 0)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want[after:]) {
				t.Fatalf("stream %s after version %d reads %d events, want %d, or they differ", name, after, len(got), len(want)-after)
			}
		}
		if v, err := s.StreamVersion(context.Background(), name); err != nil || v != int64(len(want)) {
			t.Fatalf("StreamVersion(%s) = %d, %v, want %d", name, v, err, len(want))
		}
	}
}

func withChunk(t *testing.T, n int) {
	old := migrateChunk
	migrateChunk = n
	t.Cleanup(func() { migrateChunk = old })
}

// TestMigrateTheBenchFile: a file written by a build of schema version 2 (`arbiter bench
// --matches 6 --moves 12` at 70c43de) reads the same after the migration, event for event
// and byte for byte, its chains and its signed head verify as they did, and it takes
// appends and recognizes retries of its old appends.
func TestMigrateTheBenchFile(t *testing.T) {
	withChunk(t, 50)
	path := filepath.Join(t.TempDir(), "events.db")
	data, err := os.ReadFile("testdata/v2-bench.db")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	before := readV2(t, path)
	var logs bytes.Buffer
	s, err := Open(context.Background(), path, WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t.Log(logs.String())
	for _, want := range []string{"migrating the file to schema version 3", "copied=50 of=134", "copied=134 of=134", "migrated the file to schema version 3"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the migration's log does not say %q", want)
		}
	}
	after := readAll(t, s)
	if len(after) != 134 || !reflect.DeepEqual(after, before) {
		t.Fatalf("read %d events after the migration, %d before, or they differ", len(after), len(before))
	}
	checkStreams(t, s, before)
	h := checkChains(t, s, after)
	pub, err := serverkey.LoadPublic("testdata/v2-bench.pub")
	if err != nil {
		t.Fatal(err)
	}
	if !serverkey.Verify(pub, h.Message(), h.Signature) || h.Hash != "e45bde70727ad0f05df27d3b76c5a9af38695bd6aab69f7e2cea48e374b01aee" {
		t.Fatalf("the signed head %+v is not the one the old build signed", h)
	}
	// The last event of a stream, sent again, is a retry; its ID elsewhere is a reuse.
	last := after[len(after)-1]
	res, err := s.Append(context.Background(), last.Stream, eventstore.Any, last.Proposed)
	if err != nil || !res.Duplicate || res.LastPosition != last.Position {
		t.Fatalf("retry of the last append = %+v, %v; want a duplicate at %d", res, err, last.Position)
	}
	if _, err := s.Append(context.Background(), "match-elsewhere", eventstore.Any, last.Proposed); !errors.Is(err, eventstore.ErrIDReused) {
		t.Fatalf("its ID in another stream = %v, want ErrIDReused", err)
	}
	next := eventstore.Proposed{ID: "0f0e0d0c-0b0a-4908-8706-050403020100", Type: "MovePlayed", SchemaVersion: 1, Payload: []byte(`{}`), Actor: "system"}
	if _, err := s.Append(context.Background(), last.Stream, last.Version, next); err != nil {
		t.Fatal(err)
	}
	checkChains(t, s, readAll(t, s))
}

// TestWithoutMigrationLeavesTheFile: opened WithoutMigration (by a tool that only reads),
// the file an old build wrote, of schema version 2 or 3, is refused with ErrNotMigrated
// and left byte for byte as it was, with no table added; opened as a server opens it, it
// then migrates as ever.
func TestWithoutMigrationLeavesTheFile(t *testing.T) {
	for _, c := range []struct {
		file    string
		version int64
		events  int
	}{{"v2-bench.db", 2, 134}, {"v3.db", 3, 481}} {
		t.Run(c.file, func(t *testing.T) { withoutMigration(t, c.file, c.version, c.events) })
	}
}

func withoutMigration(t *testing.T, file string, version int64, events int) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events.db")
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	s, err := Open(context.Background(), path, WithoutMigration(), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err == nil {
		s.Close()
		t.Fatalf("a file of schema version %d opened without migration", version)
	}
	var nm *NotMigratedError
	if !errors.Is(err, ErrNotMigrated) || !errors.As(err, &nm) || nm.Version != version || !strings.Contains(err.Error(), path) ||
		!strings.Contains(err.Error(), fmt.Sprintf("the file has schema version %d, which this build reads only once migrated to 4", version)) {
		t.Fatalf("refused with %v, want ErrNotMigrated naming the file and its version", err)
	}
	if logs.Len() > 0 {
		t.Fatalf("the refusal logged a migration:\n%s", logs.String())
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, data) {
		t.Fatal("the refused file changed")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.Name() != "events.db" && info.Size() > 0 {
			t.Fatalf("the refusal left %s of %d bytes beside the file", e.Name(), info.Size())
		}
	}
	s, err = Open(context.Background(), path, WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := len(readAll(t, s)); n != events {
		t.Fatalf("migrated after the refusal, the file reads %d events, want %d", n, events)
	}
}

// TestMigrateStoresWhatTheWriterStores: a migrated file holds, row for row and byte for
// byte, what this build's writer stores for the same appends (the migration encodes in SQL
// what row.go encodes in Go), and the migration's chunks, several here, join up.
func TestMigrateStoresWhatTheWriterStores(t *testing.T) {
	withChunk(t, 17)
	appends := v2Appends(120)
	old := filepath.Join(t.TempDir(), "old.db")
	written := writeV2(t, old, appends)
	s, err := Open(context.Background(), old, WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, s); !reflect.DeepEqual(got, written) {
		t.Fatalf("the migrated file reads %d events, differing from the %d written", len(got), len(written))
	}
	checkStreams(t, s, written)
	checkChains(t, s, written)
	s.Close()

	fresh := filepath.Join(t.TempDir(), "new.db")
	s, err = Open(context.Background(), fresh)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range appends {
		if _, err := s.Append(context.Background(), a.stream, eventstore.Any, a.events...); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if a, b := dumpRows(t, old), dumpRows(t, fresh); a != b {
		t.Fatalf("the migrated file stores\n%s\nthe writer stores\n%s", a, b)
	}
}

// dumpRows lists the stored form of every event and stream, with each value's type.
func dumpRows(t *testing.T, path string) string {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	for _, q := range []string{
		`SELECT id, quote(name) FROM streams ORDER BY id`,
		`SELECT ` + strings.ReplaceAll("quote("+insertColumns+")", ", ", "), quote(") + ` FROM events ORDER BY position`,
		`SELECT stream_id, version, position FROM heads ORDER BY stream_id`,
		`SELECT stream_id, version, position FROM marks ORDER BY stream_id, version`,
		`SELECT version FROM schema_version`,
		`SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name`,
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&b, vals...)
		}
		rows.Close()
	}
	return b.String()
}

// migrateKillEnv carries the file and the step at which the helper waits to be killed.
const migrateKillEnv = "ARBITER_SQLITE_MIGRATE_KILL"

// TestKillDuringMigration: a process killed (kill -9) in the middle of a migration, from
// schema version 2 to 3 or from 3 to 4, inside a copy's transaction after three chunks
// committed, or inside the last transaction, leaves a file that opens: the next Open
// finishes the migrations, and the file reads as it was written.
func TestKillDuringMigration(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	for _, c := range []struct{ from, step string }{{"v2", "copy"}, {"v2", "swap"}, {"v3", "copy"}, {"v3", "swap"}} {
		step := c.step
		t.Run(c.from+"-"+step, func(t *testing.T) {
			withChunk(t, 16)
			var path string
			var written []eventstore.Event
			if c.from == "v2" {
				path = filepath.Join(t.TempDir(), "events.db")
				written = writeV2(t, path, v2Appends(100))
			} else {
				path = copyTestdata(t, "v3.db")
				written = readStored(t, path)
			}
			child := exec.Command(os.Args[0], "-test.run=^TestHelperProcessMigrator$", "-test.count=1")
			child.Env = append(os.Environ(), migrateKillEnv+"="+step+":"+path)
			out, err := child.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			child.Stderr = os.Stderr
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			// The child says "waiting" from inside the transaction, then sleeps until killed.
			lines := bufio.NewScanner(out)
			for lines.Scan() && lines.Text() != "waiting" {
			}
			if err := child.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			_ = child.Wait()
			if lines.Err() != nil {
				t.Fatal(lines.Err())
			}
			s, err := Open(context.Background(), path, WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
			if err != nil {
				t.Fatalf("opening the file after a kill in step %s: %v", step, err)
			}
			defer s.Close()
			if got := readAll(t, s); !reflect.DeepEqual(got, written) {
				t.Fatalf("after a kill in step %s the file reads %d events, differing from the %d written", step, len(got), len(written))
			}
			checkStreams(t, s, written)
			checkChains(t, s, written)
		})
	}
}

// TestHelperProcessMigrator is the child of TestKillDuringMigration: it migrates the
// file and, inside the transaction of the step it was given (the fourth copy, or the
// swap), says so and waits to be killed.
func TestHelperProcessMigrator(t *testing.T) {
	arg := os.Getenv(migrateKillEnv)
	if arg == "" {
		t.Skip("helper process of TestKillDuringMigration")
	}
	step, path, _ := strings.Cut(arg, ":")
	migrateChunk = 16
	copies := 0
	migrateHook = func(s string) {
		if s == "copy" {
			copies++
		}
		if s == step && (s != "copy" || copies == 4) {
			fmt.Println("waiting")
			time.Sleep(time.Hour)
		}
	}
	_, err := Open(context.Background(), path)
	fmt.Fprintln(os.Stderr, "the migration ended without being killed:", err)
	os.Exit(2)
}
