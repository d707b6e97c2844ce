package memstore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Harness{
		Open: func(t *testing.T) (eventstore.Store, func(*testing.T) eventstore.Store) {
			return memstore.New(memstore.WithSigner(conformance.Signer)), nil
		},
		Durable: false,
	})
}

// A store of a few thousand events, over several chunks of its log, reads back every one
// at its position, by stream and in global order, and its chains verify.
func TestEventsAcrossChunks(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	const appends = 1500 // of one to three events: 3,000 events
	for i := range appends {
		stream := fmt.Sprintf("s%d", i%7)
		evs := make([]eventstore.Proposed, 1+i%3)
		for j := range evs {
			evs[j] = eventstore.Proposed{ID: fmt.Sprintf("e%d.%d", i, j), Type: "T", SchemaVersion: 1, Payload: []byte(fmt.Sprintf(`{"i":%d}`, i))}
		}
		if _, err := s.Append(ctx, stream, eventstore.Any, evs...); err != nil {
			t.Fatal(err)
		}
	}
	all, err := s.ReadAll(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3000 {
		t.Fatalf("ReadAll gives %d events, want 3000", len(all))
	}
	for i, e := range all {
		if e.Position != int64(i)+1 {
			t.Fatalf("event %d has position %d", i, e.Position)
		}
	}
	for _, after := range []int64{0, 1, 1023, 1024, 1025, 2047, 2048, 2999} {
		page, err := s.ReadAll(ctx, after, 5)
		if err != nil {
			t.Fatal(err)
		}
		if want := min(5, 3000-int(after)); len(page) != want || page[0].Position != after+1 || page[0].ID != all[after].ID {
			t.Fatalf("ReadAll after %d: %d events from position %d, want %d from %d", after, len(page), page[0].Position, want, after+1)
		}
	}
	total := 0
	for i := range 7 {
		evs, err := s.ReadStream(ctx, fmt.Sprintf("s%d", i), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := eventstore.VerifyChain(evs); err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if e.ID != all[e.Position-1].ID {
				t.Fatalf("stream s%d version %d: %s at position %d, which holds %s", i, e.Version, e.ID, e.Position, all[e.Position-1].ID)
			}
		}
		total += len(evs)
	}
	if total != 3000 {
		t.Fatalf("the streams hold %d events, want 3000", total)
	}
}
