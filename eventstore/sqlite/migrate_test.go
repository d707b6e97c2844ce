package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
)

// TestMigrateFromVersion1: a file written before the global chain gets one when it is
// opened, and a signed head; appends then go on from it.
func TestMigrateFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	// The tables of schema version 1.
	if _, err := db.Exec(`CREATE TABLE schema_version (version INTEGER NOT NULL);
		INSERT INTO schema_version VALUES (1);
		CREATE TABLE events (position INTEGER PRIMARY KEY, stream TEXT NOT NULL, version INTEGER NOT NULL,
			id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, schema_version INTEGER NOT NULL, payload BLOB NOT NULL,
			command_id TEXT NOT NULL, actor TEXT NOT NULL, visibility TEXT NOT NULL, time_ns INTEGER NOT NULL,
			prev_hash TEXT NOT NULL, hash TEXT NOT NULL, UNIQUE (stream, version))`); err != nil {
		t.Fatal(err)
	}
	var old []eventstore.Proposed
	for i := range 5000 { // more than one page of the migration
		old = append(old, eventstore.Proposed{ID: fmt.Sprintf("e%d", i), Type: "T", SchemaVersion: 1, Payload: []byte(`{}`)})
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eventstore.Seal("s", 0, "", 1, "", time.Now(), old) {
		if _, err := tx.Exec(`INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.Position, e.Stream, e.Version, e.ID,
			e.Type, e.SchemaVersion, e.Payload, e.CommandID, e.Actor, e.Visibility.String(), e.Time.UnixNano(), e.PrevHash, e.Hash); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := open(t, path)
	defer s.Close()
	ctx := context.Background()
	if _, err := s.Append(ctx, "s", 5000, eventstore.Proposed{ID: "new", Type: "T", SchemaVersion: 1, Payload: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if h := conformance.CheckGlobal(t, s); h.Position != 5001 {
		t.Fatalf("signed head after the migration and an append: %+v, want position 5001", h)
	}
}
