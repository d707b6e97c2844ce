package graph

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/graph/model"
	"github.com/arbiter-games/arbiter/projections"
)

// feedRing is how many of a match's latest events its feed keeps. A subscriber further
// behind reads the store for what it misses (once, for its catch-up), then joins the ring.
const feedRing = 256

// feed is the live tail of one match's events on this node, shared by every subscription
// to the match. The hub pushes each event the read side has applied, in order; pushing
// never waits for a subscriber: it appends to the ring and wakes them, and each one takes
// from the ring at its own pace. So an event is read from the store once per match (by
// the bus follower), not once per subscriber, and a slow subscriber holds up nobody.
type feed struct {
	n *eventstore.Notifier

	mu       sync.Mutex
	ring     []*sharedEvent // consecutive versions, oldest first; never written in place
	watchers int            // under Hub.mu: the feed lives while it has any
	counted  int            // of those, clients' subscriptions (Hub.Watching)

	updates sharedUpdates

	checkMu   sync.Mutex
	storeHead int64 // the stream's version in the store when last asked (see complete)
}

func newFeed() *feed { return &feed{n: eventstore.NewNotifier()} }

// push adds the next event of the match and wakes the subscribers. An event at or below
// the last one is a redelivery and is ignored; one past a gap (this node missed events,
// which the bus does not do) restarts the ring, and subscribers read the gap from the
// store.
func (f *feed) push(ev eventstore.Event) {
	f.mu.Lock()
	if n := len(f.ring); n > 0 {
		last := f.ring[n-1].ev.Version
		if ev.Version <= last {
			f.mu.Unlock()
			return
		}
		if ev.Version != last+1 {
			f.ring = nil
		}
	}
	if len(f.ring) >= 2*feedRing {
		// Keep the latest feedRing in a new array: readers may hold slices of the old one.
		f.ring = append(make([]*sharedEvent, 0, 2*feedRing), f.ring[len(f.ring)-feedRing:]...)
	}
	f.ring = append(f.ring, &sharedEvent{ev: ev})
	f.mu.Unlock()
	f.n.Notify()
}

// after returns the events of the ring past version last, and whether the ring reaches
// back that far (when it does not, the caller reads the store for what is missing).
func (f *feed) after(last int64) ([]*sharedEvent, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.ring) == 0 {
		return nil, false
	}
	first := f.ring[0].ev.Version
	if last+1 < first {
		return nil, false
	}
	i := int(last + 1 - first)
	if i >= len(f.ring) {
		return nil, true
	}
	return f.ring[i:len(f.ring):len(f.ring)], true
}

// complete returns the prefix of evs (consecutive events of the ring, the last one its
// latest) whose commands the read side has applied whole. The hub hands events over one
// by one, but a client that queries the match after receiving an event expects the whole
// command that event belongs to applied (a FlagFell comes with its MatchEnded): an event
// followed by one of another command closes its command; the latest event closes its own
// only if nothing follows it in the store, which one subscriber asks for all (at most once
// per event pushed, not once per subscriber).
func (f *feed) complete(ctx context.Context, evs []*sharedEvent, storeHead func(context.Context) (int64, error)) ([]*sharedEvent, error) {
	if len(evs) == 0 {
		return evs, nil
	}
	last := evs[len(evs)-1].ev
	f.checkMu.Lock()
	defer f.checkMu.Unlock()
	if f.storeHead < last.Version {
		h, err := storeHead(ctx)
		if err != nil {
			return nil, err
		}
		f.storeHead = h
	}
	if f.storeHead == last.Version {
		return evs, nil
	}
	for i := len(evs) - 1; i > 0; i-- {
		if !sameCommand(evs[i-1].ev, evs[i].ev) {
			return evs[:i], nil
		}
	}
	return nil, nil
}

// sameCommand reports whether two consecutive events of a stream come from one command:
// a command is known by its actor and command ID, which the engine never lets two
// commands in a row share (a repeated one is a duplicate and records nothing).
func sameCommand(a, b eventstore.Event) bool {
	return a.Actor == b.Actor && a.CommandID == b.CommandID
}

// sharedEvent is one event with its two API forms, full and redacted, each built once
// when a subscriber first needs it and then handed to every subscriber of that form: an
// event's form depends only on whether the viewer may see it (projections.Viewer.CanSee),
// so every viewer class (public, each seat, each team) shares one of the two.
type sharedEvent struct {
	ev           eventstore.Event
	full, hidden atomic.Pointer[model.MatchEvent]
}

// shown returns the event as the viewer (already placed as of this event: Viewer.AsOf)
// may see it. The result is shared: nobody may change it.
func (s *sharedEvent) shown(matchID string, rules game.Rules, v projections.Viewer) *model.MatchEvent {
	p := &s.hidden
	if v.CanSee(s.ev.Visibility) {
		p = &s.full
	}
	if m := p.Load(); m != nil {
		return m
	}
	m := eventModel(matchID, rules, v, s.ev)
	if !p.CompareAndSwap(nil, m) {
		return p.Load() // another subscriber built it first: share theirs
	}
	return m
}

// sharedUpdates is the latest matchUpdates model of a match, one per viewer class, built
// once per version and shared by every subscriber of the class.
type sharedUpdates struct {
	mu      sync.Mutex
	view    *projections.MatchView
	byClass map[string]*model.Match

	// The spectators' view of a delayed match (Resolver.delayedView), folded once for
	// all of them each time it moves: for the read side's view delayedOf, until next.
	delayedOf, delayedView *projections.MatchView
	delayedNext            time.Time
}

// delayed returns the view of a match held back by delay, and when it next moves.
func (u *sharedUpdates) delayed(ctx context.Context, r *Resolver, v *projections.MatchView, delay time.Duration) (*projections.MatchView, time.Time, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.delayedOf == v && (u.delayedNext.IsZero() || time.Now().Before(u.delayedNext)) {
		return u.delayedView, u.delayedNext, nil
	}
	dv, next, err := r.delayedView(ctx, v, delay)
	if err != nil {
		return nil, time.Time{}, err
	}
	u.delayedOf, u.delayedView, u.delayedNext = v, dv, next
	return dv, next, nil
}

// model returns the match's model for a viewer class (see updateClass) at view v.
func (u *sharedUpdates) model(v *projections.MatchView, class string) *model.Match {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.view != v {
		u.view, u.byClass = v, map[string]*model.Match{}
	}
	m := u.byClass[class]
	if m == nil {
		m = matchModel(v, class)
		if !v.Archived { // an archived match's board is folded with the caller's context
			m.Shared = &model.Shared{}
		}
		u.byClass[class] = m
	}
	return m
}
