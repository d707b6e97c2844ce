package projections

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// MatchView is one match as the read side knows it.
type MatchView struct {
	ID    string
	Rules game.Rules
	State match.State
	// Version, Position and UpdatedAt are those of the match's own stream's last event: a
	// hidden event (matchstream.Hidden) changes State alone, and At.
	Version   int64
	Position  int64
	At        matchstream.Cursor
	CreatedAt time.Time
	UpdatedAt time.Time
	// Archived views are finished matches that the model no longer keeps (see
	// ArchiveAfter), folded again from the store when asked: State keeps the seats,
	// options, result and seed, GameState is nil. Whoever needs the board folds the match
	// again from the store.
	Archived bool
	// EndedAt is the version of the match's MatchEnded event, 0 while it goes on: the
	// events before it stay redacted for a stream, whenever it is read (Viewer.AsOf).
	EndedAt int64
}

// Matches is the live state of every match: boards, moves, seats, and the lobby.
//
// A reader sees each match as of the last event of a command: a command's events are
// applied one at a time, and the state between two of them may already hold facts still
// to be recorded (match.State.Settled, game.Settling), so that, in a reader's one answer,
// what the game says of it (the phase, who acts) and what it shows (a window, a board)
// could disagree. Such a view waits in moving until the command's last event.
type Matches struct {
	folder match.Folder
	checkpoint
	byID   map[string]*MatchView // what readers see: each match's last settled view
	moving map[string]*MatchView // matches in the middle of a command's events, by ID

	archiveAfter time.Duration      // < 0: never
	store        matchstream.Reader // where archived matches are read back from
	archive      archive            // the archived matches, which byID no longer holds
	finished     []string           // IDs of finished, unarchived matches, in the order they ended
	ended        chan struct{}      // a match joined finished: RunArchiver's wait may be shorter

	aside   map[string]*match.Unreplayable // matches whose events do not replay, by ID
	onAside func(*match.Unreplayable)

	restored restoredStates // how the last Restore brought game states back
}

// MatchesOption configures NewMatches.
type MatchesOption func(*Matches)

// ArchiveAfter drops a match from memory once it has been over for d (or for its
// spectator delay, when longer: kept): the model keeps a few tens of bytes of it for its
// listings (archive), and Get and List fold its view again from store when asked,
// without its board, which the API folds in turn from the store when asked. Time is that of the events applied since (so a rebuild archives as
// it goes), and of the clock RunArchiver reads (so a match is archived on time when no
// event follows its end). A negative d, the default, never archives. A nil store serves
// only models that are never read (arbiter rebuild's digests): Get of an archived match
// then fails.
func ArchiveAfter(d time.Duration, store matchstream.Reader) MatchesOption {
	return func(m *Matches) { m.archiveAfter, m.store = d, store }
}

// ArchiveIndex keeps the index of the archived matches in f, a node's file, rather than in
// memory (about 85 bytes a match, for good): see ArchiveFile. The model empties the file
// when it archives its first match unless a snapshot restored it first, which cuts the
// file back to the snapshot's rows. One model at a time uses a file.
func ArchiveIndex(f *ArchiveFile) MatchesOption {
	return func(m *Matches) { m.archive.file = f }
}

// OnSetAside calls f, once per match, when a match's events are found not to replay: the
// model then drops the match and ignores its later events, and serves every other match.
// f runs under the model's lock and must not call back into it.
func OnSetAside(f func(*match.Unreplayable)) MatchesOption {
	return func(m *Matches) { m.onAside = f }
}

// NewMatches returns an empty model for the games of reg.
func NewMatches(reg *game.Registry, opts ...MatchesOption) *Matches {
	m := &Matches{folder: match.Folder{Games: reg}, byID: map[string]*MatchView{}, moving: map[string]*MatchView{}, aside: map[string]*match.Unreplayable{}, archiveAfter: -1,
		ended: make(chan struct{}, 1)}
	for _, o := range opts {
		o(m)
	}
	return m
}

// settle notes a view just folded: a finished match joins the archive queue, and the
// matches over for long enough by the time now are archived. The caller holds the lock.
func (m *Matches) settle(v *MatchView, was *MatchView, now time.Time) {
	if m.archiveAfter < 0 {
		return
	}
	if over(v) && (was == nil || !over(was)) {
		m.finished = append(m.finished, v.ID)
		select {
		case m.ended <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
	m.archiveDue(now)
}

// over reports whether v's match is finished and settled: it joins the archive queue.
func over(v *MatchView) bool { return v.State.Status == match.Finished && v.State.Settled(v.Rules) }

// archiveDue archives the matches over for archiveAfter by the time now, and returns when
// the next one is due, or the zero time when none waits. The caller holds the lock.
func (m *Matches) archiveDue(now time.Time) time.Time {
	for len(m.finished) > 0 {
		old := m.byID[m.finished[0]]
		if old != nil && now.Sub(old.UpdatedAt) < m.kept(old) {
			return old.UpdatedAt.Add(m.kept(old))
		}
		m.finished = m.finished[1:]
		if old != nil {
			m.archive.add(old, digestLine(old), m.pos)
			delete(m.byID, old.ID)
		}
	}
	return time.Time{}
}

// kept is how long a finished match stays in memory before it is archived: ArchiveAfter,
// or the match's spectator delay when longer. Until the delay is over a spectator sees the
// match as it was before its end (graph/delay.go), live or waiting for players, and the
// lobby lists it so (Filter.May), which an archived row, finished and nothing more,
// could not. A match behind it in the queue waits for it: at most match.MaxSpectatorDelay.
func (m *Matches) kept(v *MatchView) time.Duration {
	d, _ := match.SpectatorDelay(v.State.Options) // checked when the match was created
	return max(m.archiveAfter, d)
}

// Archive archives the finished matches that have been over for ArchiveAfter by the time
// now, and returns when the next one is due (the zero time when none waits).
func (m *Matches) Archive(now time.Time) time.Time {
	if m.archiveAfter < 0 {
		return time.Time{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.archiveDue(now)
}

// RunArchiver archives each finished match when its ArchiveAfter has passed by the
// clock, until ctx ends: without it a match would wait for the next event applied. It
// sleeps until the next match is due, or until one more match ends.
func (m *Matches) RunArchiver(ctx context.Context) error {
	if m.archiveAfter < 0 {
		return nil
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		timer.Stop()
		if next := m.Archive(time.Now()); !next.IsZero() {
			timer.Reset(time.Until(next))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-m.ended:
		case <-timer.C:
		}
	}
}

// Name implements Projection.
func (m *Matches) Name() string { return "matches" }

// Apply implements Projection.
func (m *Matches) Apply(ev eventstore.Event) error {
	defer m.mu.Unlock()
	if !m.admit(ev) {
		return nil
	}
	id, ok := matchstream.Of(ev.Stream) // its own stream or a hidden one (matchstream.Hidden)
	if !ok {
		return nil
	}
	if m.aside[id] != nil {
		return nil
	}
	latest := m.latest(id)
	if latest == nil { // an archived match is in neither byID nor moving
		archived, err := m.archive.has(id)
		if err != nil {
			return err
		}
		if archived {
			return errArchived(id, ev)
		}
	}
	v, err := m.fold(id, latest, []eventstore.Event{ev})
	if u := (*match.Unreplayable)(nil); errors.As(err, &u) {
		m.putAside(u)
		return nil
	}
	if err != nil {
		return err
	}
	m.publish(v, ev.Time)
	return nil
}

// latest is the view a match's next event folds into: the one in the middle of a command
// if any, else the one readers see (nil for a new match). The caller holds the lock.
func (m *Matches) latest(id string) *MatchView {
	if v := m.moving[id]; v != nil {
		return v
	}
	return m.byID[id]
}

// publish shows readers v, folded up to an event of time at, once it is settled; until
// then it waits in moving and readers keep the view before its command. The caller holds
// the lock.
func (m *Matches) publish(v *MatchView, at time.Time) {
	if !v.State.Settled(v.Rules) {
		m.moving[v.ID] = v
		return
	}
	delete(m.moving, v.ID)
	was := m.byID[v.ID]
	m.byID[v.ID] = v
	m.settle(v, was, at)
}

// putAside drops a match that does not replay. The caller holds the lock.
func (m *Matches) putAside(u *match.Unreplayable) {
	delete(m.byID, u.Match)
	delete(m.moving, u.Match)
	m.aside[u.Match] = u
	if m.onAside != nil {
		m.onAside(u)
	}
}

// Unavailable returns the refusal (game.Unavailable, naming the match) of a match set
// aside because its events do not replay, or nil.
func (m *Matches) Unavailable(id string) error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if u := m.aside[id]; u != nil {
		return u.Refusal()
	}
	return nil
}

// SetAside returns the matches set aside because their events do not replay, by ID.
func (m *Matches) SetAside() []*match.Unreplayable {
	m.mu.RLock()
	out := make([]*match.Unreplayable, 0, len(m.aside))
	for _, u := range m.aside {
		out = append(out, u)
	}
	m.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Match < out[j].Match })
	return out
}

// Record is what a game's export needs to know of the match around it.
func (v *MatchView) Record() game.Record { return v.State.Record(v.Rules, v.ID, v.CreatedAt) }

// digestLine is a view's line in Digest: its ID, version, status, result and board.
func digestLine(v *MatchView) string {
	line := fmt.Sprintf("%s %d %s %v", v.ID, v.Version, v.State.Status, v.State.Result)
	if b, ok := v.Rules.(game.Boarded); ok {
		line += " " + b.Board(v.State.GameState).FEN
	}
	return line + "\n"
}

// errArchived refuses an event of a match archived when it ended.
func errArchived(id string, ev eventstore.Event) error {
	return fmt.Errorf("match %s was archived when it ended, and now has event %d: archive later", id, ev.Version)
}

// Get returns a match's view as of the last event of a command (see Matches), or nil for a
// match the model does not hold. An archived match's view is folded from the store.
func (m *Matches) Get(ctx context.Context, id string) (*MatchView, error) {
	m.mu.RLock()
	v := m.byID[id]
	var (
		archived bool
		err      error
	)
	if v == nil {
		archived, err = m.archive.has(id)
	}
	m.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	if v != nil || !archived {
		return v, nil
	}
	return m.load(ctx, id)
}

// Holds reports whether the model holds the match of ID id, in memory or archived. An
// archive index that cannot be read is an error, not a "no": the caller would otherwise
// refuse a good cursor as naming no match.
func (m *Matches) Holds(id string) (bool, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.byID[id] != nil {
		return true, nil
	}
	return m.archive.has(id)
}

// Filter selects matches of the lobby.
type Filter struct {
	Status match.Status // "" for any
	Game   string       // "" for any
	Player string       // "" for any; else the matches where it holds a seat, or that it created
	Limit  int          // <= 0 for no limit
	After  string       // "" for none; else only the matches that come after this one, newest first
	// May, when set, stands in for Status for the matches in memory: a viewer held back by
	// a spectator delay sees a match in the status of its delayed view, which the caller
	// tells apart (graph/lobby.go) and may only guess here, from the view alone, erring
	// towards listing. It runs under the model's lock: no I/O, no call into the model. The
	// archived matches are listed by Status: a match stays in memory until its delay is
	// over (kept), so an archived one looks finished to every viewer.
	May func(*MatchView) bool
}

// List returns matches, newest first: created later, or at the same time with a smaller
// ID. A match's place never changes, so a page read after a match goes on where the page
// before stopped. With After, a match this model does not hold lists from the newest: the
// caller checks it first (Holds). The archived matches of the page are folded from the
// store.
func (m *Matches) List(ctx context.Context, f Filter) ([]*MatchView, error) {
	out, err := m.listing(f)
	if err != nil {
		return nil, err
	}
	views := make([]*MatchView, len(out))
	for i, l := range out {
		if views[i] = l.view; views[i] != nil {
			continue
		}
		v, err := m.load(ctx, l.id)
		if err != nil {
			return nil, err
		}
		views[i] = v
	}
	return views, nil
}

// page is listing where the index cannot fail (in memory).
func (m *Matches) page(f Filter) []listed {
	out, _ := m.listing(f)
	return out
}

// listing is the listing List returns, before the views of its archived matches are read.
func (m *Matches) listing(f Filter) ([]listed, error) {
	m.mu.RLock()
	var cursor *listed
	if v := m.byID[f.After]; v != nil {
		cursor = &listed{id: v.ID, created: v.CreatedAt.UnixNano()}
	} else if f.After != "" {
		r, ok, err := m.archive.find(f.After)
		if err != nil {
			m.mu.RUnlock()
			return nil, err
		}
		if ok {
			cursor = &r
		}
	}
	// The matches in memory (the live ones, and those not archived yet) are sorted here;
	// the archive gives its page already in order, and the two are merged.
	var live []listed
	for _, v := range m.byID {
		status := f.Status == "" || v.State.Status == f.Status
		if f.May != nil {
			status = f.May(v)
		}
		if status && (f.Game == "" || v.State.Game == f.Game) &&
			(f.Player == "" || v.State.CreatedBy == f.Player || v.State.SeatOf(f.Player) >= 0) {
			if l := (listed{view: v, id: v.ID, created: v.CreatedAt.UnixNano()}); cursor == nil || byNewest(l, *cursor) > 0 {
				live = append(live, l)
			}
		}
	}
	archived, err := m.archive.match(f, cursor, nil)
	m.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	slices.SortFunc(live, byNewest)
	out := make([]listed, 0, len(live)+len(archived))
	for len(live)+len(archived) > 0 && (f.Limit <= 0 || len(out) < f.Limit) {
		if len(archived) == 0 || len(live) > 0 && byNewest(live[0], archived[0]) < 0 {
			out, live = append(out, live[0]), live[1:]
		} else {
			out, archived = append(out, archived[0]), archived[1:]
		}
	}
	return out, nil
}

// Digest implements Projection: every match's ID, version, status, result and board. The
// lines are combined whatever their order (the exclusive or of their hashes), so that an
// archived match's counts the same from when it is archived, board and all.
func (m *Matches) Digest() string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	sum := m.archive.digest
	for _, v := range m.byID {
		h := sha256.Sum256([]byte(digestLine(v)))
		for i := range sum {
			sum[i] ^= h[i]
		}
	}
	digest := fmt.Sprintf("%d matches, checkpoint %d, sha256 %s", len(m.byID)+m.archive.len(), m.pos, hex.EncodeToString(sum[:])[:16])
	if len(m.aside) > 0 {
		digest += fmt.Sprintf(", %d set aside", len(m.aside))
	}
	return digest
}

// Count returns how many matches the model holds in each status, and how many of the
// finished ones are archived.
func (m *Matches) Count() (byStatus map[match.Status]int, archived int) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	byStatus = map[match.Status]int{}
	for _, v := range m.byID {
		byStatus[v.State.Status]++
	}
	if n := m.archive.len(); n > 0 {
		byStatus[match.Finished] += n
	}
	return byStatus, m.archive.len()
}
