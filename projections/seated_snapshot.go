package projections

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
)

// CardsFormat and ChoicesFormat are the versions of StoredCards and StoredChoices.
const (
	CardsFormat   = 2 // 2: the delay of each match, and the cards due (CardsPlayed.due)
	ChoicesFormat = 1
)

// StoredSeated is a followed match going on (seatedMatches): its game, who sits where,
// and for a match with a spectator delay, the delay and the cards played that count once
// its end is as old as the delay. A form written before the delay was kept has none of
// them: its delayed matches' cards were counted; one written before the delay's length
// was (Delayed alone) is of CardsFormat 1, refused, and its choices need no delay.
type StoredSeated struct {
	ID      string
	Game    string
	Players []string
	Delayed bool
	Delay   time.Duration
	Held    []HeldCard
}

// StoredCards is CardsPlayed written down.
type StoredCards struct {
	Matches []StoredSeated
	Players []string    // Counts[i]'s player
	Counts  []CardCount // by player, game and card
	Due     []DueCard   // as CardsPlayed.due
}

// StoredChoices is Choices written down.
type StoredChoices struct {
	Matches []StoredSeated
	Players []string     // Last[i]'s player
	Last    []Remembered // by player, game and key
}

func (ms seatedMatches) save() []StoredSeated {
	out := make([]StoredSeated, 0, len(ms.byID))
	for _, id := range slices.Sorted(maps.Keys(ms.byID)) {
		m := ms.byID[id]
		out = append(out, StoredSeated{ID: id, Game: m.rules.Info().ID, Players: m.players, Delayed: m.delay > 0, Delay: m.delay, Held: m.held})
	}
	return out
}

// restore reads back what save wrote, into a new map.
func (ms seatedMatches) restore(stored []StoredSeated) (map[string]*seatedMatch, error) {
	byID := make(map[string]*seatedMatch, len(stored))
	for _, s := range stored {
		rules, err := currentRules(ms.games, s.Game)
		if err != nil {
			return nil, err
		}
		players := s.Players
		if players == nil {
			players = []string{}
		}
		byID[s.ID] = &seatedMatch{rules: rules, players: players, delay: s.Delay, held: s.Held}
	}
	return byID, nil
}

// Format implements Stored.
func (c *CardsPlayed) Format() int { return CardsFormat }

// Save implements Stored.
func (c *CardsPlayed) Save() (int64, []byte, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s := StoredCards{Matches: c.matches.save(), Due: c.due}
	for _, p := range slices.Sorted(maps.Keys(c.byPlayer)) {
		for _, x := range c.of(p) {
			s.Players, s.Counts = append(s.Players, p), append(s.Counts, x)
		}
	}
	data, err := encode(&s)
	return c.pos, data, err
}

// Restore implements Stored.
func (c *CardsPlayed) Restore(_ context.Context, _ eventstore.Store, pos int64, data []byte) error {
	var s StoredCards
	if err := decode(data, &s); err != nil {
		return err
	}
	matches, err := c.matches.restore(s.Matches)
	if err != nil {
		return err
	}
	if len(s.Players) != len(s.Counts) {
		return fmt.Errorf("projections: stored cards name %d players for %d counts", len(s.Players), len(s.Counts))
	}
	byPlayer := map[string]map[[2]string]*CardCount{}
	for i, x := range s.Counts {
		p := s.Players[i]
		if byPlayer[p] == nil {
			byPlayer[p] = map[[2]string]*CardCount{}
		}
		byPlayer[p][[2]string{x.Game, x.Card}] = &x
	}
	var next time.Time
	for _, d := range s.Due {
		if next.IsZero() || d.At.Before(next) {
			next = d.At
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.matches.byID, c.byPlayer, c.pos = matches, byPlayer, pos
	c.due, c.nextDue = s.Due, next
	return nil
}

// Format implements Stored.
func (c *Choices) Format() int { return ChoicesFormat }

// Save implements Stored.
func (c *Choices) Save() (int64, []byte, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s := StoredChoices{Matches: c.matches.save()}
	for _, p := range slices.Sorted(maps.Keys(c.byPlayer)) {
		for _, r := range c.of(p, "") {
			s.Players, s.Last = append(s.Players, p), append(s.Last, r)
		}
	}
	data, err := encode(&s)
	return c.pos, data, err
}

// Restore implements Stored.
func (c *Choices) Restore(_ context.Context, _ eventstore.Store, pos int64, data []byte) error {
	var s StoredChoices
	if err := decode(data, &s); err != nil {
		return err
	}
	matches, err := c.matches.restore(s.Matches)
	if err != nil {
		return err
	}
	if len(s.Players) != len(s.Last) {
		return fmt.Errorf("projections: stored choices name %d players for %d choices", len(s.Players), len(s.Last))
	}
	byPlayer := map[string]map[[2]string]*Remembered{}
	for i, r := range s.Last {
		p := s.Players[i]
		if byPlayer[p] == nil {
			byPlayer[p] = map[[2]string]*Remembered{}
		}
		byPlayer[p][[2]string{r.Game, r.Key}] = &r
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.matches.byID, c.byPlayer, c.pos = matches, byPlayer, pos
	return nil
}
