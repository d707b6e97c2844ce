package projections

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
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
// events count, so this model never holds a secret.
type CardsPlayed struct {
	checkpoint
	games    *game.Registry
	matches  map[string]*cardMatch               // match ID -> its game and players
	byPlayer map[string]map[[2]string]*CardCount // player -> (game, card) -> count
}

type cardMatch struct {
	rules   game.Rules
	players []string // by seat
}

// NewCardsPlayed returns an empty model for the games of reg.
func NewCardsPlayed(reg *game.Registry) *CardsPlayed {
	return &CardsPlayed{games: reg, matches: map[string]*cardMatch{}, byPlayer: map[string]map[[2]string]*CardCount{}}
}

// Name implements Projection.
func (c *CardsPlayed) Name() string { return "cards-played" }

// Apply implements Projection.
func (c *CardsPlayed) Apply(ev eventstore.Event) error {
	defer c.mu.Unlock()
	if !c.admit(ev) {
		return nil
	}
	id, ok := strings.CutPrefix(ev.Stream, "match-")
	if !ok {
		return nil
	}
	if match.IsLifecycle(ev.Type) {
		return c.lifecycle(id, ev)
	}
	m := c.matches[id]
	if m == nil || ev.Visibility != visibility.Public {
		return nil
	}
	d, err := match.Decode(m.rules, ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		delete(c.matches, id) // a match whose events do not replay is set aside (see Matches)
		return nil
	}
	played, ok := d.(cards.CardPlay)
	if !ok {
		return nil
	}
	seat, card := played.CardPlayedBy()
	if seat < 0 || seat >= len(m.players) || m.players[seat] == "" {
		return nil
	}
	g := c.byPlayer[m.players[seat]]
	if g == nil {
		g = map[[2]string]*CardCount{}
		c.byPlayer[m.players[seat]] = g
	}
	key := [2]string{m.rules.Info().ID, card}
	if g[key] == nil {
		g[key] = &CardCount{Game: key[0], Card: card}
	}
	g[key].Count++
	return nil
}

func (c *CardsPlayed) lifecycle(id string, ev eventstore.Event) error {
	d, err := match.Decode(nil, ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		delete(c.matches, id) // a match whose events do not replay is set aside (see Matches)
		return nil
	}
	switch e := d.(type) {
	case match.MatchCreated:
		rules, err := c.games.Get(e.Game)
		if err != nil {
			return nil // a game this server does not host: nothing of it is counted
		}
		if _, carded := rules.(cards.Carded); carded {
			c.matches[id] = &cardMatch{rules: rules, players: make([]string, e.Seats)}
		}
	case match.SeatTaken:
		if m := c.matches[id]; m != nil && e.Seat >= 0 && e.Seat < len(m.players) {
			m.players[e.Seat] = e.PlayerID
		}
	case match.MatchEnded:
		delete(c.matches, id)
	}
	return nil
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
	players := make([]string, 0, len(c.byPlayer))
	for p := range c.byPlayer {
		players = append(players, p)
	}
	sort.Strings(players)
	h := sha256.New()
	for _, p := range players {
		for _, x := range c.of(p) {
			fmt.Fprintf(h, "%s %s %s %d\n", p, x.Game, x.Card, x.Count)
		}
	}
	return fmt.Sprintf("%d players, checkpoint %d, sha256 %s", len(players), c.pos, hex.EncodeToString(h.Sum(nil))[:16])
}
