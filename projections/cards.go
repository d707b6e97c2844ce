package projections

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"sort"

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
// its cards at its end: everyone reads a player's cards (Player.cardsPlayed, badges), and
// a count that moved at once would show a spectator the card just played, which the
// delay holds back from it for minutes.
type CardsPlayed struct {
	checkpoint
	matches  seatedMatches
	byPlayer map[string]map[[2]string]*CardCount // player -> (game, card) -> count
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

// Name implements Projection.
func (c *CardsPlayed) Name() string { return "cards-played" }

// Apply implements Projection.
func (c *CardsPlayed) Apply(ev eventstore.Event) error {
	defer c.mu.Unlock()
	if !c.admit(ev) {
		return nil
	}
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
	if m.delayed {
		m.held = append(m.held, HeldCard{Player: player, Card: card})
		return nil
	}
	c.count(player, m.rules.Info().ID, card)
	return nil
}

// release counts the cards held for a delayed match, as it ends.
func (c *CardsPlayed) release(m *seatedMatch) {
	for _, h := range m.held {
		c.count(h.Player, m.rules.Info().ID, h.Card)
	}
	m.held = nil
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

// Of returns what a player has played, sorted by game and card.
func (c *CardsPlayed) Of(player string) []CardCount {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.of(player)
}

func (c *CardsPlayed) of(player string) []CardCount {
	out := make([]CardCount, 0, len(c.byPlayer[player]))
	for _, x := range c.byPlayer[player] {
		out = append(out, *x)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Game != out[j].Game {
			return out[i].Game < out[j].Game
		}
		return out[i].Card < out[j].Card
	})
	return out
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
	return fmt.Sprintf("%d players, checkpoint %d, sha256 %s", len(players), c.pos, hex.EncodeToString(h.Sum(nil))[:16])
}
