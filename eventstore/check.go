package eventstore

import (
	"context"
	"errors"
	"fmt"
)

// ErrDamaged marks what CheckHead finds: a store whose end is not what its next append
// will take for granted.
var ErrDamaged = errors.New("the store is damaged")

// CheckHead checks, cheaply, that the store can take its next append. The next append
// takes the position after the head, the version after its stream's last one, and chains
// to that stream's last hash; so the event at the head position must be there and be the
// last one stored, be the last event of its stream, and be chained to the event before it
// in its stream. It reads four events whatever the size of the store, and so sees only
// damage at the end (a cut tail, a head that disagrees with the events); `arbiter verify`
// reads everything. A failure wraps ErrDamaged.
//
// Appends may commit meanwhile (another node, or this one serving), between the reads:
// what looks wrong while the head moves is checked again, and a store whose head keeps
// moving is taking appends, which is what the check asks.
func CheckHead(ctx context.Context, s Store) error {
	for attempt := 1; ; attempt++ {
		head, err := checkHead(ctx, s)
		if err == nil || !errors.Is(err, ErrDamaged) {
			return err
		}
		if now, rerr := s.HeadPosition(ctx); rerr != nil || now == head {
			return err // the store did not move: the damage is real
		}
		if attempt == 3 {
			return nil
		}
	}
}

func checkHead(ctx context.Context, s Store) (head int64, err error) {
	damaged := func(format string, args ...any) (int64, error) {
		return head, fmt.Errorf("%w: %s", ErrDamaged, fmt.Sprintf(format, args...))
	}
	if head, err = s.HeadPosition(ctx); err != nil {
		return 0, fmt.Errorf("reading the head position: %w", err)
	}
	evs, err := s.ReadAll(ctx, max(head-1, 0), 2)
	if err != nil {
		return head, fmt.Errorf("reading the events at the head position %d: %w", head, err)
	}
	switch {
	case head == 0 && len(evs) > 0:
		return damaged("the head position is 0 but event %d is stored: the next append would take a position already used", evs[0].Position)
	case head == 0:
		return head, nil
	case len(evs) == 0 || evs[0].Position != head:
		return damaged("no event is stored at the head position %d: the events at the end are missing", head)
	case len(evs) > 1:
		return damaged("an event is stored at position %d, after the head position %d: the next append would take a position already used", evs[1].Position, head)
	}
	last := evs[0]
	v, err := s.StreamVersion(ctx, last.Stream)
	if err != nil {
		return head, fmt.Errorf("reading the version of stream %s: %w", last.Stream, err)
	}
	if v != last.Version {
		return damaged("the last event (position %d) is version %d of stream %s, whose last version is %d", head, last.Version, last.Stream, v)
	}
	if Hash(last.PrevHash, last) != last.Hash {
		return damaged("the last event (position %d, %s version %d) does not hash to its stored hash", head, last.Stream, last.Version)
	}
	prevHash := ""
	if last.Version > 1 {
		prev, err := s.ReadStream(ctx, last.Stream, last.Version-2, 1)
		if err != nil {
			return head, fmt.Errorf("reading version %d of stream %s: %w", last.Version-1, last.Stream, err)
		}
		if len(prev) == 0 || prev[0].Version != last.Version-1 {
			return damaged("version %d of stream %s, before the last event, is missing", last.Version-1, last.Stream)
		}
		prevHash = prev[0].Hash
	}
	if last.PrevHash != prevHash {
		return damaged("the last event (position %d, %s version %d) is not chained to the event before it in its stream", head, last.Stream, last.Version)
	}
	return head, nil
}
