package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/internal/groupcommit"
)

// outcome is what an append of a batch must be answered: the position of its first
// event, or 0 and the error it must wrap.
type outcome struct {
	position  int64
	duplicate bool
	err       error // wrapped by the append's error
	conflict  bool  // the append's error is a *eventstore.VersionConflict
}

func proposed(id, payload string) eventstore.Proposed {
	return eventstore.Proposed{ID: id, Type: "T", SchemaVersion: 1, Payload: []byte(payload)}
}

func request(stream string, expected int64, events ...eventstore.Proposed) *groupcommit.Request {
	return &groupcommit.Request{Ctx: context.Background(), Stream: stream, Expected: expected, Events: events}
}

// commitWant commits batch in one transaction and checks each append's answer.
func commitWant(t *testing.T, s *Store, batch []*groupcommit.Request, want []outcome) {
	t.Helper()
	s.commit(batch)
	for i, r := range batch {
		w := want[i]
		var conflict *eventstore.VersionConflict
		switch {
		case w.conflict:
			if !errors.As(r.Err, &conflict) {
				t.Errorf("append %d to %s: err %v, want a version conflict", i, r.Stream, r.Err)
			}
		case w.err != nil:
			if !errors.Is(r.Err, w.err) {
				t.Errorf("append %d to %s: err %v, want %v", i, r.Stream, r.Err, w.err)
			}
		case r.Err != nil:
			t.Errorf("append %d to %s: %v", i, r.Stream, r.Err)
		case r.Result.FirstPosition != w.position || r.Result.Duplicate != w.duplicate:
			t.Errorf("append %d to %s: %+v, want first position %d, duplicate %v", i, r.Stream, r.Result, w.position, w.duplicate)
		}
	}
}

// openBatches opens a store whose head conformance.CheckGlobal verifies.
func openBatches(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, WithSigner(conformance.Signer))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkStore checks, before and after reopening the file, that it holds events at
// positions 1 to head in one global chain under a signed head over the last, and that
// each stream's events are chained.
func checkStore(t *testing.T, s *Store, path string, head int64) *Store {
	t.Helper()
	ctx := context.Background()
	for range 2 {
		all, err := s.ReadAll(ctx, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(all)) != head || (head > 0 && all[head-1].Position != head) {
			t.Fatalf("the store holds %d events, want %d at positions 1 to %d", len(all), head, head)
		}
		conformance.CheckGlobal(t, s)
		streams := map[string][]eventstore.Event{}
		for _, e := range all {
			streams[e.Stream] = append(streams[e.Stream], e)
		}
		for _, evs := range streams {
			if err := eventstore.VerifyChain(evs); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s = openBatches(t, path)
	}
	return s
}

// TestBatchAppendReusingAnID: appends of a batch share their INSERTs; when one of them
// reuses a stored ID, or an ID of an append before it in the same statement, the shared
// statement fails whole, and still every other append lands and the faulty one is
// answered as when each append had its own statement: a retry as a duplicate, a reuse as
// ErrIDReused. Each batch then appends at the versions its appends were answered.
func TestBatchAppendReusingAnID(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.db")
	s := openBatches(t, path)
	defer func() { s.Close() }()
	commitWant(t, s, []*groupcommit.Request{
		request("x", eventstore.NoStream, proposed("x-0", `{"a":1}`)),
		request("y", eventstore.NoStream, proposed("y-0", `{}`)),
	}, []outcome{{position: 1}, {position: 2}})

	// The third of five is a retry of a stored event.
	commitWant(t, s, []*groupcommit.Request{
		request("s0", eventstore.NoStream, proposed("a0", `{}`)),
		request("s1", eventstore.NoStream, proposed("a1", `{}`)),
		request("x", eventstore.Any, proposed("x-0", `{"a":1}`)),
		request("s3", eventstore.NoStream, proposed("a3", `{}`)),
		request("s4", eventstore.NoStream, proposed("a4", `{}`)),
	}, []outcome{{position: 3}, {position: 4}, {position: 1, duplicate: true}, {position: 5}, {position: 6}})

	// The third of five reuses a stored ID of another stream.
	commitWant(t, s, []*groupcommit.Request{
		request("s0", 1, proposed("b0", `{}`)),
		request("s1", 1, proposed("b1", `{}`)),
		request("s2", eventstore.NoStream, proposed("y-0", `{}`)),
		request("s3", 1, proposed("b3", `{}`)),
		request("s4", 1, proposed("b4", `{}`)),
	}, []outcome{{position: 7}, {position: 8}, {err: eventstore.ErrIDReused}, {position: 9}, {position: 10}})

	// The first fails; a stream is appended to twice after it; the last is a conflict.
	commitWant(t, s, []*groupcommit.Request{
		request("s5", eventstore.NoStream, proposed("a0", `{}`)),
		request("s0", 2, proposed("c0", `{}`)),
		request("s0", 3, proposed("c1", `{}`)),
		request("s1", 2, proposed("c2", `{}`)),
		request("s1", 0, proposed("c3", `{}`)),
	}, []outcome{{err: eventstore.ErrIDReused}, {position: 11}, {position: 12}, {position: 13}, {conflict: true}})

	// Two appends of the same statement carry the same ID: the first lands. The second's
	// stream was added to streams and has no event: an append to it still starts it.
	commitWant(t, s, []*groupcommit.Request{
		request("s6", eventstore.NoStream, proposed("d", `{}`)),
		request("s7", eventstore.NoStream, proposed("d", `{}`)),
		request("s7", eventstore.NoStream, proposed("e", `{}`)),
	}, []outcome{{position: 14}, {err: eventstore.ErrIDReused}, {position: 15}})

	for stream, version := range map[string]int64{"s0": 4, "s1": 3, "s2": 0, "s5": 0, "s7": 1, "x": 1} {
		if v, err := s.StreamVersion(context.Background(), stream); err != nil || v != version {
			t.Errorf("%s at version %d (%v), want %d", stream, v, err, version)
		}
	}
	s = checkStore(t, s, path, 15)
}

// TestBatchAcrossStatements: a batch of more appends than an INSERT holds rows takes
// several statements; an append reusing an ID of the batch's first statement fails the
// second, whose appends, some to streams the first one appended to, are run again on
// their own and land.
func TestBatchAcrossStatements(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.db")
	s := openBatches(t, path)
	defer func() { s.Close() }()
	const streams = maxRows + 1
	var batch []*groupcommit.Request
	var want []outcome
	next := int64(1)
	for round := range 2 {
		for i := range streams {
			id := fmt.Sprintf("e-%d-%d", i, round)
			expected := int64(2 * round)
			if round == 0 {
				expected = eventstore.NoStream
			}
			reuse := round == 1 && i == 35
			if reuse {
				id = "e-3-0" // stored by the first statement, to another stream
			}
			batch = append(batch, request(fmt.Sprintf("m-%d", i), expected, proposed(id, `{}`), proposed(id+"-b", `{}`)))
			if reuse {
				want = append(want, outcome{err: eventstore.ErrIDReused})
				continue
			}
			want = append(want, outcome{position: next})
			next += 2
		}
	}
	commitWant(t, s, batch, want)
	// The streams' tails after the batch are right: each append names its version.
	batch, want = batch[:0], want[:0]
	for i := range streams {
		version := int64(4)
		if i == 35 {
			version = 2
		}
		batch = append(batch, request(fmt.Sprintf("m-%d", i), version, proposed(fmt.Sprintf("f-%d", i), `{}`)))
		want = append(want, outcome{position: next})
		next++
	}
	commitWant(t, s, batch, want)
	s = checkStore(t, s, path, next-1)
}
