package projections

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// A rated match's ruling record holds the ratings its players had before it, which are in
// no event: kept for every match ever rated, it made the heap grow with the matches played
// (about 150 bytes each). ArchiveRecords keeps it only while the match is recent, as the
// lobby keeps a finished match's view (ArchiveAfter); a ruling on an older match reads
// its record back from the store instead: the ratings at its end are a fold of the events
// before it, so a fresh model folds them again (recall). The answer is the same bytes
// either way; what differs is the cost of a ruling on an archived match (a fold of the
// store up to that match's end, with the records of every rated match before it held
// meanwhile, as a rebuild held them) and that the model's memory no longer grows with the
// matches rated.

// RecordReader is what Ratings reads an archived match's record back from: the store.
type RecordReader interface {
	ReadStream(ctx context.Context, stream string, after int64, limit int) ([]eventstore.Event, error)
	ReadAll(ctx context.Context, after int64, limit int) ([]eventstore.Event, error)
}

// recordQueue is the matches of Ratings.rated in the order they were rated, with the
// time each was, for ArchiveRecords.
type recordQueue struct {
	on     bool
	after  time.Duration
	store  RecordReader
	latest int64    // the latest event time seen, Unix nanoseconds
	ids    []string // from head on: the matches of rated, oldest first
	at     []int64  // ids[i]'s time
	head   int
}

// ArchiveRecords drops a rated match's ruling record once the match has been over for d
// (the time of the events applied since, so that a rebuild drops them as it goes); a
// ruling on it then reads the record back from store. Call it before the model is fed or
// restored; without it every record stays in memory (arbiter rebuild, the tests' models).
func (r *Ratings) ArchiveRecords(d time.Duration, store RecordReader) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kept = recordQueue{on: true, after: d, store: store}
	for _, id := range slices.Sorted(maps.Keys(r.rated)) {
		r.kept.push(id, 0)
	}
}

// push queues match id, rated at t (Unix nanoseconds).
func (q *recordQueue) push(id string, t int64) {
	q.ids, q.at = append(q.ids, id), append(q.at, t)
}

// keep keeps p as the record of match id, rated (or ruled on) at t. The caller holds the
// lock.
func (r *Ratings) keep(id string, p packedResult, t time.Time) {
	if _, ok := r.rated[id]; ok {
		r.rated[id] = p
		return
	}
	id = strings.Clone(id) // its own copy: id may share the memory of a whole decoded event
	r.rated[id] = p
	if r.kept.on {
		at := r.kept.latest
		if !t.IsZero() {
			at = t.UnixNano()
		}
		r.kept.push(id, at)
	}
}

// expire drops the records of the matches rated more than the archive's delay before the
// latest event time seen, t's or an earlier event's. The caller holds the lock.
func (r *Ratings) expire(t time.Time) {
	q := &r.kept
	if !q.on {
		return
	}
	if !t.IsZero() && t.UnixNano() > q.latest {
		q.latest = t.UnixNano()
	}
	for q.head < len(q.ids) && q.latest-q.at[q.head] > int64(q.after) {
		delete(r.rated, q.ids[q.head])
		q.ids[q.head] = ""
		q.head++
	}
	if q.head > 0 && q.head*2 >= len(q.ids) { // the queue's dropped half is given back
		q.ids = append([]string(nil), q.ids[q.head:]...)
		q.at = append([]int64(nil), q.at[q.head:]...)
		q.head = 0
	}
}

// order is the matches of rated in the order Save writes them: as queued under
// ArchiveRecords (so that a restored model drops them in the same order), else by ID.
// The caller holds the lock.
func (r *Ratings) order() (ids []string, at []int64) {
	if r.kept.on {
		return r.kept.ids[r.kept.head:], r.kept.at[r.kept.head:]
	}
	return slices.Sorted(maps.Keys(r.rated)), nil
}

// recall reads back the record of match id as it stood before the ruling at position
// before: nil if the match was not rated. A fresh model folds the store up to the match's
// end (which rates it from the ratings its players had), then the rulings on it before
// this one. The caller holds the lock (of r, not of the fresh model).
func (r *Ratings) recall(id string, before int64) (*ratedResult, error) {
	// Apply has no context: a fold is not cancelled midway, and the store's reads end.
	ctx := context.Background()
	evs, err := readStream(ctx, r.kept.store, matchstream.Name(id))
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		return nil, nil
	}
	if d, err := match.Decode(nil, evs[0].Type, evs[0].SchemaVersion, evs[0].Payload); err != nil {
		return nil, nil // does not replay: never rated (Apply)
	} else if c, ok := d.(match.MatchCreated); !ok || !c.Rated {
		return nil, nil
	}
	var ended int64
	for _, ev := range evs {
		if ev.Type == (match.MatchEnded{}).EventType() && ev.Position < before {
			ended = ev.Position
		}
	}
	if ended == 0 {
		return nil, nil
	}
	n := NewRatings(r.games)
	for after := int64(0); after < ended; {
		page, err := r.kept.store.ReadAll(ctx, after, rebuildPage)
		if err != nil {
			return nil, fmt.Errorf("ratings: folding again up to the end of match %s: %w", id, err)
		}
		if len(page) == 0 {
			return nil, fmt.Errorf("ratings: the store ends at %d, before match %s's end at %d", after, id, ended)
		}
		for _, ev := range page {
			if ev.Position > ended {
				break
			}
			if err := n.Apply(ev); err != nil {
				return nil, fmt.Errorf("ratings: folding again up to the end of match %s: %w", id, err)
			}
		}
		after = page[len(page)-1].Position
	}
	rulings, err := readStream(ctx, r.kept.store, "dispute-"+id)
	if err != nil {
		return nil, err
	}
	for _, ev := range rulings {
		if ev.Position >= before {
			break
		}
		if err := n.Apply(ev); err != nil {
			return nil, fmt.Errorf("ratings: folding again the rulings on match %s: %w", id, err)
		}
	}
	p, ok := n.rated[id]
	if !ok {
		return nil, nil
	}
	return n.unpack(p)
}

// readStream is every event of stream.
func readStream(ctx context.Context, store RecordReader, stream string) ([]eventstore.Event, error) {
	var out []eventstore.Event
	for {
		evs, err := store.ReadStream(ctx, stream, int64(len(out)), rebuildPage)
		if err != nil {
			return nil, fmt.Errorf("ratings: reading %s: %w", stream, err)
		}
		out = append(out, evs...)
		if len(evs) < rebuildPage {
			return out, nil
		}
	}
}
