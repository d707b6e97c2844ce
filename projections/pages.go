package projections

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// pageApplier is a projection that can apply a page of events at once, with the result
// Apply would give event by event: Rebuild uses it. On an error it returns the position of
// the event that failed, as Apply one by one would have.
type pageApplier interface {
	applyPage(evs []eventstore.Event) (failedAt int64, err error)
}

// applyPage folds the matches of a page in parallel: matches are independent, and
// decoding and folding their events is nearly all the cost of a rebuild. Each match's
// events are folded in order into one new view, which replaces the old one only once the
// whole page has folded without error; readers, blocked by the write lock meanwhile, see
// the model before or after the page. If any event fails, nothing of the page is kept and
// the page is applied again one event at a time, so that the model, its checkpoint and
// the error are exactly those of Apply.
func (m *Matches) applyPage(evs []eventstore.Event) (int64, error) {
	m.mu.Lock()
	type group struct {
		id   string
		evs  []eventstore.Event
		view *MatchView
		err  error
	}
	var (
		groups []*group
		byID   = map[string]*group{}
		last   = m.pos
		failed atomic.Bool
	)
	for _, ev := range evs {
		if ev.Position <= last {
			continue
		}
		last = ev.Position
		id, ok := matchstream.Of(ev.Stream)
		if !ok || m.aside[id] != nil {
			continue
		}
		g := byID[id]
		if g == nil {
			g = &group{id: id, view: m.latest(id)}
			if g.view == nil { // an archived match is in neither byID nor moving
				if archived, err := m.archive.has(id); archived || err != nil {
					failed.Store(true) // an error: Apply, one event at a time, tells which
				}
			}
			byID[id] = g
			groups = append(groups, g)
		}
		g.evs = append(g.evs, ev)
	}
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range min(runtime.GOMAXPROCS(0), len(groups)) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(groups)) && !failed.Load(); i = next.Add(1) - 1 {
				g := groups[i]
				g.view, g.err = m.fold(g.id, g.view, g.evs)
				if g.err != nil {
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		m.mu.Unlock()
		for _, ev := range evs {
			if err := m.Apply(ev); err != nil {
				return ev.Position, err
			}
		}
		return 0, nil
	}
	for _, g := range groups {
		m.publish(g.view, g.evs[len(g.evs)-1].Time)
	}
	m.pos = last
	m.mu.Unlock()
	return 0, nil
}

// fold applies one match's events, in order, to a copy of its view (nil for a new match):
// Apply with one event, applyPage with all the events of a match in a page. An event that
// does not fold is an *match.Unreplayable.
func (m *Matches) fold(id string, old *MatchView, evs []eventstore.Event) (*MatchView, error) {
	var v *MatchView
	if old == nil {
		v = &MatchView{ID: id, CreatedAt: evs[0].Time}
	} else {
		cp := *old // readers may hold the old view: replace it, never change it
		v = &cp
	}
	for _, ev := range evs {
		if old == nil && v.At.Version == 0 && ev.Stream != matchstream.Name(id) {
			return nil, fmt.Errorf("match %s has hidden event %d before its first event", id, ev.Version)
		}
		live, err := v.At.Next(id, ev)
		if err != nil {
			return nil, err
		}
		if !live {
			continue // a covert event that lost a race: void
		}
		rules, st, err := m.folder.Apply(id, v.Rules, v.State, ev.Version-1, matchstream.Record(ev))
		if err != nil {
			return nil, err
		}
		v.Rules, v.State = rules, st
		if ev.Stream != matchstream.Name(id) {
			// A hidden event changes the state alone: the match's version, position and
			// time are its public stream's, which must not show that anything happened.
			continue
		}
		v.Version, v.Position, v.UpdatedAt = ev.Version, ev.Position, ev.Time
		if v.EndedAt == 0 && st.Status == match.Finished {
			v.EndedAt = ev.Version
		}
	}
	return v, nil
}
