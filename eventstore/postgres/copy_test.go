package postgres_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/postgres"
)

// TestCopyStoresEveryValueExactly: the adapter's own binary COPY encoding stores what it
// is given, multi-byte text and a payload larger than one COPY message included, and
// refuses a schema version the integer column cannot hold, storing nothing of the batch.
func TestCopyStoresEveryValueExactly(t *testing.T) {
	url := serverURL(t)
	s := open(t, url, freshSchema(t, url))
	defer s.Close()
	ctx := context.Background()

	big := []byte(`{"board":"` + strings.Repeat("é♞", 30000) + `"}`) // about 150 KB
	in := []eventstore.Proposed{
		{ID: "ü-1", Type: "Zug✓", SchemaVersion: math.MaxInt32, Payload: big, CommandID: "c-ß", Actor: "player:Ωmega"},
		{ID: "ü-2", Type: "T", SchemaVersion: 1, Payload: []byte(`{}`), CommandID: "c-2", Actor: "system"},
	}
	if _, err := s.Append(ctx, "match-ñ", 0, in...); err != nil {
		t.Fatal(err)
	}
	got, err := s.ReadAll(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("read %d events, want 2", len(got))
	}
	for i, e := range got {
		p := in[i]
		if e.Position != int64(i+1) || e.Stream != "match-ñ" || e.Version != int64(i+1) || e.ID != p.ID || e.Type != p.Type ||
			e.SchemaVersion != p.SchemaVersion || !bytes.Equal(e.Payload, p.Payload) || e.CommandID != p.CommandID || e.Actor != p.Actor {
			t.Fatalf("event %d read back as %+v, appended %+v", i, e, p)
		}
	}
	// The stream's hashes cover every field, the time and visibility included.
	if err := eventstore.VerifyChain(got); err != nil {
		t.Fatal(err)
	}
	conformance.CheckGlobal(t, s)

	tooBig := eventstore.Proposed{ID: "x", Type: "T", SchemaVersion: math.MaxInt32 + 1, Payload: []byte(`{}`), CommandID: "c", Actor: "system"}
	if _, err := s.Append(ctx, "other", 0, tooBig); err == nil {
		t.Fatal("a schema version beyond the integer column's range was stored")
	} else if errors.Is(err, eventstore.ErrClosed) {
		t.Fatal(err)
	}
	if after, err := s.ReadAll(ctx, 0, 0); err != nil || len(after) != 2 {
		t.Fatalf("after the refused append the store holds %d events (%v), want 2", len(after), err)
	}
}

// TestHeadLiteralsReadBackExactly: the head's values, written into the closing message as
// literals, read back as they were, quotes and backslashes included, whatever the server's
// standard_conforming_strings.
func TestHeadLiteralsReadBackExactly(t *testing.T) {
	url := serverURL(t)
	ctx := context.Background()
	conn := connect(t, url)
	texts := []string{"", "0123abcdef", `it's`, `a\b`, `\x41`, `''\\'`, "é♞\n\t"}
	blobs := [][]byte{nil, {}, {0, 1, 0xff}, []byte(`\'`)}
	for _, scs := range []string{"on", "off"} {
		if _, err := conn.Exec(ctx, "SET standard_conforming_strings = "+scs); err != nil {
			t.Fatal(err)
		}
		for _, s := range texts {
			got, err := simpleQuery(ctx, conn, "SELECT "+postgres.QuoteText(s))
			if err != nil || got[0] != s {
				t.Errorf("standard_conforming_strings=%s: %q read back as %q (%v)", scs, s, got, err)
			}
		}
		for _, b := range blobs {
			lit := postgres.QuoteBytes(b)
			got, err := simpleQuery(ctx, conn, "SELECT encode("+lit+", 'hex'), "+lit+" IS NULL")
			if err != nil || got[0] != hex.EncodeToString(b) || got[1] != fmt.Sprint(b == nil)[:1] {
				t.Errorf("standard_conforming_strings=%s: %x (nil %t) read back as %q (%v)", scs, b, b == nil, got, err)
			}
		}
	}
}

// simpleQuery runs sql in the simple protocol, as the closing message is sent (pgx's own
// simple protocol refuses standard_conforming_strings=off), and returns its one row's
// values as text.
func simpleQuery(ctx context.Context, conn *pgx.Conn, sql string) ([]string, error) {
	res, err := conn.PgConn().Exec(ctx, sql).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(res) != 1 || len(res[0].Rows) != 1 {
		return nil, fmt.Errorf("%q answered %d results, want one row", sql, len(res))
	}
	var out []string
	for _, v := range res[0].Rows[0] {
		out = append(out, string(v))
	}
	return out, nil
}

// TestAFailureAfterTheCopyStoresNothing: the events, the head and COMMIT go in one
// message; when a statement after the COPY fails (here the head's UPDATE, refused by a
// check the test adds), the copied rows roll back with it, the append fails, and the
// store goes on from where it was, without a gap.
func TestAFailureAfterTheCopyStoresNothing(t *testing.T) {
	url := serverURL(t)
	schema := freshSchema(t, url)
	s := open(t, url, schema)
	defer s.Close()
	ctx := context.Background()
	conn := connect(t, url)
	head := pgx.Identifier{schema, "head"}.Sanitize()

	ev := func(id string) eventstore.Proposed {
		return eventstore.Proposed{ID: id, Type: "T", SchemaVersion: 1, Payload: []byte(`{}`), CommandID: id, Actor: "system"}
	}
	if _, err := s.Append(ctx, "a", 0, ev("a1")); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `ALTER TABLE `+head+` ADD CONSTRAINT at_most_two CHECK (position <= 2)`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "b", 0, ev("b1"), ev("b2")); err == nil {
		t.Fatal("an append whose head update failed was acknowledged")
	}
	if got, err := s.ReadAll(ctx, 0, 0); err != nil || len(got) != 1 {
		t.Fatalf("after the failed append the store holds %d events (%v), want 1", len(got), err)
	}
	if _, err := conn.Exec(ctx, `ALTER TABLE `+head+` DROP CONSTRAINT at_most_two`); err != nil {
		t.Fatal(err)
	}
	res, err := s.Append(ctx, "b", 0, ev("b1"), ev("b2"))
	if err != nil {
		t.Fatal(err)
	}
	if res.FirstPosition != 2 || res.Duplicate {
		t.Fatalf("the append after the failed one got %+v, want positions from 2", res)
	}
	conformance.CheckGlobal(t, s)
}
