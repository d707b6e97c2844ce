package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
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
