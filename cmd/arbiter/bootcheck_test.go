package main

import (
	"bufio"
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

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/matchstream"
)

// bootRefused runs `arbiter serve` on db and expects it to exit with an error instead of
// serving; it returns what serve wrote on stderr.
func bootRefused(t *testing.T, db string, extra ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	stderr := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		code := run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, extra...), pw, stderr)
		pw.Close()
		done <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err == nil {
		cancel() // it serves: stop it
		go io.Copy(io.Discard, pr)
	}
	code := <-done
	if err == nil {
		t.Fatalf("serve booted on a damaged store (%q); /readyz and writes would tell", line)
	}
	if code == 0 {
		t.Fatalf("serve exited 0 on a damaged store: %s", stderr)
	}
	return stderr.String()
}

// pgStore returns the URL of a fresh PostgreSQL store (its own schema, dropped at the
// end) and a connection to it.
func pgStore(t *testing.T) (string, *pgx.Conn) {
	t.Helper()
	pgURL := needServer(t, "ARBITER_PG_URL")
	// A postgres:// store's key and head log default to the working directory.
	dir := t.TempDir()
	t.Setenv("ARBITER_KEY", filepath.Join(dir, "arbiter.key"))
	t.Setenv("ARBITER_HEAD_LOG", filepath.Join(dir, "arbiter.heads"))
	schema := fmt.Sprintf("arbiter_boot_%d", time.Now().UnixNano())
	conn, err := pgx.Connect(context.Background(), pgURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = conn.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+schema+", "+schema+"_read CASCADE")
		conn.Close(context.Background())
	})
	sep := "?"
	if strings.Contains(pgURL, "?") {
		sep = "&"
	}
	return pgURL + sep + "schema=" + schema, conn
}

// ready returns the status and body of /readyz.
func (s *server) ready(t *testing.T) (int, string) {
	t.Helper()
	resp, err := http.Get(s.url + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestServeRefusesAStoreWhoseHeadIsBehind: a PostgreSQL store whose head row says less
// than the events it holds (its last rows lost in one table and not the other) booted
// healthy and failed every write on a UNIQUE position. serve now refuses it, naming the
// problem and what to do; and a running server whose store goes bad that way stops being
// ready (/readyz 503 with the reason) while /healthz still says the process serves.
func TestServeRefusesAStoreWhoseHeadIsBehind(t *testing.T) {
	db, conn := pgStore(t)
	srv := startServer(t, db)
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	if code, body := srv.ready(t); code != http.StatusOK || body != "ready\n" {
		t.Fatalf("/readyz of a sound server: %d %q", code, body)
	}
	schema := db[strings.LastIndex(db, "schema=")+len("schema="):]
	if _, err := conn.Exec(context.Background(), `UPDATE `+schema+`.head SET position = position - 2`); err != nil {
		t.Fatal(err)
	}
	if r := srv.play(t, white, id, "e4"); len(r.Errors) == 0 {
		t.Fatalf("a move was taken by a store whose head is behind its events")
	}
	if code, body := srv.ready(t); code != http.StatusServiceUnavailable || !strings.Contains(body, "the event store cannot take writes") || !strings.Contains(body, "after the head position") {
		t.Errorf("/readyz of a server whose store cannot take writes: %d %q", code, body)
	}
	if resp, err := http.Get(srv.url + "/healthz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("/healthz: %v %v", resp, err)
	}
	srv.stop(t)

	out := bootRefused(t, db)
	for _, want := range []string{"cannot take writes", "after the head position", "the next append would take a position already used", "restore the store from a backup", "arbiter verify"} {
		if !strings.Contains(out, want) {
			t.Errorf("serve's refusal lacks %q: %s", want, out)
		}
	}
}

// TestServeRefusesAFileWhoseLastEventIsUnchained: an SQLite file whose last event lost
// the event before it in its stream (the end of the file is damaged) is refused at boot
// with a reason naming the stream, instead of serving on.
func TestServeRefusesAFileWhoseLastEventIsUnchained(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	if r := srv.play(t, white, id, "e4"); len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	srv.stop(t)
	sqlDB, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	// Version 7 (e4) is the store's last event; version 6 goes.
	if _, err := sqlDB.Exec(`DELETE FROM events WHERE stream_id = (SELECT id FROM streams WHERE name = ?) AND version = 6`, matchstream.Name(id)); err != nil {
		t.Fatal(err)
	}
	sqlDB.Close()
	out := bootRefused(t, db)
	if !strings.Contains(out, "version 6 of stream "+matchstream.Name(id)+", before the last event, is missing") || !strings.Contains(out, "restore the store from a backup") {
		t.Errorf("serve's refusal: %s", out)
	}
}

// TestServeRefusesAFileCutAtItsEnd: an SQLite file that lost its last page is refused at
// boot with what to do, not only SQLite's "malformed".
func TestServeRefusesAFileCutAtItsEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	srv.newMatch(t, white, black, false)
	srv.stop(t)
	info, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(db, info.Size()-4096); err != nil {
		t.Fatal(err)
	}
	out := bootRefused(t, db)
	if !strings.Contains(out, "the store is damaged") || !strings.Contains(out, "restore the store from a backup") {
		t.Errorf("serve's refusal: %s", out)
	}
}
