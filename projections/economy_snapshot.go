package projections

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/economy/facts"
	"github.com/arbiter-games/arbiter/eventstore"
)

// EconomyFormat is the version of StoredEconomy (and of the ratings it holds).
const EconomyFormat = 1

// StoredEconomy is the Economy written down, with its own Ratings (at the ratings' own
// checkpoint, which the economy's feeding may have moved one event past the economy's).
type StoredEconomy struct {
	Live           []facts.Stored // the tallies of matches going on, by match ID
	Players        []StoredPlayerEconomy
	Pending        []Due
	RatingsAt      int64
	Ratings        []byte // StoredRatings
	RatingsVersion int
}

// StoredPlayerEconomy is one player's economy.
type StoredPlayerEconomy struct {
	Player    string
	Days      []StoredDay
	XP        int
	Abandoned []time.Time
	Loot      []Loot
	Drawn     []string
	Paid      []string
}

// StoredDay is a dayTally.
type StoredDay struct {
	Day      string
	Matches  int
	Progress [daily.PerDay]int
}

// Format implements Stored.
func (e *Economy) Format() int { return EconomyFormat*100 + RatingsFormat }

// Save implements Stored.
func (e *Economy) Save() (int64, []byte, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var s StoredEconomy
	var err error
	// The ratings are fed before the economy under its own lock (Apply): with the
	// economy's read lock held, they are at the economy's position or one event past.
	if s.RatingsAt, s.Ratings, err = e.ratings.Save(); err != nil {
		return 0, nil, err
	}
	s.RatingsVersion = RatingsFormat
	for _, id := range slices.Sorted(maps.Keys(e.live)) {
		s.Live = append(s.Live, e.live[id].Stored())
	}
	for _, id := range slices.Sorted(maps.Keys(e.players)) {
		p := e.players[id]
		sp := StoredPlayerEconomy{Player: id, XP: p.xp, Abandoned: p.abandoned, Loot: p.loot,
			Drawn: slices.Sorted(maps.Keys(p.drawn)), Paid: slices.Sorted(maps.Keys(p.paid))}
		for _, day := range slices.Sorted(maps.Keys(p.days)) {
			sp.Days = append(sp.Days, StoredDay{Day: day, Matches: p.days[day].matches, Progress: p.days[day].progress})
		}
		s.Players = append(s.Players, sp)
	}
	s.Pending = e.pendingLocked()
	data, err := encode(&s)
	return e.pos, data, err
}

// Restore implements Stored.
func (e *Economy) Restore(ctx context.Context, store eventstore.Store, pos int64, data []byte) error {
	var s StoredEconomy
	if err := decode(data, &s); err != nil {
		return err
	}
	if s.RatingsVersion != RatingsFormat {
		return fmt.Errorf("projections: the economy's ratings are of format %d, this build reads %d", s.RatingsVersion, RatingsFormat)
	}
	live := make(map[string]*facts.Tally, len(s.Live))
	for _, t := range s.Live {
		live[t.Match.ID] = facts.Restore(t)
	}
	players := make(map[string]*playerEconomy, len(s.Players))
	for _, sp := range s.Players {
		p := &playerEconomy{days: map[string]*dayTally{}, xp: sp.XP, abandoned: sp.Abandoned, loot: sp.Loot, drawn: map[string]bool{}, paid: map[string]bool{}}
		for _, d := range sp.Days {
			p.days[d.Day] = &dayTally{matches: d.Matches, progress: d.Progress}
		}
		for _, id := range sp.Drawn {
			p.drawn[id] = true
		}
		for _, key := range sp.Paid {
			p.paid[key] = true
		}
		players[sp.Player] = p
	}
	pending := make(map[string]Due, len(s.Pending))
	for _, d := range s.Pending {
		key := d.ID // a draw is keyed by its event ID, a challenge by player and grant key
		if d.Challenge != nil {
			key = d.Player + "\x00" + d.ID
		}
		pending[key] = d
	}
	if err := e.ratings.Restore(ctx, store, s.RatingsAt, s.Ratings); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.live, e.players, e.pending, e.pos = live, players, pending, pos
	return nil
}
