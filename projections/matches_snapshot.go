package projections

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// MatchesFormat is the version of StoredMatches.
const MatchesFormat = 2

// StoredMatches is Matches written down: the views readers see, those in the middle of a
// command, the archive queue, the archived matches' index and the matches set aside.
type StoredMatches struct {
	Views         []StoredView
	Moving        []StoredView
	Finished      []string
	Archived      []StoredArchived // in the index's order; none when the index is a file (ArchiveIndex)
	ArchiveDigest [32]byte         // archive.digest
	// ArchivedCount and ArchivedLast are how many matches were archived and the last
	// one's ID: with an index in a file, what the file is cut back to when the snapshot
	// is restored. A snapshot written before they were has neither, and its rows.
	ArchivedCount int
	ArchivedLast  string
	Aside         []StoredAside
}

// StoredArchived is an archived match's row of the index (archive): the views of archived
// matches are folded from the store when asked, and kept nowhere.
type StoredArchived struct {
	ID      string
	Created int64 // Unix nanoseconds
	Game    string
	Players []string // who created it or holds a seat
}

// StoredView is a MatchView written down. The game state is the rules' own stored form
// (game.Snapshotting) when they have one; else Refold says that the view is folded again
// from the match's events, up to At, when the snapshot is read.
type StoredView struct {
	ID        string
	State     match.State // GameState nil: it is GameState or Refold below
	GameState []byte
	Refold    bool
	Version   int64
	Position  int64
	At        matchstream.Cursor
	CreatedAt time.Time
	UpdatedAt time.Time
	EndedAt   int64
}

// StoredAside is a match set aside, with why.
type StoredAside struct {
	Match   string
	Version int64
	Err     string
	// NotHosted is the game of a match set aside because this server does not host it
	// (match.GameNotHosted), so that its refusal says so after a restore too.
	NotHosted string `json:",omitempty"`
}

// Format implements Stored.
func (m *Matches) Format() int { return MatchesFormat }

// Save implements Stored. The views are never changed once published (a fold replaces
// them), so the lock is held only to list them: the writer does not wait for the encoding.
func (m *Matches) Save() (int64, []byte, error) {
	m.mu.RLock()
	views := slices.SortedFunc(maps.Values(m.byID), byViewID)
	moving := slices.SortedFunc(maps.Values(m.moving), byViewID)
	s := StoredMatches{Finished: slices.Clone(m.finished), ArchiveDigest: m.archive.digest, ArchivedCount: m.archive.len()}
	if m.archive.file == nil {
		s.Archived = m.archive.save()
		if len(s.Archived) > 0 {
			s.ArchivedLast = s.Archived[len(s.Archived)-1].ID
		}
	} else {
		// The file holds every row the snapshot counts before the snapshot is written: a
		// kill -9 after it cannot leave the file behind the snapshot (only a lost file can).
		if err := m.archive.file.flush(); err != nil {
			m.mu.RUnlock()
			return 0, nil, err
		}
		s.ArchivedLast = m.archive.last
	}
	for _, id := range slices.Sorted(maps.Keys(m.aside)) {
		u := m.aside[id]
		a := StoredAside{Match: u.Match, Version: u.Version, Err: u.Err.Error()}
		if nh := (*match.GameNotHosted)(nil); errors.As(u.Err, &nh) {
			a.NotHosted = nh.Game
		}
		s.Aside = append(s.Aside, a)
	}
	pos := m.pos
	m.mu.RUnlock()
	for _, v := range views {
		s.Views = append(s.Views, storeView(v))
	}
	for _, v := range moving {
		s.Moving = append(s.Moving, storeView(v))
	}
	data, err := encode(&s)
	return pos, data, err
}

func byViewID(a, b *MatchView) int { return cmp.Compare(a.ID, b.ID) }

func storeView(v *MatchView) StoredView {
	s := StoredView{ID: v.ID, State: v.State, Version: v.Version, Position: v.Position, At: v.At,
		CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt, EndedAt: v.EndedAt}
	s.State.GameState = nil
	if v.State.GameState != nil {
		s.GameState, s.Refold = storedState(v.Rules, v.State.GameState)
		s.Refold = !s.Refold
	}
	return s
}

// Restore implements Stored.
func (m *Matches) Restore(ctx context.Context, store eventstore.Store, pos int64, data []byte) error {
	var s StoredMatches
	if err := decode(data, &s); err != nil {
		return err
	}
	views, err := m.restoreViews(ctx, store, slices.Concat(s.Views, s.Moving))
	if err != nil {
		return err
	}
	byID := make(map[string]*MatchView, len(s.Views))
	moving := make(map[string]*MatchView, len(s.Moving))
	for i, v := range views {
		if i < len(s.Views) {
			byID[v.ID] = v
		} else {
			moving[v.ID] = v
		}
	}
	aside := map[string]*match.Unreplayable{}
	for _, a := range s.Aside {
		var err error = errors.New(a.Err)
		if a.NotHosted != "" {
			err = &match.GameNotHosted{Stream: matchstream.Name(a.Match), Game: a.NotHosted, Hosted: m.folder.Games.IDs()}
		}
		aside[a.Match] = &match.Unreplayable{Match: a.Match, Version: a.Version, Err: err}
	}
	index := archive{file: m.archive.file}
	switch {
	case index.file != nil:
		if err := index.restoreFile(ctx, &s, pos); err != nil {
			return err
		}
	case len(s.Archived) < s.ArchivedCount:
		return fmt.Errorf("%w: the snapshot's %d archived matches are in a node's archive index, and this model keeps its own in memory", ErrArchiveFileBehind, s.ArchivedCount)
	default:
		index.restore(s.Archived, s.ArchiveDigest)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	finished := s.Finished
	if m.archiveAfter >= 0 {
		finished = queued(s.Finished, byID)
	}
	m.byID, m.moving, m.aside, m.finished, m.archive, m.pos = byID, moving, aside, finished, index, pos
	return nil
}

// queued is the archive queue a restored model goes on with: the stored one, and the
// finished matches it lacks. A model that did not archive (ArchiveAfter negative) wrote
// them down without queueing them; read by one that archives, they would otherwise keep
// their boards in memory for ever. They are merged in by UpdatedAt, the order archiveDue
// takes the queue in, the stored queue's own order kept.
func queued(stored []string, byID map[string]*MatchView) []string {
	in := make(map[string]bool, len(stored))
	for _, id := range stored {
		in[id] = true
	}
	var missing []*MatchView
	for id, v := range byID {
		if !in[id] && over(v) {
			missing = append(missing, v)
		}
	}
	if len(missing) == 0 {
		return stored
	}
	slices.SortFunc(missing, func(a, b *MatchView) int {
		return cmp.Or(a.UpdatedAt.Compare(b.UpdatedAt), cmp.Compare(a.ID, b.ID))
	})
	out := make([]string, 0, len(stored)+len(missing))
	for _, id := range stored {
		for v := byID[id]; len(missing) > 0 && v != nil && missing[0].UpdatedAt.Before(v.UpdatedAt); missing = missing[1:] {
			out = append(out, missing[0].ID)
		}
		out = append(out, id)
	}
	for _, v := range missing {
		out = append(out, v.ID)
	}
	return out
}

// restoreViews reads stored views back, restoreParallel at a time: a view folded again
// reads its match's events, scattered over the store, and waits on the disk more than
// it works.
func (m *Matches) restoreViews(ctx context.Context, store eventstore.Store, stored []StoredView) ([]*MatchView, error) {
	views := make([]*MatchView, len(stored))
	errs := make([]error, len(stored))
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range min(restoreParallel, len(stored)) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(stored)) && ctx.Err() == nil; i = next.Add(1) - 1 {
				if views[i], errs[i] = m.restoreView(ctx, store, stored[i]); errs[i] != nil {
					next.Store(int64(len(stored))) // the first error ends the restore
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return views, ctx.Err()
}

// restoreParallel is how many views are read back at once: as many as the SQLite store's
// read connections.
const restoreParallel = 4

// restoreView reads a stored view back: its rules are those its match pinned, its game
// state the rules' stored form or, failing that, the fold of the match's events up to
// the view's cursor.
func (m *Matches) restoreView(ctx context.Context, store eventstore.Store, sv StoredView) (*MatchView, error) {
	rules, err := pinnedRules(m.folder.Games, sv.State.Game, sv.State.RulesVersion)
	if err != nil {
		return nil, err
	}
	if !sv.Refold {
		v := &MatchView{ID: sv.ID, Rules: rules, State: sv.State, Version: sv.Version, Position: sv.Position, At: sv.At,
			CreatedAt: sv.CreatedAt, UpdatedAt: sv.UpdatedAt, EndedAt: sv.EndedAt}
		if sv.GameState != nil {
			st, err := decodeState(rules, sv.GameState)
			if err != nil {
				m.restored.note(sv.ID, rules, err)
				return m.refold(ctx, store, sv)
			}
			m.restored.note(sv.ID, rules, nil)
			v.State.GameState = st
		}
		return v, nil
	}
	m.restored.note(sv.ID, rules, errUnstored)
	return m.refold(ctx, store, sv)
}

// errUnstored marks a view saved without its game state (its rules have no stored form,
// or could not write this state down): folded again by design, not refused.
var errUnstored = errors.New("projections: the game state was not written down")

// RestoredStates says how the live matches' game states of the last restore came back:
// read from their stored forms, folded again from their events because their rules do
// not write them down, or folded again because a stored form was refused (a format this
// build does not read, damaged or impossible contents). A refusal costs only time, but
// an operator must hear of it: it is the one sign of a codec that stopped reading what
// it wrote.
type RestoredStates struct {
	Decoded, Unstored, Refused int
	// FirstRefused names the first refused match and why, when Refused > 0.
	FirstRefused string
}

// restoredStates counts a restore's game states; restoreViews reads views in parallel.
type restoredStates struct {
	mu sync.Mutex
	RestoredStates
}

func (r *restoredStates) note(id string, rules game.Rules, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case err == nil:
		r.Decoded++
	case errors.Is(err, errUnstored):
		r.Unstored++
	default:
		r.Refused++
		if r.FirstRefused == "" {
			r.FirstRefused = fmt.Sprintf("match %s (%s %s): %v", id, rules.Info().ID, rules.Info().RulesVersion, err)
		}
	}
}

// RestoredStates reports how the last Restore brought the live matches' game states back.
func (m *Matches) RestoredStates() RestoredStates {
	m.restored.mu.Lock()
	defer m.restored.mu.Unlock()
	return m.restored.RestoredStates
}

// refold folds a match's view again from its streams, up to the stored view's cursor.
func (m *Matches) refold(ctx context.Context, store eventstore.Store, sv StoredView) (*MatchView, error) {
	read := func(stream string, upTo int64) ([]eventstore.Event, error) {
		if upTo == 0 {
			return nil, nil
		}
		evs, err := store.ReadStream(ctx, stream, 0, int(upTo))
		if err != nil {
			return nil, fmt.Errorf("projections: folding match %s again: %w", sv.ID, err)
		}
		if int64(len(evs)) != upTo {
			return nil, fmt.Errorf("projections: the snapshot's match %s is at version %d of %s, the store has %d", sv.ID, upTo, stream, len(evs))
		}
		return evs, nil
	}
	evs, err := read(matchstream.Name(sv.ID), sv.At.Version)
	if err != nil {
		return nil, err
	}
	for team, upTo := range sv.At.Hidden {
		hidden, err := read(matchstream.Hidden(sv.ID, team), upTo)
		if err != nil {
			return nil, err
		}
		evs = append(evs, hidden...)
	}
	slices.SortFunc(evs, func(a, b eventstore.Event) int { return cmp.Compare(a.Position, b.Position) })
	v, err := m.fold(sv.ID, nil, evs)
	if err != nil {
		return nil, fmt.Errorf("projections: folding match %s again: %w", sv.ID, err)
	}
	if v.Version != sv.Version || v.Position != sv.Position {
		return nil, fmt.Errorf("projections: match %s folds to version %d at position %d, the snapshot says %d at %d", sv.ID, v.Version, v.Position, sv.Version, sv.Position)
	}
	return v, nil
}
