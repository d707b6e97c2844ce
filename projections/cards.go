package projections

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/eventstore"
)

// CardCount is how many times a player has played one card of one game.
type CardCount struct {
	Game  string
	Card  string
	Count int
}

// CardsPlayed counts the cards each player has played, per game, from the public events
// that record a card played (cards.CardPlay): what badges are earned from. Only public
// events count, so this model never holds a secret. A match with a spectator delay counts
// its cards once its end is as old as its delay, when its spectators see it end: everyone
// reads a player's cards (Player.cardsPlayed, badges), and a count that moved at once
// would show a spectator the card just played, one that moved at the end would show it
// that the match ended, each minutes before the delayed match shows it.
type CardsPlayed struct {
	checkpoint
	matches  seatedMatches
	byPlayer map[string]map[[2]string]*CardCount // player -> (game, card) -> count
	// due are the cards of delayed matches that have ended, in the order they ended, each
	// counted from its At on: Of adds those due by the time it is asked, and an event of a
	// later time folds them into byPlayer, so the counts kept depend on the events alone.
	due     []DueCard
	nextDue time.Time // the earliest At of due; zero when due is empty
}

// NewCardsPlayed returns an empty model for the games of reg.
func NewCardsPlayed(reg *game.Registry) *CardsPlayed {
	carded := func(r game.Rules) bool { _, ok := r.(cards.Carded); return ok }
	c := &CardsPlayed{matches: newSeatedMatches(reg, carded), byPlayer: map[string]map[[2]string]*CardCount{}}
	c.matches.ended = c.release
	return c
}

// HeldCard is a card played in a match with a spectator delay, not counted before its end.
type HeldCard struct {
	Player string
	Card   string
}

// DueCard is a card of a delayed match that has ended, counted from At on: the match's end
// plus its spectator delay.
type DueCard struct {
	Player, Game, Card string
	At                 time.Time
}

// Name implements Projection.
func (c *CardsPlayed) Name() string { return "cards-played" }

// Apply implements Projection.
func (c *CardsPlayed) Apply(ev eventstore.Event) error {
	defer c.mu.Unlock()
	if !c.admit(ev) {
		return nil
	}
	c.fold(ev.Time)
	m, d := c.matches.public(ev)
	played, ok := d.(cards.CardPlay)
	if !ok {
		return nil
	}
	seat, card := played.CardPlayedBy()
	player := m.player(seat)
	if player == "" {
		return nil
	}
	if m.delay > 0 {
		m.held = append(m.held, HeldCard{Player: player, Card: card})
		return nil
	}
	c.count(player, m.rules.Info().ID, card)
	return nil
}

// release makes the cards held for a delayed match due once its end, at, is as old as its
// delay: the delayed view shows the end then (graph's heldBack), and not sooner.
func (c *CardsPlayed) release(m *seatedMatch, at time.Time) {
	due := at.Add(m.delay)
	for _, h := range m.held {
		c.due = append(c.due, DueCard{Player: h.Player, Game: m.rules.Info().ID, Card: h.Card, At: due})
	}
	if len(m.held) > 0 && (c.nextDue.IsZero() || due.Before(c.nextDue)) {
		c.nextDue = due
	}
	m.held = nil
}

// fold counts the due cards whose time has come by now, the time of an event applied.
func (c *CardsPlayed) fold(now time.Time) {
	if c.nextDue.IsZero() || now.Before(c.nextDue) {
		return
	}
	kept, next := c.due[:0], time.Time{}
	for _, d := range c.due {
		if now.Before(d.At) {
			kept = append(kept, d)
			if next.IsZero() || d.At.Before(next) {
				next = d.At
			}
			continue
		}
		c.count(d.Player, d.Game, d.Card)
	}
	clear(c.due[len(kept):])
	c.due, c.nextDue = kept, next
}

// count adds a card to a player's counts.
func (c *CardsPlayed) count(player, gameID, card string) {
	g := c.byPlayer[player]
	if g == nil {
		g = map[[2]string]*CardCount{}
		c.byPlayer[player] = g
	}
	key := [2]string{gameID, card}
	if g[key] == nil {
		g[key] = &CardCount{Game: key[0], Card: card}
	}
	g[key].Count++
}

// Of returns what a player has played as of now, sorted by game and card: the cards of a
// delayed match count once its end is as old as its delay.
func (c *CardsPlayed) Of(player string, now time.Time) []CardCount {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := c.of(player)
	for _, d := range c.due {
		if d.Player != player || now.Before(d.At) {
			continue
		}
		i := slices.IndexFunc(out, func(x CardCount) bool { return x.Game == d.Game && x.Card == d.Card })
		if i < 0 {
			i, out = len(out), append(out, CardCount{Game: d.Game, Card: d.Card})
		}
		out[i].Count++
	}
	sortCounts(out)
	return out
}

// of is what a player's counts hold, its due cards left out.
func (c *CardsPlayed) of(player string) []CardCount {
	out := make([]CardCount, 0, len(c.byPlayer[player]))
	for _, x := range c.byPlayer[player] {
		out = append(out, *x)
	}
	sortCounts(out)
	return out
}

// sortCounts sorts counts by game and card.
func sortCounts(out []CardCount) {
	sort.Slice(out, func(i, j int) bool {
		if out[i].Game != out[j].Game {
			return out[i].Game < out[j].Game
		}
		return out[i].Card < out[j].Card
	})
}

// Digest implements Projection.
func (c *CardsPlayed) Digest() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	players := slices.Sorted(maps.Keys(c.byPlayer))
	h := sha256.New()
	for _, p := range players {
		for _, x := range c.of(p) {
			fmt.Fprintf(h, "%s %s %s %d\n", p, x.Game, x.Card, x.Count)
		}
	}
	for _, d := range c.due {
		fmt.Fprintf(h, "due %s %s %s %s\n", d.Player, d.Game, d.Card, d.At.UTC().Format(time.RFC3339Nano))
	}
	return fmt.Sprintf("%d players, checkpoint %d, sha256 %s", len(players), c.pos, hex.EncodeToString(h.Sum(nil))[:16])
}
