package projections

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/facts"
	"github.com/arbiter-games/arbiter/domain/economy/progress"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Economy is what the economy reads from finished matches, per player (docs/economy.md):
// the matches of the last two days (the daily challenges count today's), Solwaris's
// experience, the abandonments of duels against players (the cooldowns) and the
// Cristal légendaire draws. Each match is tallied as its events come (package facts)
// and read once it is over, at its SeedRevealed, the seed being the loot's draw.
//
// A draw is read from its LootDrawn event on the player's loot stream, which the
// settlement process appends: the model derives the draws a finished duel calls for
// (Pending) only for that process, which keeps a model of its own and records them.
//
// A class's league at the end of a duel is read from the model's own Ratings, fed the
// same events just before: the projections are independent (a rebuild feeds each a page
// at a time), so the economy keeps its own rather than read another model's.
type Economy struct {
	checkpoint
	games   *game.Registry
	ratings *Ratings
	live    map[string]*facts.Tally // matches being tallied, by ID
	players map[string]*playerEconomy
	pending map[string]Draw // event ID -> a draw derived and not yet recorded
}

// Draw is a draw a finished duel calls for, to be recorded on Player's loot stream.
type Draw struct {
	Player string
	ID     string // the event's ID (progress.LootEventID)
	Event  progress.LootDrawn
}

type playerEconomy struct {
	recent    []facts.Match // ended within Keep of the player's last match
	xp        int
	abandoned []time.Time // abandonments that cost time, within Keep of the last one
	loot      []Loot
	drawn     map[string]bool // loot event IDs recorded
}

// Loot is a Cristal légendaire won at the end of a duel, with its draw.
type Loot struct {
	Match        string
	Item         string
	Chance, Roll int
	At           time.Time
}

// Keep is how long a player's matches and abandonments are kept: a day's challenges and
// a rolling day's abandonments, with a day to spare for a day that began before the last
// match.
const Keep = 48 * time.Hour

// NewEconomy returns an empty model for the games of reg.
func NewEconomy(reg *game.Registry) *Economy {
	return &Economy{games: reg, ratings: NewRatings(reg), live: map[string]*facts.Tally{}, players: map[string]*playerEconomy{}, pending: map[string]Draw{}}
}

// Name implements Projection.
func (e *Economy) Name() string { return "economy" }

// Apply implements Projection.
func (e *Economy) Apply(ev eventstore.Event) error {
	if err := e.ratings.Apply(ev); err != nil {
		return err
	}
	defer e.mu.Unlock()
	if !e.admit(ev) {
		return nil
	}
	if player, ok := strings.CutPrefix(ev.Stream, "loot-"); ok {
		e.recorded(player, ev)
		return nil
	}
	id, ok := strings.CutPrefix(ev.Stream, "match-")
	if !ok {
		return nil
	}
	t := e.live[id]
	if ev.Type == "MatchCreated" && t == nil {
		t = facts.New(id)
		e.live[id] = t
	}
	if t == nil {
		return nil
	}
	if !match.IsLifecycle(ev.Type) {
		t.AddGame(ev.Type, ev.Payload)
		return nil
	}
	d, err := match.Decode(nil, ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		delete(e.live, id) // a match whose events do not replay is set aside (see Matches)
		return nil
	}
	t.Add(d, ev.Time)
	if _, revealed := d.(match.SeedRevealed); revealed && t.Over() {
		delete(e.live, id)
		e.finish(t.Match())
	}
	return nil
}

// finish reads a finished match into its players' economies.
func (e *Economy) finish(m facts.Match) {
	for seat, s := range m.Seats {
		if s.Player == "" || s.Bot {
			continue
		}
		p := e.players[s.Player]
		if p == nil {
			p = &playerEconomy{}
			e.players[s.Player] = p
		}
		p.recent = append(slices.DeleteFunc(p.recent, func(x facts.Match) bool { return x.Ended.Before(m.Ended.Add(-Keep)) }), m)
		p.xp += progress.XP(m, seat)
		if progress.CountsAsAbandonment(m, seat) {
			p.abandoned = append(slices.DeleteFunc(p.abandoned, func(t time.Time) bool { return t.Before(m.Ended.Add(-Keep)) }), m.Ended)
		}
		if s.Class == "" {
			continue
		}
		key := progress.Solwaris + "/" + s.Class
		rating := newRating(m.Game, key, e.ratings.rulesOf(m.Game)).Rating
		for _, r := range e.ratings.Of(s.Player) {
			if r.Key == key {
				rating = r.Rating
			}
		}
		if l, ok := progress.DrawLoot(m, seat, rating); ok {
			id := progress.LootEventID(m.ID, seat)
			if !p.drawn[id] {
				e.pending[id] = Draw{Player: s.Player, ID: id, Event: progress.Record(m, seat, rating, l)}
			}
		}
	}
}

// recorded reads a draw recorded on a player's loot stream.
func (e *Economy) recorded(player string, ev eventstore.Event) {
	d, err := progress.LootEvents.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
	l, ok := d.(progress.LootDrawn)
	if err != nil || !ok {
		return // verify names it; the read side shows what it can read
	}
	id := progress.LootEventID(l.Match, l.Seat)
	delete(e.pending, id)
	p := e.players[player]
	if p == nil {
		p = &playerEconomy{}
		e.players[player] = p
	}
	if p.drawn == nil {
		p.drawn = map[string]bool{}
	}
	p.drawn[id] = true // recorded before its match was read: a store copied out of order
	if l.Won {
		p.loot = append(p.loot, Loot{Match: l.Match, Item: l.Item, Chance: l.Chance, Roll: l.Roll, At: ev.Time})
	}
}

// Pending returns the draws derived from finished duels and not yet recorded, in the
// order of their IDs.
func (e *Economy) Pending() []Draw {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.pendingLocked()
}

func (e *Economy) pendingLocked() []Draw {
	return slices.SortedFunc(maps.Values(e.pending), func(a, b Draw) int { return cmp.Compare(a.ID, b.ID) })
}

// PlayerEconomy is what the economy knows of one player.
type PlayerEconomy struct {
	Recent    []facts.Match // the matches of about the last two days, oldest first
	XP        int
	Abandoned []time.Time // the abandonments of duels against players of about the last two days
	Loot      []Loot
}

// Of returns a player's economy (a copy).
func (e *Economy) Of(player string) PlayerEconomy {
	e.mu.RLock()
	defer e.mu.RUnlock()
	p := e.players[player]
	if p == nil {
		return PlayerEconomy{}
	}
	return PlayerEconomy{Recent: slices.Clone(p.recent), XP: p.xp, Abandoned: slices.Clone(p.abandoned), Loot: slices.Clone(p.loot)}
}

// Ratings returns a player's ratings as the economy folded them.
func (e *Economy) Ratings(player string) []Rating { return e.ratings.Of(player) }

// Digest implements Projection.
func (e *Economy) Digest() string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var b strings.Builder
	for _, id := range slices.Sorted(maps.Keys(e.players)) {
		p := e.players[id]
		fmt.Fprintf(&b, "%s xp=%d recent=%d abandoned=%v loot=%v\n", id, p.xp, len(p.recent), p.abandoned, p.loot)
	}
	for _, d := range e.pendingLocked() {
		fmt.Fprintf(&b, "pending %s %s %+v\n", d.ID, d.Player, d.Event)
	}
	return b.String() + e.ratings.Digest()
}
