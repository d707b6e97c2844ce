package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/serverkey"
)

// Signer is the key the stores under test must sign their heads with: an adapter's
// Harness.Open passes it to its WithSigner option, and the suite checks the signatures
// with its public half.
var Signer = func() *serverkey.Key {
	k, err := serverkey.Generate()
	if err != nil {
		panic(err)
	}
	return k
}()

// CheckGlobal asserts that a whole store, read in order, forms one global chain and that
// its signed head names its last event with a valid signature by Signer; it returns that
// head. Adapters' own tests (several processes on one database) use it too.
func CheckGlobal(t testing.TB, s eventstore.Store) eventstore.Head {
	t.Helper()
	return checkGlobal(t, s, mustReadAll(t, s))
}

// checkGlobal is CheckGlobal for evs, the whole store already read in order.
func checkGlobal(t testing.TB, s eventstore.Store, evs []eventstore.Event) eventstore.Head {
	t.Helper()
	var chain eventstore.GlobalChain
	for _, e := range evs {
		if err := chain.Next(e); err != nil {
			t.Fatal(err)
		}
	}
	h, err := s.SignedHead(context.Background())
	if err != nil {
		t.Fatalf("SignedHead: %v", err)
	}
	if h.Position != chain.Position || h.Hash != chain.Hash {
		t.Fatalf("signed head at position %d hash %q, the store ends at position %d hash %q", h.Position, h.Hash, chain.Position, chain.Hash)
	}
	if len(evs) > 0 && !serverkey.Verify(Signer.Public(), h.Message(), h.Signature) {
		t.Fatalf("the signed head at position %d does not verify with conformance.Signer (signature %x)", h.Position, h.Signature)
	}
	return h
}

// concurrently runs write for each of n writers at once, and fails t with the first
// error of any.
func concurrently(t *testing.T, n int, write func(w int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for w := range n {
		wg.Go(func() {
			if err := write(w); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// testGlobalChain: appends from many writers at once, some of them failing on a version
// or a reused ID, some retried, leave one global chain whose head is signed.
func testGlobalChain(t *testing.T, h Harness) {
	s, _ := open(t, h)
	ctx := context.Background()
	CheckGlobal(t, s)
	const writers, appends = 8, 25
	concurrently(t, writers, func(w int) error {
		for i := range appends {
			evs := events(fmt.Sprintf("g%d-%d", w, i), 1+i%3)
			stream := fmt.Sprintf("match-g%d", w)
			if i%5 == 4 {
				stream = "match-shared" // several writers on one stream
			}
			if _, err := s.Append(ctx, stream, eventstore.Any, evs...); err != nil {
				return err
			}
			// A retry (a duplicate), a stale expected version and a reused ID: each
			// writes nothing and must not leave a mark on the chain.
			if _, err := s.Append(ctx, stream, eventstore.Any, evs...); err != nil {
				return fmt.Errorf("retry: %w", err)
			}
			if _, err := s.Append(ctx, stream, 0, event(fmt.Sprintf("g%d-%d-stale", w, i))); !errors.Is(err, eventstore.ErrWrongVersion) {
				return fmt.Errorf("stale append = %v, want a version conflict", err)
			}
			reuse := event(evs[0].ID)
			reuse.Payload = []byte(`{"other":true}`)
			if _, err := s.Append(ctx, stream, eventstore.Any, reuse); !errors.Is(err, eventstore.ErrIDReused) {
				return fmt.Errorf("reused ID = %v, want ErrIDReused", err)
			}
		}
		return nil
	})
	all := mustReadAll(t, s)
	checkGapless(t, all, 0)
	checkGlobal(t, s, all)
	want := 0
	for i := range appends {
		want += writers * (1 + i%3)
	}
	if len(all) != want {
		t.Fatalf("the store holds %d events, want %d", len(all), want)
	}
}

// testGlobalTamper: the global chain reports a removed event and a changed one, by
// position, where the streams' own chains see nothing wrong.
func testGlobalTamper(t *testing.T, h Harness) {
	s, _ := open(t, h)
	for i := range 6 {
		mustAppend(t, s, fmt.Sprintf("match-t%d", i%3), eventstore.Any, event(fmt.Sprintf("t%d", i)))
	}
	all := mustReadAll(t, s)
	check := func(name string, evs []eventstore.Event, wantPos int64) {
		t.Helper()
		var chain eventstore.GlobalChain
		var first error
		for _, e := range evs {
			if err := chain.Next(e); err != nil && first == nil {
				first = err
			}
		}
		var ge *eventstore.GlobalError
		if !errors.As(first, &ge) || ge.Position != wantPos {
			t.Errorf("%s: global chain = %v, want a *GlobalError at position %d", name, first, wantPos)
		}
	}
	// Stream match-t1 holds positions 2 and 5: removing it whole leaves the other
	// streams' chains intact.
	var without []eventstore.Event
	for _, e := range all {
		if e.Stream != "match-t1" {
			without = append(without, e)
		}
	}
	check("a whole stream removed", without, 2)
	changed := append([]eventstore.Event(nil), all...)
	changed[3].Payload = []byte(`{"forged":true}`)
	changed[3].Hash = eventstore.Hash(changed[3].PrevHash, changed[3])
	check("an event rewritten with its stream hash recomputed", changed, 4)
}

// testSignedHeadDurable: the signed head survives a reopen, and the chain goes on from it.
func testSignedHeadDurable(t *testing.T, h Harness) {
	if !h.Durable {
		t.Skip("the store under test is not durable")
	}
	s, reopen := open(t, h)
	mustAppend(t, s, "match-d", eventstore.NoStream, events("d1", 3)...)
	before, err := s.SignedHead(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r := reopen(t)
	t.Cleanup(func() { _ = r.Close() })
	after, err := r.SignedHead(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if after.Position != before.Position || after.Hash != before.Hash || !after.Time.Equal(before.Time) || !bytes.Equal(after.Signature, before.Signature) {
		t.Fatalf("signed head after reopen %+v, before %+v", after, before)
	}
	mustAppend(t, r, "match-d2", eventstore.NoStream, event("d2"))
	CheckGlobal(t, r)
}
