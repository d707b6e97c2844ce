package headlog

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

func TestAppendAndRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arbiter.heads")
	at := time.Date(2026, 12, 1, 0, 0, 0, 123456789, time.UTC)
	want := []eventstore.Head{
		{Position: 7, Hash: "aa", Time: at, Signature: []byte{1, 2, 3}},
		{Position: 9, Hash: "bb", Time: at.Add(time.Second), Signature: []byte{4}},
	}
	for _, h := range want {
		if err := Append(path, h); err != nil {
			t.Fatal(err)
		}
	}
	check := func(name string) {
		t.Helper()
		got, err := Read(path)
		if err != nil || len(got) != len(want) {
			t.Fatalf("%s: Read = %d heads, %v; want %d", name, len(got), err, len(want))
		}
		for i := range want {
			if got[i].Position != want[i].Position || got[i].Hash != want[i].Hash || !got[i].Time.Equal(want[i].Time) || !bytes.Equal(got[i].Signature, want[i].Signature) {
				t.Errorf("%s: head %d = %+v, want %+v", name, i, got[i], want[i])
			}
		}
	}
	check("as written")

	// A crash while a line was written leaves it cut short: it is left out.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"position":12,"ha`)
	f.Close()
	check("with a torn last line")

	// A line in the middle that does not read is an error, not a head less.
	data, _ := os.ReadFile(path)
	os.WriteFile(path, append([]byte("garbage\n"), data...), 0o600)
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("Read of a damaged log = %v, want an error naming line 1", err)
	}
}

// TestKeep: the keeper logs the store's head as it moves, and the last one when it stops.
func TestKeep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arbiter.heads")
	store := memstore.New()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Keep(ctx, store, path, time.Millisecond, func(err error) { t.Error(err) })
	}()
	appendOne := func(id string) int64 {
		res, err := store.Append(context.Background(), "s", eventstore.Any, eventstore.Proposed{ID: id, Type: "T", SchemaVersion: 1, Payload: []byte(`{}`)})
		if err != nil {
			t.Fatal(err)
		}
		return res.LastPosition
	}
	first := appendOne("a")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		if heads, _ := Read(path); len(heads) > 0 && heads[len(heads)-1].Position == first {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the keeper never logged the first head")
		}
	}
	last := appendOne("b")
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	heads, err := Read(path)
	if err != nil || len(heads) == 0 || heads[len(heads)-1].Position != last {
		t.Fatalf("after the keeper stopped the log ends at %v, %v; want the last head, position %d", heads, err, last)
	}
	for i := 1; i < len(heads); i++ {
		if heads[i].Position == heads[i-1].Position {
			t.Errorf("the head at position %d is logged twice in a row", heads[i].Position)
		}
	}
}
