package esdb

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
)

func proposed(ids ...string) []eventstore.Proposed {
	out := make([]eventstore.Proposed, len(ids))
	for i, id := range ids {
		out[i] = eventstore.Proposed{ID: id, Type: "Ping", SchemaVersion: 1, Payload: []byte(`{}`)}
	}
	return out
}

// commitOnState decides appends on st as a batch does and folds what they wrote, the way
// commitChunk does once the log took them. found is looked up in the rows folded so far.
func commitOnState(t *testing.T, st *state, log *[]eventstore.Event, appends ...func(sqlstore.Tx) error) {
	t.Helper()
	tx := st.begin(*log)
	for _, a := range appends {
		if err := a(tx); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range tx.Rows {
		var h *eventstore.Head
		if i == len(tx.Rows)-1 {
			h = &eventstore.Head{Position: e.Position, Hash: e.GlobalHash}
		}
		if !st.fold(e, h) {
			t.Fatalf("fold refused position %d at head %d", e.Position, st.head)
		}
	}
	*log = append(*log, tx.Rows...)
}

func appendTo(stream string, expected int64, ids ...string) func(sqlstore.Tx) error {
	return func(tx sqlstore.Tx) error {
		_, err := sqlstore.Append(tx, stream, expected, proposed(ids...), time.Unix(0, 0))
		return err
	}
}

// TestStateDecidesAsTheStore: the write side folded from the log decides appends as the
// SQL stores do: positions from the head, versions from the stream's tail, a wrong
// expected version refused with the actual one, a retry answered as a duplicate, an ID
// of another stream refused; and it knows where each log append ended.
func TestStateDecidesAsTheStore(t *testing.T) {
	st := newState()
	var log []eventstore.Event
	commitOnState(t, st, &log, appendTo("match-1", eventstore.NoStream, "a", "b"), appendTo("match-2", eventstore.NoStream, "c"))
	commitOnState(t, st, &log, appendTo("match-1", 2, "d"))
	if st.head != 4 || st.tails["match-1"].Version != 3 || st.tails["match-2"].Version != 1 || st.ids["c"] != 3 {
		t.Fatalf("state after two appends: head %d tails %v ids %v", st.head, st.tails, st.ids)
	}
	if got := ids(st.last); !reflect.DeepEqual(got, []string{"d"}) || len(st.pending) != 0 {
		t.Fatalf("the last log append holds %v (pending %d), want [d]", got, len(st.pending))
	}
	if err := eventstore.VerifyChain([]eventstore.Event{log[0], log[1], log[3]}); err != nil {
		t.Fatal(err)
	}
	var chain eventstore.GlobalChain
	for _, e := range log {
		if err := chain.Next(e); err != nil {
			t.Fatal(err)
		}
	}

	tx := st.begin(log)
	var vc *eventstore.VersionConflict
	if _, err := sqlstore.Append(tx, "match-1", 2, proposed("x"), time.Now()); !errors.As(err, &vc) || vc.Actual != 3 {
		t.Fatalf("a stale expected version: %v, want a conflict at version 3", err)
	}
	if res, err := sqlstore.Append(tx, "match-1", eventstore.NoStream, proposed("a", "b"), time.Now()); err != nil || !res.Duplicate || res.FirstPosition != 1 {
		t.Fatalf("a retry of the first append: %+v, %v", res, err)
	}
	if _, err := sqlstore.Append(tx, "match-2", eventstore.Any, proposed("a"), time.Now()); !errors.Is(err, eventstore.ErrIDReused) {
		t.Fatalf("an ID of match-1 sent to match-2: %v, want ErrIDReused", err)
	}
	if len(tx.Rows) != 0 || st.head != 4 {
		t.Fatal("refused appends wrote")
	}
	// Two appends of one batch on one stream: the second sees the first.
	if _, err := sqlstore.Append(tx, "match-2", 1, proposed("e"), time.Now()); err != nil {
		t.Fatal(err)
	}
	if res, err := sqlstore.Append(tx, "match-2", 2, proposed("f"), time.Now()); err != nil || res.FirstPosition != 6 {
		t.Fatalf("second append of the batch: %+v, %v", res, err)
	}
	if st.tails["match-2"].Version != 1 {
		t.Fatal("deciding a batch changed the state before the log took it")
	}
}

// TestFoldRefusesAGap: a log that skips a position is not folded.
func TestFoldRefusesAGap(t *testing.T) {
	st := newState()
	if st.fold(eventstore.Event{Stream: "s", Version: 1, Position: 2}, nil) {
		t.Fatal("position 2 folded into an empty state")
	}
}

func ids(evs []eventstore.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.ID)
	}
	return out
}

// TestRuns: one log append becomes one write per stream, each in version order.
func TestRuns(t *testing.T) {
	ev := func(stream string, v int64) eventstore.Event {
		return eventstore.Event{Stream: stream, Version: v, Proposed: eventstore.Proposed{ID: fmt.Sprintf("%s-%d", stream, v)}}
	}
	got := runs([]eventstore.Event{ev("x", 1), ev("y", 4), ev("x", 2), ev("z", 1), ev("y", 5)})
	want := [][]string{{"x-1", "x-2"}, {"y-4", "y-5"}, {"z-1"}}
	if len(got) != len(want) {
		t.Fatalf("%d runs, want %d", len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(ids(got[i]), want[i]) {
			t.Fatalf("run %d = %v, want %v", i, ids(got[i]), want[i])
		}
	}
}

// TestReorder: events of one append met in $all out of position order come out in
// order, those already delivered are dropped, and nothing passes a missing position.
func TestReorder(t *testing.T) {
	at := func(p int64) eventstore.Event { return eventstore.Event{Position: p} }
	r := newReorder(3)
	var out []int64
	for _, p := range []int64{2, 3, 6, 4, 4, 7, 5, 9} {
		for _, e := range r.add(at(p)) {
			out = append(out, e.Position)
		}
	}
	if want := []int64{4, 5, 6, 7}; !reflect.DeepEqual(out, want) {
		t.Fatalf("delivered %v, want %v (9 waits for 8)", out, want)
	}
	if got := r.add(at(8)); len(got) != 2 || got[1].Position != 9 {
		t.Fatalf("after 8 arrived: %v", got)
	}
}
