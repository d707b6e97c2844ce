package sqlite

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/serverkey"
)

// testdata/v3.db is what the last build of schema version 3 stored for v3Appends (its
// test TestWriteV3File wrote it, with a new key whose public half is testdata/v3.pub:
// `git log -- eventstore/sqlite/testdata/v3.db`).

// v3Lengths are the streams of testdata/v3.db and their lengths: one above 200, others
// on either side of a multiple of 64, short ones, a single event.
var v3Lengths = []struct {
	stream string
	events int
}{{"match-long", 210}, {"match-129", 129}, {"match-64", 64}, {"match-63", 63}, {"match-12", 12}, {"player-a", 1}, {"player-b", 1}, {"player-c", 1}}

// v3Appends are the appends of testdata/v3.db, interleaved across the streams: one to
// three events each but for one of 70 (more than an INSERT's maxRows), with the ID forms
// of v2Appends.
func v3Appends() []appendV2 {
	forms := []func(i int) string{
		func(i int) string { return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", i*7919, i, i, i, i*104729) },
		func(i int) string { return fmt.Sprintf("loot:match-%d:%d", i, i%2) },
		func(i int) string { return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", i*31, i, i, i, i*13) },
	}
	left := make([]int, len(v3Lengths))
	for i, l := range v3Lengths {
		left[i] = l.events
	}
	var out []appendV2
	k := 0
	for turn := 0; ; turn++ {
		done := true
		for i, l := range v3Lengths {
			if left[i] == 0 {
				continue
			}
			done = false
			n := min(left[i], 1+(turn+i)%3)
			if l.stream == "match-long" && turn == 40 {
				n = 70
			}
			a := appendV2{stream: l.stream}
			for range n {
				a.events = append(a.events, testEvent(forms[k%len(forms)](k), k, fmt.Sprintf("cmd-%d", k)))
				k++
			}
			left[i] -= n
			out = append(out, a)
		}
		if done {
			return out
		}
	}
}

// copyTestdata copies a file of testdata to a directory of the test's and returns its path.
func copyTestdata(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "events.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenTheV3File: the file a build of schema version 3 wrote migrates to version 4 as
// it opens, logging its progress, and reads event for event what it held and what
// v3Appends appended, stream by stream and in all; its chains and its signed head verify,
// and it takes appends.
func TestOpenTheV3File(t *testing.T) {
	withChunk(t, 100)
	path := copyTestdata(t, "v3.db")
	before := readStored(t, path)
	var logs bytes.Buffer
	s, err := Open(context.Background(), path, WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, want := range []string{"migrating the file to schema version 4", "copied=100 of=481", "copied=481 of=481", "migrated the file to schema version 4"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the migration's log does not say %q:\n%s", want, logs.String())
		}
	}
	all := readAll(t, s)
	if len(all) != 481 || !reflect.DeepEqual(all, before) {
		t.Fatalf("read %d events, the file held %d, or they differ", len(all), len(before))
	}
	h := checkChains(t, s, all)
	pub, err := serverkey.LoadPublic("testdata/v3.pub")
	if err != nil {
		t.Fatal(err)
	}
	if !serverkey.Verify(pub, h.Message(), h.Signature) {
		t.Fatalf("the signed head %+v does not verify", h)
	}
	// Every stream holds its appends' events, in order.
	want := map[string][]eventstore.Proposed{}
	for _, a := range v3Appends() {
		want[a.stream] = append(want[a.stream], a.events...)
	}
	ctx := context.Background()
	for _, l := range v3Lengths {
		got, err := s.ReadStream(ctx, l.stream, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != l.events {
			t.Fatalf("stream %s reads %d events, want %d", l.stream, len(got), l.events)
		}
		for i, e := range got {
			if e.Version != int64(i+1) || !reflect.DeepEqual(e.Proposed, want[l.stream][i]) {
				t.Fatalf("stream %s, event %d: %+v, want %+v", l.stream, i+1, e, want[l.stream][i])
			}
		}
		if v, err := s.StreamVersion(ctx, l.stream); err != nil || v != int64(l.events) {
			t.Fatalf("StreamVersion(%s) = %d, %v, want %d", l.stream, v, err, l.events)
		}
	}
	next := eventstore.Proposed{ID: "0f0e0d0c-0b0a-4908-8706-050403020100", Type: "MovePlayed", SchemaVersion: 1, Payload: []byte(`{}`), Actor: "system"}
	if _, err := s.Append(ctx, "match-long", 210, next); err != nil {
		t.Fatal(err)
	}
	checkChains(t, s, readAll(t, s))
}

// TestMigrateTheV3FileAsTheWriterStores: the file of schema version 3, migrated, holds row
// for row what this build's writer stores for the same appends: the prev of every event,
// the heads and the marks computed in SQL from the old index are the writer's.
func TestMigrateTheV3FileAsTheWriterStores(t *testing.T) {
	withChunk(t, 64)
	old := copyTestdata(t, "v3.db")
	s, err := Open(context.Background(), old, WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	fresh := filepath.Join(t.TempDir(), "new.db")
	if s, err = Open(context.Background(), fresh); err != nil {
		t.Fatal(err)
	}
	for _, a := range v3Appends() {
		if _, err := s.Append(context.Background(), a.stream, eventstore.Any, a.events...); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if a, b := dumpRows(t, old), dumpRows(t, fresh); a != b {
		t.Fatalf("the migrated file stores\n%s\nthe writer stores\n%s", a, b)
	}
}
