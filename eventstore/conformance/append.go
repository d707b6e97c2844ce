package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

func testAppendAndRead(t *testing.T, h Harness) {
	s, _ := open(t, h)
	in := events("a", 3)
	in[1].Visibility = visibility.Seat(1)
	in[1].Actor = "system"
	in[1].SchemaVersion = 3
	in[2].Visibility = visibility.Server
	in[2].Payload = []byte(` [1, 2, {"x": "é"}] `) // stored byte for byte, not re-encoded
	res := mustAppend(t, s, "match-1", eventstore.NoStream, in...)
	want := eventstore.AppendResult{FirstVersion: 1, LastVersion: 3, FirstPosition: 1, LastPosition: 3}
	if res != want {
		t.Fatalf("result = %+v, want %+v", res, want)
	}
	res = mustAppend(t, s, "match-2", eventstore.NoStream, event("b-1"))
	if want := (eventstore.AppendResult{FirstVersion: 1, LastVersion: 1, FirstPosition: 4, LastPosition: 4}); res != want {
		t.Fatalf("result = %+v, want %+v", res, want)
	}

	got := mustReadStream(t, s, "match-1")
	if len(got) != len(in) {
		t.Fatalf("read %d events, want %d", len(got), len(in))
	}
	for i, e := range got {
		p := in[i]
		if e.ID != p.ID || e.Type != p.Type || e.SchemaVersion != p.SchemaVersion || !bytes.Equal(e.Payload, p.Payload) ||
			e.CommandID != p.CommandID || e.Actor != p.Actor || e.Visibility != p.Visibility {
			t.Errorf("event %d = %+v, want the content of %+v", i, e.Proposed, p)
		}
		if e.Stream != "match-1" || e.Version != int64(i)+1 || e.Position != int64(i)+1 {
			t.Errorf("event %d at %q v%d p%d", i, e.Stream, e.Version, e.Position)
		}
		if e.Time.Location() != time.UTC {
			t.Errorf("event %d time %v is not in UTC", i, e.Time)
		}
		if wantTime := p.Time.Truncate(max(h.TimePrecision, 1)); !e.Time.Equal(wantTime) && !e.Time.Equal(p.Time.Round(max(h.TimePrecision, 1))) {
			t.Errorf("event %d time %v, want %v", i, e.Time, wantTime)
		}
		if e.Hash != eventstore.Hash(e.PrevHash, e) {
			t.Errorf("event %d hash %q does not match its content", i, e.Hash)
		}
	}
	if v := mustVersion(t, s, "match-1"); v != 3 {
		t.Errorf("StreamVersion = %d, want 3", v)
	}
	if p := mustHead(t, s); p != 4 {
		t.Errorf("HeadPosition = %d, want 4", p)
	}

	// A zero time is stamped by the store.
	zero := event("c-1")
	zero.Time = time.Time{}
	mustAppend(t, s, "match-3", eventstore.NoStream, zero)
	if e := mustReadStream(t, s, "match-3")[0]; e.Time.IsZero() || e.Time.Location() != time.UTC {
		t.Errorf("zero time stored as %v, want the append time in UTC", e.Time)
	}
}

func testExpectedVersion(t *testing.T, h Harness) {
	s, _ := open(t, h)
	ctx := context.Background()
	const st = "match-ev"
	_, err := s.Append(ctx, st, 3, event("x-0"))
	conflict(t, err, st, 3, 0)
	mustAppend(t, s, st, eventstore.NoStream, event("x-1"))
	_, err = s.Append(ctx, st, eventstore.NoStream, event("x-2"))
	conflict(t, err, st, eventstore.NoStream, 1)
	mustAppend(t, s, st, 1, event("x-2"), event("x-3"))
	_, err = s.Append(ctx, st, 1, event("x-4"))
	conflict(t, err, st, 1, 3)
	_, err = s.Append(ctx, st, 5, event("x-4"))
	conflict(t, err, st, 5, 3)
	if v, p := mustVersion(t, s, st), mustHead(t, s); v != 3 || p != 3 {
		t.Fatalf("after the conflicts: version %d head %d, want 3 and 3: a failed append wrote", v, p)
	}
	res := mustAppend(t, s, st, eventstore.Any, event("x-4"))
	if res.FirstVersion != 4 || res.FirstPosition != 4 {
		t.Fatalf("Any appended at %+v, want version 4 position 4", res)
	}
	for _, e := range mustReadAll(t, s) {
		if e.ID == "x-0" {
			t.Fatal("the event of a failed append was stored")
		}
	}
}

func testConcurrentSameVersion(t *testing.T, h Harness) {
	s, _ := open(t, h)
	const st, n = "match-race", 32
	mustAppend(t, s, st, eventstore.NoStream, event("seed"))
	var (
		wg        sync.WaitGroup
		start     = make(chan struct{})
		errs      = make([]error, n)
		winners   int
		conflicts int
	)
	for i := range n {
		wg.Go(func() {
			<-start
			_, errs[i] = s.Append(context.Background(), st, 1, event(fmt.Sprintf("race-%d", i)))
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		switch {
		case err == nil:
			winners++
		case errors.Is(err, eventstore.ErrWrongVersion):
			conflict(t, err, st, 1, 2)
			conflicts++
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if winners != 1 || conflicts != n-1 {
		t.Fatalf("%d winners and %d conflicts, want 1 and %d", winners, conflicts, n-1)
	}
	if v := mustVersion(t, s, st); v != 2 {
		t.Fatalf("version %d, want 2", v)
	}
	checkStream(t, mustReadStream(t, s, st))
}

// testConcurrentRetries sends the same append many times at once, as a client retrying
// after a timeout may: adapters that commit in batches see the copies in one batch, where
// the first one's events are not yet stored when the others are decided.
func testConcurrentRetries(t *testing.T, h Harness) {
	s, _ := open(t, h)
	const st, n = "match-retries", 32
	evs := events("retry", 2)
	var (
		wg      sync.WaitGroup
		start   = make(chan struct{})
		results = make([]eventstore.AppendResult, n)
		errs    = make([]error, n)
	)
	for i := range n {
		wg.Go(func() {
			<-start
			results[i], errs[i] = s.Append(context.Background(), st, eventstore.NoStream, evs...)
		})
	}
	close(start)
	wg.Wait()
	firsts := 0
	for i, res := range results {
		if errs[i] != nil {
			t.Fatalf("copy %d: %v", i, errs[i])
		}
		if !res.Duplicate {
			firsts++
		}
		if res.FirstVersion != 1 || res.LastVersion != 2 || res.FirstPosition != 1 || res.LastPosition != 2 {
			t.Fatalf("copy %d = %+v, want versions and positions 1 to 2", i, res)
		}
	}
	if firsts != 1 {
		t.Fatalf("%d copies were not duplicates, want 1", firsts)
	}
	checkStream(t, mustReadStream(t, s, st))
	if p := mustHead(t, s); p != 2 {
		t.Fatalf("head %d, want 2", p)
	}
}

func testManyStreamsConcurrently(t *testing.T, h Harness) {
	s, _ := open(t, h)
	const writers, streams, appends = 16, 4, 20
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			st := fmt.Sprintf("match-%d", w%streams)
			for i := range appends {
				// Every third append carries two events.
				evs := events(fmt.Sprintf("w%d-a%d", w, i), 1+min(i%3, 1))
				for {
					v, err := s.StreamVersion(ctx, st)
					if err != nil {
						errs <- err
						return
					}
					if _, err = s.Append(ctx, st, v, evs...); err == nil {
						break
					} else if !errors.Is(err, eventstore.ErrWrongVersion) {
						errs <- err
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	all := mustReadAll(t, s)
	checkGlobal(t, s, all)
	perWriter := 0
	for i := range appends {
		perWriter += 1 + min(i%3, 1)
	}
	if len(all) != writers*perWriter {
		t.Fatalf("%d events stored, want %d", len(all), writers*perWriter)
	}
	checkGapless(t, all, 0)
	seen := make(map[string]bool)
	for _, e := range all {
		if seen[e.ID] {
			t.Fatalf("event %q stored twice", e.ID)
		}
		seen[e.ID] = true
	}
	for i := range streams {
		checkStream(t, mustReadStream(t, s, fmt.Sprintf("match-%d", i)))
	}
}

func testIdempotency(t *testing.T, h Harness) {
	s, _ := open(t, h)
	ctx := context.Background()
	const st = "match-idem"
	ab := events("id", 2)
	first := mustAppend(t, s, st, eventstore.NoStream, ab...)
	again := mustAppend(t, s, st, eventstore.NoStream, ab...)
	if want := first; !again.Duplicate || (eventstore.AppendResult{
		FirstVersion: again.FirstVersion, LastVersion: again.LastVersion,
		FirstPosition: again.FirstPosition, LastPosition: again.LastPosition,
	}) != want {
		t.Fatalf("retry = %+v, want %+v with Duplicate", again, want)
	}
	if v, p := mustVersion(t, s, st), mustHead(t, s); v != 2 || p != 2 {
		t.Fatalf("after a retry: version %d head %d, want 2 and 2", v, p)
	}

	// The stream moves on; the retry of the first append still succeeds, even with a new
	// receive time, and whatever it expects.
	mustAppend(t, s, st, 2, event("id-3"))
	late := events("id", 2)
	late[0].Time = late[0].Time.Add(time.Minute)
	for _, expected := range []int64{eventstore.NoStream, eventstore.Any, 7} {
		res, err := s.Append(ctx, st, expected, late...)
		if err != nil || !res.Duplicate || res.FirstPosition != first.FirstPosition || res.LastVersion != first.LastVersion {
			t.Fatalf("late retry expecting %d = %+v, %v; want %+v with Duplicate", expected, res, err, first)
		}
	}

	reused := func(name string, stream string, evs ...eventstore.Proposed) {
		t.Helper()
		if _, err := s.Append(ctx, stream, eventstore.Any, evs...); !errors.Is(err, eventstore.ErrIDReused) {
			t.Errorf("%s: got %v, want ErrIDReused", name, err)
		}
	}
	changed := event("id-1")
	changed.Payload = []byte(`{"other":true}`)
	reused("different payload", st, changed, ab[1])
	changed = event("id-1")
	changed.Type = "CardPlayed"
	reused("different type", st, changed, ab[1])
	reused("other stream", "match-other", ab...)
	reused("partial overlap", st, ab[0], event("id-new"))
	reused("other order", st, ab[1], ab[0])
	reused("not consecutive", st, ab[0], event("id-3"))
	// A contiguous run of identical stored events is a duplicate too: the store keeps no
	// boundary between appends, and nothing is written either way.
	if res, err := s.Append(ctx, st, eventstore.Any, ab[1]); err != nil || !res.Duplicate || res.FirstVersion != 2 {
		t.Fatalf("resending the second event alone = %+v, %v; want a duplicate at version 2", res, err)
	}

	if v, p := mustVersion(t, s, st), mustHead(t, s); v != 3 || p != 3 {
		t.Fatalf("after the rejected appends: version %d head %d, want 3 and 3", v, p)
	}
	for _, e := range mustReadAll(t, s) {
		if e.ID == "id-new" {
			t.Fatal("a rejected append wrote id-new")
		}
	}
}

func testOrdering(t *testing.T, h Harness) {
	s, _ := open(t, h)
	ctx := context.Background()
	for i := range 10 {
		for _, st := range []string{"match-a", "match-b", "match-c"} {
			mustAppend(t, s, st, int64(i), event(fmt.Sprintf("%s-%d", st, i)))
		}
	}
	all := mustReadAll(t, s)
	if len(all) != 30 {
		t.Fatalf("ReadAll returned %d events, want 30", len(all))
	}
	checkGapless(t, all, 0)
	for i, e := range all {
		if want := fmt.Sprintf("match-%c-%d", "abc"[i%3], i/3); e.ID != want {
			t.Fatalf("position %d holds %q, want %q: ReadAll order is not append order", e.Position, e.ID, want)
		}
	}
	for _, c := range []struct {
		after int64
		limit int
		want  int
	}{{0, 7, 7}, {7, 7, 7}, {21, 7, 7}, {28, 7, 2}, {30, 7, 0}, {45, 0, 0}, {12, 0, 18}} {
		page, err := s.ReadAll(ctx, c.after, c.limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) != c.want {
			t.Fatalf("ReadAll(after %d, limit %d) returned %d events, want %d", c.after, c.limit, len(page), c.want)
		}
		checkGapless(t, page, c.after)
	}
	for _, c := range []struct {
		after int64
		limit int
		first int64
		n     int
	}{{0, 0, 1, 10}, {3, 4, 4, 4}, {8, 5, 9, 2}, {10, 3, 0, 0}, {20, 0, 0, 0}} {
		page, err := s.ReadStream(ctx, "match-b", c.after, c.limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) != c.n {
			t.Fatalf("ReadStream(after %d, limit %d) returned %d events, want %d", c.after, c.limit, len(page), c.n)
		}
		for i, e := range page {
			if e.Stream != "match-b" || e.Version != c.first+int64(i) {
				t.Fatalf("ReadStream(after %d, limit %d)[%d] = %q v%d", c.after, c.limit, i, e.Stream, e.Version)
			}
		}
	}
}

func testHashChain(t *testing.T, h Harness) {
	s, _ := open(t, h)
	const st = "match-hash"
	mustAppend(t, s, st, eventstore.NoStream, events("h1", 2)...)
	mustAppend(t, s, "match-noise", eventstore.NoStream, event("noise"))
	mustAppend(t, s, st, 2, events("h2", 3)...)
	evs := mustReadStream(t, s, st)
	checkStream(t, evs)
	for i, e := range evs {
		prev := ""
		if i > 0 {
			prev = evs[i-1].Hash
		}
		if e.PrevHash != prev || e.Hash != eventstore.Hash(prev, e) {
			t.Fatalf("event v%d: PrevHash %q Hash %q do not chain", e.Version, e.PrevHash, e.Hash)
		}
		moved := e
		moved.Position += 1000
		if eventstore.Hash(prev, moved) != e.Hash {
			t.Fatal("the hash depends on the global position")
		}
	}

	tamper := func(name string, wantVersion int64, change func([]eventstore.Event) []eventstore.Event) {
		t.Helper()
		c := make([]eventstore.Event, len(evs))
		copy(c, evs)
		err := eventstore.VerifyChain(change(c))
		var ce *eventstore.ChainError
		if !errors.As(err, &ce) || ce.Version != wantVersion {
			t.Errorf("%s: VerifyChain = %v, want a *ChainError at version %d", name, err, wantVersion)
		}
	}
	tamper("payload", 3, func(c []eventstore.Event) []eventstore.Event {
		c[2].Payload = []byte(`{"id":"forged"}`)
		return c
	})
	tamper("actor", 2, func(c []eventstore.Event) []eventstore.Event { c[1].Actor = "seat:1"; return c })
	tamper("time", 4, func(c []eventstore.Event) []eventstore.Event { c[3].Time = c[3].Time.Add(time.Nanosecond); return c })
	tamper("visibility", 1, func(c []eventstore.Event) []eventstore.Event { c[0].Visibility = visibility.Server; return c })
	tamper("rehashed without relinking", 4, func(c []eventstore.Event) []eventstore.Event {
		c[2].Payload = []byte(`{"id":"forged"}`)
		c[2].Hash = eventstore.Hash(c[2].PrevHash, c[2])
		return c
	})
	tamper("dropped event", 3, func(c []eventstore.Event) []eventstore.Event { return append(c[:2], c[3:]...) })
	tamper("swapped events", 2, func(c []eventstore.Event) []eventstore.Event { c[1], c[2] = c[2], c[1]; return c })
	tamper("type spliced across fields", 1, func(c []eventstore.Event) []eventstore.Event {
		// Moving a byte from one field to the next must change the hash.
		c[0].Type, c[0].CommandID = c[0].Type+strings.TrimPrefix(c[0].CommandID, "c"), "c"
		return c
	})
}

func testLargePayload(t *testing.T, h Harness) {
	s, _ := open(t, h)
	big := event("big")
	big.Payload = fmt.Appendf(nil, `{"blob":%q}`, strings.Repeat("x", 512<<10))
	mustAppend(t, s, "match-big", eventstore.NoStream, big)
	got := mustReadStream(t, s, "match-big")
	if len(got) != 1 || !bytes.Equal(got[0].Payload, big.Payload) {
		t.Fatal("a 512 KiB payload did not round-trip")
	}
	checkStream(t, got)
	tooBig := event("too-big")
	tooBig.Payload = fmt.Appendf(nil, `{"blob":%q}`, strings.Repeat("x", eventstore.MaxPayloadSize))
	if _, err := s.Append(context.Background(), "match-big", eventstore.Any, tooBig); !errors.Is(err, eventstore.ErrInvalid) {
		t.Fatalf("a payload over MaxPayloadSize: got %v, want ErrInvalid", err)
	}
}

func testUnknownStream(t *testing.T, h Harness) {
	s, _ := open(t, h)
	mustAppend(t, s, "match-known", eventstore.NoStream, event("k"))
	if evs := mustReadStream(t, s, "match-unknown"); len(evs) != 0 {
		t.Fatalf("ReadStream of an unknown stream returned %d events", len(evs))
	}
	if v := mustVersion(t, s, "match-unknown"); v != 0 {
		t.Fatalf("StreamVersion of an unknown stream = %d", v)
	}
}

func testInvalidAppends(t *testing.T, h Harness) {
	s, _ := open(t, h)
	ctx := context.Background()
	mod := func(f func(*eventstore.Proposed)) eventstore.Proposed {
		e := event("inv")
		f(&e)
		return e
	}
	cases := []struct {
		name     string
		stream   string
		expected int64
		events   []eventstore.Proposed
	}{
		{"empty stream", "", eventstore.Any, events("e", 1)},
		{"no events", "match-x", eventstore.Any, nil},
		{"expected below Any", "match-x", -2, events("e", 1)},
		{"empty ID", "match-x", eventstore.Any, []eventstore.Proposed{mod(func(e *eventstore.Proposed) { e.ID = "" })}},
		{"empty type", "match-x", eventstore.Any, []eventstore.Proposed{mod(func(e *eventstore.Proposed) { e.Type = "" })}},
		{"duplicate ID", "match-x", eventstore.Any, []eventstore.Proposed{event("d"), event("d")}},
		{"payload not JSON", "match-x", eventstore.Any, []eventstore.Proposed{mod(func(e *eventstore.Proposed) { e.Payload = []byte("{") })}},
		{"nil payload", "match-x", eventstore.Any, []eventstore.Proposed{mod(func(e *eventstore.Proposed) { e.Payload = nil })}},
		{"schema version 0", "match-x", eventstore.Any, []eventstore.Proposed{mod(func(e *eventstore.Proposed) { e.SchemaVersion = 0 })}},
		{"second event bad", "match-x", eventstore.Any, []eventstore.Proposed{event("ok"), mod(func(e *eventstore.Proposed) { e.Type = "" })}},
	}
	for _, c := range cases {
		if _, err := s.Append(ctx, c.stream, c.expected, c.events...); !errors.Is(err, eventstore.ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", c.name, err)
		}
	}
	if p := mustHead(t, s); p != 0 {
		t.Fatalf("invalid appends wrote: head is %d", p)
	}
}

func testClosed(t *testing.T, h Harness) {
	s, _ := open(t, h)
	ctx := context.Background()
	mustAppend(t, s, "match-c", eventstore.NoStream, event("c"))
	sub, err := s.Subscribe(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	// A running subscription ends: its events channel closes.
	for range sub.Events() {
	}
	if err := sub.Err(); err != nil && !errors.Is(err, eventstore.ErrClosed) {
		t.Errorf("subscription ended by Close with %v, want nil or ErrClosed", err)
	}
	check := func(op string, err error) {
		t.Helper()
		if !errors.Is(err, eventstore.ErrClosed) {
			t.Errorf("%s after Close: got %v, want ErrClosed", op, err)
		}
	}
	_, err = s.Append(ctx, "match-c", eventstore.Any, event("d"))
	check("Append", err)
	_, err = s.ReadStream(ctx, "match-c", 0, 0)
	check("ReadStream", err)
	_, err = s.StreamVersion(ctx, "match-c")
	check("StreamVersion", err)
	_, err = s.ReadAll(ctx, 0, 0)
	check("ReadAll", err)
	_, err = s.HeadPosition(ctx)
	check("HeadPosition", err)
	_, err = s.Subscribe(ctx, 0)
	check("Subscribe", err)
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}
