package replay

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/serverkey"
)

// publicStore is a signed store holding public events and, when hidden, a hidden stream's
// event after each public one, with public event i's payload payload(i).
func publicStore(t *testing.T, key *serverkey.Key, public int, hidden bool, payload func(int) string) *memstore.Store {
	t.Helper()
	ctx := context.Background()
	s := memstore.New(memstore.WithSigner(key))
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for i := range public {
		p := eventstore.Proposed{ID: fmt.Sprintf("p%d", i), Type: "Moved", SchemaVersion: 1, Payload: []byte(payload(i)), Time: at.Add(time.Duration(i) * time.Second)}
		if _, err := s.Append(ctx, matchstream.Name("m"), int64(i), p); err != nil {
			t.Fatal(err)
		}
		if hidden {
			h := eventstore.Proposed{ID: fmt.Sprintf("h%d", i), Type: "Signalled", SchemaVersion: 1, Payload: []byte(`{"basis":1}`), Time: at.Add(time.Hour)}
			if _, err := s.Append(ctx, matchstream.Hidden("m", 0), int64(i), h); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s
}

// publicHead is the signed head of s's public chain, as /signed-head serves it.
func publicHead(t *testing.T, s *memstore.Store, key *serverkey.Key) eventstore.Head {
	t.Helper()
	all, err := s.ReadAll(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var c eventstore.PublicChain
	for _, ev := range all {
		if matchstream.Public(ev.Stream) {
			c.Next(ev)
		}
	}
	return c.Head(key)
}

// A public head covers the public events alone: hidden events neither move it nor count
// in it, so the same public events give the same head with or without them; and verify
// holds a store to it as to the store's own heads: a public event lost, or rewritten, is
// reported, and so is a head whose signature does not verify.
func TestVerifyHoldsTheStoreToItsPublicHeads(t *testing.T) {
	key, err := serverkey.Generate()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	move := func(i int) string { return fmt.Sprintf(`{"n":%d}`, i) }
	with, without := publicStore(t, key, 4, true, move), publicStore(t, key, 4, false, move)
	head := publicHead(t, with, key)
	if other := publicHead(t, without, key); head.Position != 4 || head.Hash != other.Hash || !head.Time.Equal(other.Time) || string(head.Signature) != string(other.Signature) {
		t.Fatalf("the public heads differ with hidden events and without: %+v, %+v", head, other)
	}
	for _, s := range []*memstore.Store{with, without} {
		r, err := VerifyStore(ctx, s, key.Public(), []eventstore.Head{head})
		if err != nil || !r.OK() || r.Public != 4 {
			t.Fatalf("a store verified against its own public head: %v %+v", err, r.Problems)
		}
	}
	forged := head
	forged.Position = 3
	cases := []struct {
		name  string
		store *memstore.Store
		head  eventstore.Head
		want  string
	}{
		{"a public event lost", publicStore(t, key, 3, true, move), head, "public events 4 to 4, acknowledged, are missing"},
		{"a public event rewritten", publicStore(t, key, 4, true, func(i int) string { return move(i * 2) }), head, "the store was rewritten"},
		{"a head forged", with, forged, "does not verify"},
	}
	for _, c := range cases {
		r, err := VerifyStore(ctx, c.store, key.Public(), []eventstore.Head{c.head})
		if err != nil {
			t.Fatal(err)
		}
		if r.OK() || !strings.Contains(r.Err().Error(), c.want) {
			t.Errorf("%s: verify says %v, want %q", c.name, r.Err(), c.want)
		}
	}
}
