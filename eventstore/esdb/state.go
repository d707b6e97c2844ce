package esdb

import (
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
)

// state is what one process knows of the store's write side, folded from the log
// stream: the head, the last event of every stream, where every event ID is, and the
// events of the last log append, which may still have to be written to their streams.
// It is current when the log has no event after head; an append to the log at the
// expected revision head-1 succeeds only then, so whatever an append decided from a
// state it then wrote with success was decided on the current store.
type state struct {
	head     int64  // the position of the last event of the log, 0 if none
	headHash string // its GlobalHash
	signed   eventstore.Head
	tails    map[string]sqlstore.Tail
	// ids holds the position of every event by Arbiter ID: ESDB finds an event by its
	// stream and revision only, and the port must know an ID whatever its stream. It
	// costs about 100 bytes per event in memory; see docs/esdb.md.
	ids map[string]int64
	// last holds the events of the last log append, once its head mark was folded;
	// pending those of an append whose end is not folded yet.
	last, pending []eventstore.Event
	// dirty says that last is not known to be in its streams yet.
	dirty bool
}

func newState() *state {
	return &state{tails: make(map[string]sqlstore.Tail), ids: make(map[string]int64)}
}

// fold applies the next event of the log. It returns false, changing nothing, for an
// event that is not the next position.
func (s *state) fold(e eventstore.Event, head *eventstore.Head) bool {
	if e.Position != s.head+1 {
		return false
	}
	s.head, s.headHash = e.Position, e.GlobalHash
	s.tails[e.Stream] = sqlstore.Tail{Version: e.Version, Hash: e.Hash}
	s.ids[e.ID] = e.Position
	s.pending = append(s.pending, e)
	if head != nil {
		s.signed = *head
		s.last, s.pending = s.pending, nil
	}
	return true
}

// begin returns the sqlstore.Tx of one batch: it answers from the state and from found,
// the stored events that carry an ID of the batch (read from the log beforehand), and
// gathers the batch's new events without touching the state, which changes only once the
// log took them.
func (s *state) begin(found []eventstore.Event) *sqlstore.Batch {
	b := sqlstore.NewBatch(s.head, s.headHash, found, 0)
	b.Known = func(stream string) sqlstore.Tail { return s.tails[stream] }
	return b
}

// runs splits the events of one log append by stream, each stream's events in version
// order, the streams in the order of their first event: one ESDB write each.
func runs(events []eventstore.Event) [][]eventstore.Event {
	var (
		out [][]eventstore.Event
		at  = make(map[string]int)
	)
	for _, e := range events {
		i, ok := at[e.Stream]
		if !ok {
			i = len(out)
			at[e.Stream] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], e)
	}
	return out
}

// reorder hands out events in position order from after+1, whatever order they arrive
// in. The events of one log append are written to their streams one stream at a time, so
// $all may hold them out of position order (never out of order across appends: an
// append reaches the log only once the one before is in its streams). Events at or
// below the last one handed out are dropped: they were delivered already.
type reorder struct {
	next  int64
	ahead map[int64]eventstore.Event
}

func newReorder(after int64) *reorder {
	return &reorder{next: after + 1, ahead: make(map[int64]eventstore.Event)}
}

// add takes an event and returns those now ready, in order.
func (r *reorder) add(e eventstore.Event) []eventstore.Event {
	if e.Position < r.next {
		return nil
	}
	r.ahead[e.Position] = e
	var out []eventstore.Event
	for {
		e, ok := r.ahead[r.next]
		if !ok {
			return out
		}
		delete(r.ahead, r.next)
		out = append(out, e)
		r.next++
	}
}
