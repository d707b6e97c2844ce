package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/headlog"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/serverkey"
)

// The tests below change a closed store the way someone with the file but not the server
// key could, and expect `arbiter verify` to fail naming what is wrong. The per-stream hash
// chains and the rules see nothing wrong in any of them.

// cutStream returns the statements that delete the events of stream after version
// after, as someone who knows the file's tables would: the stream's head and marks
// (eventstore/sqlite/row.go) then name its new last event.
func cutStream(stream string, after int64) []string {
	id := fmt.Sprintf(`(SELECT id FROM streams WHERE name = '%s')`, stream)
	return []string{
		fmt.Sprintf(`DELETE FROM events WHERE stream_id = %s AND version > %d`, id, after),
		fmt.Sprintf(`DELETE FROM marks WHERE stream_id = %s AND version > %d`, id, after),
		fmt.Sprintf(`UPDATE heads SET version = %[2]d, position = (SELECT position FROM events WHERE stream_id = %[1]s AND version = %[2]d) WHERE stream_id = %[1]s`, id, after),
	}
}

// tamper runs statements on the store's file.
func tamper(t *testing.T, db string, stmts ...string) {
	t.Helper()
	d, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, q := range stmts {
		if _, err := d.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// firstPosition returns the first position of the events that match where.
func firstPosition(t *testing.T, db, where string) int64 {
	t.Helper()
	d, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var p int64
	if err := d.QueryRow(`SELECT MIN(position) FROM events WHERE ` + where).Scan(&p); err != nil {
		t.Fatal(err)
	}
	return p
}

// storeHead returns the last position of the store in the SQLite file db, read through a
// read-only connection, which leaves a running server's write-ahead log as it is.
func storeHead(t *testing.T, db string) int64 {
	t.Helper()
	d, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var p int64
	if err := d.QueryRow(`SELECT MAX(position) FROM events`).Scan(&p); err != nil {
		t.Fatal(err)
	}
	return p
}

// verifyFails runs `arbiter verify` on db, expects exit 1 and every one of wants in its
// output, and returns the output.
func verifyFails(t *testing.T, db string, wants ...string) string {
	t.Helper()
	out, errOut := fails(t, "verify", "--db", db)
	for _, want := range wants {
		if !strings.Contains(out+errOut, want) {
			t.Errorf("verify's output lacks %q:\n%s\nstderr: %s", want, out, errOut)
		}
	}
	if !strings.Contains(out, "FAIL store:") {
		t.Errorf("verify does not say the store failed:\n%s", out)
	}
	return out
}

func TestVerifyCatchesADeletedTailOfALiveStream(t *testing.T) {
	db, ms, _ := filled(t)
	// ms[0] is live; its last events lie among the other matches' in global order.
	where := fmt.Sprintf(`stream_id = (SELECT id FROM streams WHERE name = '%s') AND version > 25`, matchstream.Name(ms[0].ID))
	first := firstPosition(t, db, where)
	tamper(t, db, `DELETE FROM events WHERE `+where)
	verifyFails(t, db, fmt.Sprintf("position %d: global chain: missing: the store goes from position %d ", first, first-1))
}

func TestVerifyCatchesADeletedTailOfTheStore(t *testing.T) {
	db, _, mate := filled(t)
	// The fool's mate is the last match: cutting its end cuts the end of the store, which
	// leaves the global chain whole. The signed head remembers the end.
	tamper(t, db, fmt.Sprintf(`DELETE FROM events WHERE stream_id = (SELECT id FROM streams WHERE name = '%s') AND version > 8`, matchstream.Name(mate.ID)))
	verifyFails(t, db, "the store ends at position 113, but its last commit signed position 117 ", "events 114 to 117, acknowledged, are missing")
}

func TestVerifyCatchesADeletedStream(t *testing.T) {
	db, ms, _ := filled(t)
	where := fmt.Sprintf(`stream_id = (SELECT id FROM streams WHERE name = '%s')`, matchstream.Name(ms[1].ID))
	first := firstPosition(t, db, where)
	tamper(t, db, `DELETE FROM events WHERE `+where)
	verifyFails(t, db, fmt.Sprintf("position %d: global chain: missing: the store goes from position %d ", first, first-1))
}

// TestVerifyCatchesAConsistentRewrite: a player renamed, with its stream's hash and every
// global hash after it recomputed, is a store whose every chain holds; only the signed
// head, which the key alone could make, tells.
func TestVerifyCatchesAConsistentRewrite(t *testing.T) {
	db, _, _ := filled(t)
	renamed := rewriteConsistently(t, db, func(e *eventstore.Event) bool {
		if e.Type != "PlayerRegistered" || !strings.Contains(string(e.Payload), `"player 50.0"`) {
			return false
		}
		e.Payload = []byte(strings.Replace(string(e.Payload), `"player 50.0"`, `"Mallory"`, 1))
		return true
	})
	if !renamed {
		t.Fatal("no player 50.0 in the store")
	}
	out := verifyFails(t, db, "position 117: the global hash here is", "events up to here were rewritten")
	if strings.Contains(out, "FAIL player-") || strings.Contains(out, "global chain:") {
		t.Errorf("the rewrite was meant to leave every chain whole:\n%s", out)
	}
}

// rewriteConsistently changes the first stored event that change changes (it reports
// whether it did) and recomputes every hash after it, its stream's and the global chain's,
// as someone with the file but not the server key could: every chain holds, and only the
// signed head tells. It reports whether an event was changed.
func rewriteConsistently(t *testing.T, db string, change func(e *eventstore.Event) bool) bool {
	t.Helper()
	all := storedEvents(t, db)
	var stmts []string
	rehashed := map[string]string{} // stream -> its last event's new hash
	changed := false
	for i, e := range all {
		prevGlobal := ""
		if i > 0 {
			prevGlobal = all[i-1].GlobalHash
		}
		prev, streamChanged := rehashed[e.Stream]
		if !changed && change(&e) {
			changed, streamChanged = true, true
			prev = e.PrevHash
			stmts = append(stmts, fmt.Sprintf(`UPDATE events SET payload = CAST('%s' AS BLOB) WHERE position = %d`, strings.ReplaceAll(string(e.Payload), "'", "''"), e.Position))
		}
		if streamChanged {
			e.PrevHash = prev
			e.Hash = eventstore.Hash(e.PrevHash, e)
			rehashed[e.Stream] = e.Hash
			stmts = append(stmts, fmt.Sprintf(`UPDATE events SET prev_hash = '%s', hash = '%s' WHERE position = %d`, e.PrevHash, e.Hash, e.Position))
		}
		if changed {
			e.GlobalHash = eventstore.GlobalHash(prevGlobal, e.Position, e.Hash)
			stmts = append(stmts, fmt.Sprintf(`UPDATE events SET global_hash = '%s' WHERE position = %d`, e.GlobalHash, e.Position))
		}
		all[i] = e
	}
	tamper(t, db, stmts...)
	return changed
}

// TestVerifyCatchesALostWAL: a server process acknowledges moves, then is killed and its
// SQLite -wal file deleted, which rolls the store back to its last checkpoint, signed head
// included: a consistent, older store. The head log, kept outside the store, remembers the
// newer head; verify fails and serve refuses the store.
func TestVerifyCatchesALostWAL(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	heads := strings.TrimSuffix(db, ".db") + ".heads"

	// A first run whose moves reach the main file: a clean stop checkpoints the WAL.
	first := startServer(t, db)
	_, white := first.register(t, "White")
	_, black := first.register(t, "Black")
	id := first.newMatch(t, white, black, false)
	first.play(t, white, id, "e4")
	first.stop(t)

	// A second run, in a process of its own, acknowledges more moves, which stay in the
	// WAL when it is killed.
	srv, proc := startProcess(t, db)
	for i, mv := range []string{"e5", "Nf3", "Nc6", "Bb5"} {
		srv.play(t, []string{black, white}[i%2], id, mv)
	}
	// The store's head, read from the file beside the running server (the API shows no
	// global position: MatchEvent.position is the event's place in its match).
	last := storeHead(t, db)
	// The server logs its signed head every second: wait until the log holds the last move.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	waitUntil(t, ctx, fmt.Sprintf("the head log to reach position %d", last), func() bool {
		logged, err := headlog.Read(heads)
		return err == nil && len(logged) > 0 && logged[len(logged)-1].Position >= last
	})
	if err := proc.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = proc.Wait()
	if _, err := os.Stat(db + "-wal"); err != nil {
		t.Fatalf("the killed server left no -wal: %v", err)
	}
	for _, f := range []string{db + "-wal", db + "-shm"} {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}

	verifyFails(t, db, "the head log has a head signed", fmt.Sprintf("at position %d, but the store ends at position", last), "acknowledged, are missing")
	_, errOut := fails(t, "serve", "--addr", "127.0.0.1:0", "--db", db)
	if !strings.Contains(errOut, "refusing to serve the store") || !strings.Contains(errOut, "acknowledged, are missing") {
		t.Errorf("serve on the rolled-back store: %s", errOut)
	}
	if _, errOut := fails(t, "rebuild", "--db", db); !strings.Contains(errOut, "acknowledged, are missing") {
		t.Errorf("rebuild of the rolled-back store: %s", errOut)
	}
}

// TestVerifyCatchesAnUnsignedEventAndAnotherKey: an event added at the end by hand, with
// every hash right, lies beyond the signed head; and the store's heads do not verify with
// another key than the server's.
func TestVerifyCatchesAnUnsignedEventAndAnotherKey(t *testing.T) {
	db, _, _ := filled(t)
	all := storedEvents(t, db)
	last := all[len(all)-1]
	forged := last
	forged.ID, forged.Version, forged.Position, forged.PrevHash = "forged", last.Version+1, last.Position+1, last.Hash
	forged.Hash = eventstore.Hash(forged.PrevHash, forged)
	forged.GlobalHash = eventstore.GlobalHash(last.GlobalHash, forged.Position, forged.Hash)
	tamper(t, db, fmt.Sprintf(`INSERT INTO events SELECT %d, stream_id, %d, 'forged', type, schema_version, payload, command_id, actor, visibility, time_ns, '%s', '%s', '%s', position FROM events WHERE position = %d`,
		forged.Position, forged.Version, forged.PrevHash, forged.Hash, forged.GlobalHash, last.Position),
		fmt.Sprintf(`UPDATE heads SET version = %d, position = %d WHERE stream_id = (SELECT stream_id FROM events WHERE position = %d)`, forged.Version, forged.Position, last.Position))
	verifyFails(t, db, fmt.Sprintf("position %d: events %d to %d come after the store's signed head (position %d): no signature covers them", forged.Position, forged.Position, forged.Position, last.Position))

	other := filepath.Join(t.TempDir(), "other.key")
	if _, _, err := serverkey.LoadOrCreate(other); err != nil {
		t.Fatal(err)
	}
	out, _ := fails(t, "verify", "--db", db, "--key", other)
	if !strings.Contains(out, "does not verify with key") {
		t.Errorf("verify with another key:\n%s", out)
	}
}

// TestAClientKeepsTheSignedHead: a client that keeps the heads the server answers at
// /signed-head catches a store rolled back to an older copy, signed head and all, even
// when the server's own head log went with it; without that log nothing tells.
func TestAClientKeepsTheSignedHead(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "arbiter.db")
	srv := startServer(t, db)
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	srv.stop(t)
	older, err := os.ReadFile(db) // a clean stop leaves the whole store in the file
	if err != nil {
		t.Fatal(err)
	}

	srv = startServer(t, db)
	srv.play(t, white, id, "e4")
	resp, err := http.Get(srv.url + "/signed-head")
	if err != nil {
		t.Fatal(err)
	}
	line, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/signed-head: %d %q %v", resp.StatusCode, line, err)
	}
	kept := filepath.Join(t.TempDir(), "client.heads")
	if err := os.WriteFile(kept, line, 0o600); err != nil {
		t.Fatal(err)
	}
	srv.stop(t)
	if last, out := lastLine(t, "verify", "--db", db, "--head-log", kept); !strings.HasSuffix(last, "all ok") {
		t.Fatalf("verify with the client's heads, before any change:\n%s", out)
	}

	// The older copy goes back in place, and the server's head log is removed with it.
	if err := os.WriteFile(db, older, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "arbiter.heads")); err != nil {
		t.Fatal(err)
	}
	if last, out := lastLine(t, "verify", "--db", db); !strings.HasSuffix(last, "all ok") || !strings.Contains(out, "no head log at") {
		t.Errorf("without any head log the rollback cannot be seen, and verify says there is no log:\n%s", out)
	}
	out, _ := fails(t, "verify", "--db", db, "--head-log", kept)
	if !strings.Contains(out, "the head log has a head signed") || !strings.Contains(out, "acknowledged, are missing") {
		t.Errorf("verify with the client's heads after the rollback:\n%s", out)
	}
}

// storedEvents reads every event of a store file in global order, without a key: it only
// reads, so it signs nothing.
func storedEvents(t *testing.T, db string) []eventstore.Event {
	t.Helper()
	store, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	all, err := store.ReadAll(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return all
}
