package esdb

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	kdb "github.com/EventStore/EventStore-Client-Go/v4/esdb"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/groupcommit"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
)

// commitTimeout bounds one batch's round trips: the batch is not one caller's, so no
// caller's context may end it half-way.
const commitTimeout = 30 * time.Second

// logPage is how many log events catchUp reads at a time.
const logPage = 1024

// commit writes a batch of appends, in chunks that fit one ESDB append.
func (s *Store) commit(batch []*groupcommit.Request) {
	ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
	defer cancel()
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(batch) > 0 {
		n, size := 0, 0
		for n < len(batch) {
			for _, e := range batch[n].Events {
				size += len(e.Payload) + 512 // the envelope
			}
			if n > 0 && size > s.bytes {
				break
			}
			n++
		}
		s.commitChunk(ctx, batch[:n])
		batch = batch[n:]
	}
}

// maxAttempts bounds how often one chunk is decided again because another process
// appended to the log first. Between two attempts the writer backs off for a random
// while that grows with the attempts (backoff): two processes appending at full speed
// otherwise keep meeting on the log, and one of them could lose every race.
const maxAttempts = 64

// backoff waits before attempt n (from 1) of a chunk the log refused: nothing at the
// first retry, then up to 2^n ms, at most 50 ms, jittered so that competing processes
// spread out; it returns early when ctx ends.
func backoff(ctx context.Context, n int) {
	if n < 2 {
		return
	}
	limit := min(time.Millisecond<<min(n, 6), 50*time.Millisecond)
	t := time.NewTimer(limit/2 + rand.N(limit/2))
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// commitChunk decides a chunk of appends on the state, writes their events to the log
// at the expected revision of the state's head and then to their streams. The state may
// be behind the log (another process appended): the log then refuses the write, and the
// chunk is decided again on the caught-up state. A refusal decided on a state that may be
// behind (a version conflict, an ID in use) is checked the same way before it is given.
func (s *Store) commitChunk(ctx context.Context, chunk []*groupcommit.Request) {
	fail := func(err error) {
		for _, r := range chunk {
			r.Result, r.Err = eventstore.AppendResult{}, fmt.Errorf("esdb: append: %w", err)
		}
	}
	caughtUp := false
	for attempt := range maxAttempts {
		backoff(ctx, attempt)
		if s.st.dirty {
			// The last append of the log is not known to be in its streams (this process
			// failed half-way): it must be before anything follows it.
			if err := s.materialize(ctx, s.st.last); err != nil {
				fail(err)
				return
			}
			s.st.dirty = false
		}
		found, err := s.found(ctx, chunk)
		if err != nil {
			fail(err)
			return
		}
		t := s.st.begin(found)
		now, refused := time.Now(), false
		for _, r := range chunk {
			r.Result, r.Err = sqlstore.Append(t, r.Stream, r.Expected, r.Events, now)
			refused = refused || errors.Is(r.Err, eventstore.ErrWrongVersion) || errors.Is(r.Err, eventstore.ErrIDReused)
		}
		if refused && !caughtUp {
			if err := s.catchUp(ctx); err != nil {
				fail(err)
				return
			}
			caughtUp = true
			continue
		}
		if len(t.Rows) == 0 {
			return
		}
		head := eventstore.SignHead(s.signer, t.Head, t.HeadHash, time.Now())
		switch err := s.appendLog(ctx, t.Rows, head); {
		case wrongVersion(err):
			if err := s.catchUp(ctx); err != nil {
				fail(err)
				return
			}
			caughtUp = true
			continue
		case err != nil:
			// The append may have reached the log all the same: the next chunk finds it
			// there when the log refuses its own, and finishes it. A caller that retries
			// gets it as a duplicate.
			fail(err)
			return
		}
		for i, e := range t.Rows {
			var h *eventstore.Head
			if i == len(t.Rows)-1 {
				h = &head
			}
			s.st.fold(e, h)
		}
		s.st.dirty = true
		if err := s.materialize(ctx, t.Rows); err != nil {
			fail(err)
			return
		}
		s.st.dirty = false
		return
	}
	fail(fmt.Errorf("the log %s moved under %d attempts in a row", s.n.log(), maxAttempts))
}

// found reads from the log the stored events that carry an ID of the chunk's appends,
// for the idempotency check.
func (s *Store) found(ctx context.Context, chunk []*groupcommit.Request) ([]eventstore.Event, error) {
	var positions []int64
	for _, r := range chunk {
		for _, e := range r.Events {
			if p, ok := s.st.ids[e.ID]; ok {
				positions = append(positions, p)
			}
		}
	}
	slices.Sort(positions)
	positions = slices.Compact(positions)
	var out []eventstore.Event
	for i := 0; i < len(positions); {
		j := i + 1
		for j < len(positions) && positions[j] == positions[j-1]+1 {
			j++
		}
		evs, _, err := s.readLog(ctx, positions[i]-1, uint64(j-i))
		if err != nil {
			return nil, err
		}
		out = append(out, evs...)
		i = j
	}
	return out, nil
}

// appendLog writes sealed events, the whole of one chunk, to the log, at the expected
// revision of the state's head; the last one carries the signed head.
func (s *Store) appendLog(ctx context.Context, sealed []eventstore.Event, head eventstore.Head) error {
	data := make([]kdb.EventData, len(sealed))
	for i, e := range sealed {
		var h *eventstore.Head
		if i == len(sealed)-1 {
			h = &head
		}
		data[i] = encode(e, true, h)
	}
	return s.client.append(ctx, s.n.log(), expectedRevision(s.st.head), data)
}

// materialize writes the events of one log append to their streams, one ESDB append per
// stream, all at once. Each goes at the expected revision before its first event, with
// the derived IDs: written a second time (by this process after a failure, or by another
// one finishing the append), ESDB answers it as the same write and stores nothing. A
// stream holding other events there was written by someone else than Arbiter.
func (s *Store) materialize(ctx context.Context, events []eventstore.Event) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for _, run := range runs(events) {
		wg.Go(func() {
			data := make([]kdb.EventData, len(run))
			for i, e := range run {
				data[i] = encode(e, false, nil)
			}
			stream, before := run[0].Stream, run[0].Version-1
			err := s.client.append(ctx, s.n.data(stream), expectedRevision(before), data)
			if wrongVersion(err) {
				err = fmt.Errorf("%w: ESDB stream %s holds events that its log does not: %w", eventstore.ErrDamaged, s.n.data(stream), conflict(err, stream, before))
			}
			if err != nil {
				mu.Lock()
				first = cmpErr(first, fmt.Errorf("writing stream %s: %w", s.n.data(stream), err))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return first
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// catchUp folds the log's events after the state's head, and finishes the last append it
// read: its writer may have died before it was in its streams.
func (s *Store) catchUp(ctx context.Context) error {
	moved := false
	for {
		evs, heads, err := s.readLog(ctx, s.st.head, logPage)
		if err != nil {
			return err
		}
		for i, e := range evs {
			if !s.st.fold(e, heads[i]) {
				return fmt.Errorf("%w: the log holds position %d after %d", errCorrupt, e.Position, s.st.head)
			}
			moved = true
		}
		if len(evs) < logPage {
			break
		}
	}
	if len(s.st.pending) > 0 {
		return fmt.Errorf("%w: the log ends at position %d without the head of its last append", errCorrupt, s.st.head)
	}
	if moved {
		s.st.dirty = true
	}
	if !s.st.dirty {
		return nil
	}
	if err := s.materialize(ctx, s.st.last); err != nil {
		return err
	}
	s.st.dirty = false
	return nil
}

// readLog reads up to count log events from revision from (the event at position
// from+1), with the head each ends or nil.
func (s *Store) readLog(ctx context.Context, from int64, count uint64) ([]eventstore.Event, []*eventstore.Head, error) {
	recs, err := s.read(ctx, s.n.log(), kdb.ReadStreamOptions{From: revisionFrom(from)}, count)
	if err != nil {
		return nil, nil, err
	}
	evs := make([]eventstore.Event, len(recs))
	heads := make([]*eventstore.Head, len(recs))
	for i, rec := range recs {
		if evs[i], heads[i], err = decode(s.n, rec); err != nil {
			return nil, nil, err
		}
	}
	return evs, heads, nil
}

// read reads up to count events of an ESDB stream; a stream with no event yields none.
func (s *Store) read(ctx context.Context, stream string, opts kdb.ReadStreamOptions, count uint64) ([]*kdb.RecordedEvent, error) {
	return s.client.read(ctx, stream, opts, count)
}
