package projections

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Remembered is a player's last choice under one key of one game.
type Remembered struct {
	Game   string
	Key    string
	Values []string
}

// Choices keeps each player's last choice per game and key (Solwaris's grimoire per
// class), from the public events a game says fix a choice (game.Remembering): what the
// player's next match starts from. Only public events count, so this model never holds a
// secret; "last" is by the store's order, so a rebuild gives what the live feed gave.
type Choices struct {
	checkpoint
	matches  seatedMatches
	byPlayer map[string]map[[2]string]*Remembered // player -> (game, key) -> last choice
}

// NewChoices returns an empty model for the games of reg.
func NewChoices(reg *game.Registry) *Choices {
	remembering := func(r game.Rules) bool { _, ok := r.(game.Remembering); return ok }
	return &Choices{matches: newSeatedMatches(reg, remembering), byPlayer: map[string]map[[2]string]*Remembered{}}
}

// Name implements Projection.
func (c *Choices) Name() string { return "choices" }

// Apply implements Projection.
func (c *Choices) Apply(ev eventstore.Event) error {
	defer c.mu.Unlock()
	if !c.admit(ev) {
		return nil
	}
	m, d := c.matches.public(ev)
	if m == nil {
		return nil
	}
	for _, ch := range m.rules.(game.Remembering).Remembered(d) {
		player := m.player(ch.Seat)
		if player == "" {
			continue
		}
		g := c.byPlayer[player]
		if g == nil {
			g = map[[2]string]*Remembered{}
			c.byPlayer[player] = g
		}
		key := [2]string{m.rules.Info().ID, ch.Key}
		g[key] = &Remembered{Game: key[0], Key: ch.Key, Values: slices.Clone(ch.Values)}
	}
	return nil
}

// Last returns a player's last choice under key in game, and whether there is one.
func (c *Choices) Last(player, gameID, key string) ([]string, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r := c.byPlayer[player][[2]string{gameID, key}]
	if r == nil {
		return nil, false
	}
	return slices.Clone(r.Values), true
}

// Of returns a player's last choices in game, sorted by key.
func (c *Choices) Of(player, gameID string) []Remembered {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.of(player, gameID)
}

// of returns a player's last choices in gameID (every game for ""), by game and key.
func (c *Choices) of(player, gameID string) []Remembered {
	out := []Remembered{}
	for k, r := range c.byPlayer[player] {
		if gameID == "" || k[0] == gameID {
			out = append(out, Remembered{Game: r.Game, Key: r.Key, Values: slices.Clone(r.Values)})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Game != out[j].Game {
			return out[i].Game < out[j].Game
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// Digest implements Projection.
func (c *Choices) Digest() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	players := slices.Sorted(maps.Keys(c.byPlayer))
	h := sha256.New()
	for _, p := range players {
		for _, r := range c.of(p, "") {
			fmt.Fprintf(h, "%s %s %s %q\n", p, r.Game, r.Key, r.Values)
		}
	}
	return fmt.Sprintf("%d players, checkpoint %d, sha256 %s", len(players), c.pos, hex.EncodeToString(h.Sum(nil))[:16])
}
