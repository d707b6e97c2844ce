package projections

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/rating"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// RatingsFormat is the version of StoredRatings.
const RatingsFormat = 1

// StoredRatings is Ratings written down: every row, the rated matches still going on and
// what each result moved (for a ruling).
type StoredRatings struct {
	Rows    []Rating // by player, then key
	Players []string // Rows[i]'s player
	Pending []StoredRatedMatch
	Rated   []StoredRatedResult
}

// StoredRatedMatch is a rated match going on. A game that reads its state at the end
// (keyed) has it as the rules' stored form (game.Snapshotting) or, failing that, folded
// again from the match's events up to the snapshot's position.
type StoredRatedMatch struct {
	ID       string
	Game     string
	Players  []string
	Teams    []int
	Keyed    bool
	State    []byte
	Refold   bool
	Resigned []int
}

// StoredRatedResult is what the result of a rated match moved.
type StoredRatedResult struct {
	ID      string
	Game    string
	Players []string
	Teams   []int
	Keys    [][]string
	Before  [][]rating.Player
	Moved   []StoredMove
	// RatedAt is when the match was rated (Unix nanoseconds), for ArchiveRecords: 0 in a
	// model that keeps every record, and in the snapshots written before it (their
	// records are then dropped at the next event, and read back from the store if asked).
	RatedAt int64
}

// StoredMove is a movedRating.
type StoredMove struct {
	Seat, Key  int32
	By, Result float64
}

// Format implements Stored.
func (r *Ratings) Format() int { return RatingsFormat }

// Save implements Stored.
func (r *Ratings) Save() (int64, []byte, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var s StoredRatings
	for _, p := range slices.Sorted(maps.Keys(r.byPlayer)) {
		for _, k := range slices.Sorted(maps.Keys(r.byPlayer[p])) {
			s.Rows, s.Players = append(s.Rows, *r.byPlayer[p][k]), append(s.Players, p)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(r.pending)) {
		m := r.pending[id]
		sm := StoredRatedMatch{ID: id, Game: m.game, Players: m.players, Teams: m.teams, Keyed: m.keyed != nil, Resigned: m.resigned}
		if m.keyed != nil && m.state != nil {
			var ok bool
			sm.State, ok = storedState(m.keyed, m.state)
			sm.Refold = !ok
		}
		s.Pending = append(s.Pending, sm)
	}
	ids, at := r.order()
	for i, id := range ids {
		d, err := r.unpack(r.rated[id])
		if err != nil {
			return 0, nil, fmt.Errorf("ratings: the record of match %s: %w", id, err)
		}
		sd := StoredRatedResult{ID: id, Game: d.game, Players: d.players, Teams: d.teams, Keys: d.keys, Before: d.before}
		if at != nil {
			sd.RatedAt = at[i]
		}
		for _, mv := range d.moved {
			sd.Moved = append(sd.Moved, StoredMove{Seat: mv.seat, Key: mv.key, By: mv.by, Result: mv.result})
		}
		s.Rated = append(s.Rated, sd)
	}
	data, err := encode(&s)
	return r.pos, data, err
}

// Restore implements Stored.
func (r *Ratings) Restore(ctx context.Context, store eventstore.Store, pos int64, data []byte) error {
	var s StoredRatings
	if err := decode(data, &s); err != nil {
		return err
	}
	if len(s.Players) != len(s.Rows) {
		return fmt.Errorf("projections: stored ratings have %d rows for %d players", len(s.Rows), len(s.Players))
	}
	byPlayer := map[string]map[string]*Rating{}
	for i, row := range s.Rows {
		p := s.Players[i]
		if byPlayer[p] == nil {
			byPlayer[p] = map[string]*Rating{}
		}
		byPlayer[p][row.Key] = &row
	}
	pending := make(map[string]*ratedMatch, len(s.Pending))
	for _, sm := range s.Pending {
		m := &ratedMatch{game: sm.Game, players: sm.Players, teams: sm.Teams, resigned: sm.Resigned}
		m.rules, m.keyed = r.rulesOf(sm.Game), r.keyed(sm.Game)
		if sm.Keyed && m.keyed == nil {
			return &UnknownRules{Game: sm.Game, Version: "(one that reads its state at the end)"}
		}
		if !sm.Keyed && m.keyed != nil {
			return fmt.Errorf("projections: the snapshot's rated match %s of %s keeps no game state, and this build's %s reads it at the end", sm.ID, sm.Game, sm.Game)
		}
		if m.keyed != nil {
			var err error
			if m.state, err = r.restoreKeyed(ctx, store, pos, sm, m.keyed); err != nil {
				return err
			}
		}
		pending[sm.ID] = m
	}
	rated := make(map[string]*ratedResult, len(s.Rated)) // packed below, under the lock: pack interns
	for _, sd := range s.Rated {
		if rated[sd.ID] != nil {
			return fmt.Errorf("projections: stored ratings hold match %s's record twice", sd.ID)
		}
		d := &ratedResult{game: sd.Game, players: sd.Players, teams: sd.Teams, keys: sd.Keys, before: sd.Before}
		for _, mv := range sd.Moved {
			d.moved = append(d.moved, movedRating{seat: mv.Seat, key: mv.Key, by: mv.By, result: mv.Result})
		}
		rated[sd.ID] = d
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names = interned{}
	r.rated = make(map[string]packedResult, len(rated))
	r.kept.ids, r.kept.at, r.kept.head, r.kept.latest = nil, nil, 0, 0
	for _, sd := range s.Rated {
		r.rated[sd.ID] = r.pack(rated[sd.ID])
		if r.kept.on {
			r.kept.push(sd.ID, sd.RatedAt)
			r.kept.latest = max(r.kept.latest, sd.RatedAt)
		}
	}
	r.byPlayer, r.pending, r.pos = byPlayer, pending, pos
	r.reindex()
	return nil
}

// restoreKeyed reads a keyed match's game state back, or folds it again as fold did: each
// game event of the match's own stream up to pos, evolved under the game's rules.
func (r *Ratings) restoreKeyed(ctx context.Context, store eventstore.Store, pos int64, sm StoredRatedMatch, keyed game.Rules) (game.State, error) {
	if !sm.Refold {
		if sm.State == nil {
			return nil, nil
		}
		if st, ok := restoredState(keyed, sm.State); ok {
			return st, nil
		}
	}
	var st game.State
	for after := int64(0); ; {
		evs, err := store.ReadStream(ctx, matchstream.Name(sm.ID), after, rebuildPage)
		if err != nil {
			return nil, fmt.Errorf("projections: folding rated match %s again: %w", sm.ID, err)
		}
		for _, ev := range evs {
			if ev.Position > pos {
				return st, nil
			}
			if match.IsLifecycle(ev.Type) {
				continue
			}
			d, err := match.Decode(keyed, ev.Type, ev.SchemaVersion, ev.Payload)
			if err != nil {
				return nil, fmt.Errorf("projections: folding rated match %s again: %w", sm.ID, err)
			}
			st = keyed.Evolve(st, d)
		}
		if len(evs) < rebuildPage {
			return st, nil
		}
		after = evs[len(evs)-1].Version
	}
}
