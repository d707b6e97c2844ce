package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
)

// TestMigrateFromVersion1: a store written before the global chain gets one when it is
// opened, and a signed head; appends then go on from it.
func TestMigrateFromVersion1(t *testing.T) {
	url := serverURL(t)
	schema := freshSchema(t, url)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	s := pgx.Identifier{schema}.Sanitize()
	// The tables of schema version 1.
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+s+`;
		CREATE TABLE `+s+`.schema_version (version integer NOT NULL);
		INSERT INTO `+s+`.schema_version VALUES (1);
		CREATE TABLE `+s+`.head (position bigint NOT NULL);
		CREATE TABLE `+s+`.events (position bigint PRIMARY KEY, stream text NOT NULL, version bigint NOT NULL,
			id text NOT NULL UNIQUE, type text NOT NULL, schema_version integer NOT NULL, payload bytea NOT NULL,
			command_id text NOT NULL, actor text NOT NULL, visibility text NOT NULL, time_ns bigint NOT NULL,
			prev_hash text NOT NULL, hash text NOT NULL, UNIQUE (stream, version))`); err != nil {
		t.Fatal(err)
	}
	var old []eventstore.Proposed
	for i := range 5000 { // more than one page of the migration
		old = append(old, eventstore.Proposed{ID: fmt.Sprintf("e%d", i), Type: "T", SchemaVersion: 1, Payload: []byte(`{}`)})
	}
	var rows [][]any
	for _, e := range eventstore.Seal("s", 0, "", 1, "", time.Now(), old) {
		rows = append(rows, []any{e.Position, e.Stream, e.Version, e.ID, e.Type, e.SchemaVersion, e.Payload,
			e.CommandID, e.Actor, e.Visibility.String(), e.Time.UnixNano(), e.PrevHash, e.Hash})
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{schema, "events"}, []string{"position", "stream", "version", "id", "type", "schema_version",
		"payload", "command_id", "actor", "visibility", "time_ns", "prev_hash", "hash"}, pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `INSERT INTO `+s+`.head VALUES (5000)`); err != nil {
		t.Fatal(err)
	}

	st := open(t, url, schema)
	defer st.Close()
	if _, err := st.Append(ctx, "s", 5000, eventstore.Proposed{ID: "new", Type: "T", SchemaVersion: 1, Payload: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if h := conformance.CheckGlobal(t, st); h.Position != 5001 {
		t.Fatalf("signed head after the migration and an append: %+v, want position 5001", h)
	}
}
