package projections

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/rating"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Rating is one player's Elo in one game.
type Rating struct {
	Game                string
	Rating              float64
	Games, Wins, Losses int
	Draws               int
}

// Ratings is every player's Elo per game, from the results of rated matches (two seats,
// or more: each seat against every seat of another team, see rating.UpdateMany).
// Friendly matches never count.
type Ratings struct {
	checkpoint
	pending  map[string]*ratedMatch        // match ID -> what its result needs
	byPlayer map[string]map[string]*Rating // player -> game -> rating
}

type ratedMatch struct {
	game    string
	players []string // by seat
	teams   []int    // by seat
}

// NewRatings returns an empty model.
func NewRatings() *Ratings {
	return &Ratings{pending: map[string]*ratedMatch{}, byPlayer: map[string]map[string]*Rating{}}
}

// Name implements Projection.
func (r *Ratings) Name() string { return "ratings" }

// Apply implements Projection.
func (r *Ratings) Apply(ev eventstore.Event) error {
	defer r.mu.Unlock()
	if !r.admit(ev) {
		return nil
	}
	id, ok := strings.CutPrefix(ev.Stream, "match-")
	if !ok || !match.IsLifecycle(ev.Type) {
		return nil
	}
	d, err := match.Decode(nil, ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		// A match whose events do not replay is set aside (see Matches): it is not rated.
		delete(r.pending, id)
		return nil
	}
	switch e := d.(type) {
	case match.MatchCreated:
		if e.Rated && e.Seats >= 2 && len(e.Teams) == e.Seats {
			r.pending[id] = &ratedMatch{game: e.Game, players: make([]string, e.Seats), teams: e.Teams}
		}
	case match.SeatTaken:
		if m := r.pending[id]; m != nil && e.Seat >= 0 && e.Seat < len(m.players) {
			m.players[e.Seat] = e.PlayerID
		}
	case match.MatchEnded:
		m := r.pending[id]
		if m == nil {
			return nil
		}
		delete(r.pending, id)
		if match.Void(e.Reason) {
			return nil // aborted or cancelled: counts for nobody
		}
		result := make([]float64, len(m.players)) // 1 won, 0 lost, 0.5 drew
		for i := range result {
			switch {
			case len(e.Winners) == 0:
				result[i] = 0.5
			case slices.Contains(e.Winners, i):
				result[i] = 1
			}
		}
		before := make([]rating.Player, len(m.players))
		rows := make([]*Rating, len(m.players))
		for i, p := range m.players {
			rows[i] = r.get(p, m.game)
			before[i] = rating.Player{Rating: rows[i].Rating, Games: rows[i].Games}
		}
		after := rating.UpdateMany(before, m.teams, result)
		for i, x := range rows {
			x.Rating = after[i]
			x.Games++
			switch result[i] {
			case 1:
				x.Wins++
			case 0:
				x.Losses++
			default:
				x.Draws++
			}
		}
	}
	return nil
}

func (r *Ratings) get(player, game string) *Rating {
	g := r.byPlayer[player]
	if g == nil {
		g = map[string]*Rating{}
		r.byPlayer[player] = g
	}
	x := g[game]
	if x == nil {
		x = &Rating{Game: game, Rating: rating.Initial}
		g[game] = x
	}
	return x
}

// Of returns a player's ratings, one per game played rated, sorted by game.
func (r *Ratings) Of(player string) []Rating {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Rating, 0, len(r.byPlayer[player]))
	for _, x := range r.byPlayer[player] {
		out = append(out, *x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Game < out[j].Game })
	return out
}

// Digest implements Projection.
func (r *Ratings) Digest() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	players := make([]string, 0, len(r.byPlayer))
	for p := range r.byPlayer {
		players = append(players, p)
	}
	sort.Strings(players)
	h := sha256.New()
	for _, p := range players {
		games := make([]string, 0, len(r.byPlayer[p]))
		for g := range r.byPlayer[p] {
			games = append(games, g)
		}
		sort.Strings(games)
		for _, g := range games {
			x := r.byPlayer[p][g]
			fmt.Fprintf(h, "%s %s %.6f %d %d %d %d\n", p, g, x.Rating, x.Games, x.Wins, x.Losses, x.Draws)
		}
	}
	return fmt.Sprintf("%d players, checkpoint %d, sha256 %s", len(players), r.pos, hex.EncodeToString(h.Sum(nil))[:16])
}
