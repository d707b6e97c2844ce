package projections

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/rating"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Rating is one player's Elo in one game, under one key: the game's ID, or one of the keys
// the game names for a seat's result (game.RatingKeyed: Solwaris rates per class).
type Rating struct {
	Game                string
	Key                 string
	Rating              float64
	Games, Wins, Losses int
	Draws               int
}

// Ratings is every player's Elo per game, from the results of rated matches (two seats,
// or more: each seat against every seat of another team, see rating.UpdateMany), kept
// under the game's ID or under the keys the game names (game.RatingKeys). Friendly
// matches never count.
type Ratings struct {
	checkpoint
	games    *game.Registry
	pending  map[string]*ratedMatch        // match ID -> what its result needs
	rated    map[string]packedResult       // match ID -> what its result moved, for a ruling (ratings_rulings.go)
	kept     recordQueue                   // the matches of rated, oldest first, for ArchiveRecords (ratings_recall.go)
	names    interned                      // the game, player and key IDs of rated
	byPlayer map[string]map[string]*Rating // player -> key -> rating
	boards   map[string]*board             // key -> its rows in the leaderboard's order (leaderboard.go)
	// changed gathers the players whose ratings changed, for a writer that copies them
	// elsewhere (TrackChanges); nil otherwise, so that a node's own model keeps nothing.
	changed map[string]bool
}

type ratedMatch struct {
	game    string
	players []string // by seat
	teams   []int    // by seat
	// keyed is the game when it reads its state at the end (game.RatingKeyed, its keys;
	// game.Rewarding, whether an abandonment came too early): only then is the game's state
	// folded, into state.
	keyed    game.Rules
	state    game.State
	resigned []int // the seats that resigned or forfeited
	rules    game.Rules
}

// NewRatings returns an empty model for the games of reg. A game that reg does not hold
// is rated under its ID.
func NewRatings(reg *game.Registry) *Ratings {
	return &Ratings{games: reg, pending: map[string]*ratedMatch{}, rated: map[string]packedResult{}, byPlayer: map[string]map[string]*Rating{}}
}

// Name implements Projection.
func (r *Ratings) Name() string { return "ratings" }

// Apply implements Projection.
func (r *Ratings) Apply(ev eventstore.Event) error {
	defer r.mu.Unlock()
	if !r.admit(ev) {
		return nil
	}
	r.expire(ev.Time)
	if strings.HasPrefix(ev.Stream, "dispute-") {
		return r.ruled(ev)
	}
	id, ok := strings.CutPrefix(ev.Stream, "match-")
	if !ok {
		return nil
	}
	if !match.IsLifecycle(ev.Type) {
		return r.fold(id, ev)
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
			m := &ratedMatch{game: e.Game, players: make([]string, e.Seats), teams: e.Teams}
			m.keyed = r.keyed(e.Game)
			m.rules = r.rulesOf(e.Game)
			r.pending[id] = m
		}
	case match.SeatTaken:
		if m := r.pending[id]; m != nil && e.Bot {
			delete(r.pending, id) // a bot game never counts for ratings
		} else if m != nil && e.Seat >= 0 && e.Seat < len(m.players) {
			m.players[e.Seat] = e.PlayerID
		}
	case match.Resigned:
		if m := r.pending[id]; m != nil {
			m.resigned = append(m.resigned, e.Seat)
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
		keys := m.keys()
		// Abandoned too early to count (game.Rewarding): the seats that left lose as
		// usual, the others' ratings do not move.
		only := func(int) bool { return true }
		if m.rules != nil && game.AbandonedEarly(m.rules, m.state, len(m.resigned)) {
			only = func(seat int) bool { return slices.Contains(m.resigned, seat) }
		}
		done := &ratedResult{game: m.game, players: m.players, teams: m.teams}
		if m.keyed != nil {
			done.keys = keys
		}
		for k := range keys[0] { // every seat has as many keys: rated key by key
			done.before = append(done.before, r.rate(m, result, k, func(seat int) string { return keys[seat][k] }, only, &done.moved))
		}
		r.keep(id, r.pack(done), ev.Time) // m, with the game's state, is needed no more: what a ruling needs is in done
	}
	return nil
}

// keyed is the game of ID id when it reads its state at the end of a match (its rating
// keys, or whether an abandonment came too early), else nil.
func (r *Ratings) keyed(id string) game.Rules {
	rules := r.rulesOf(id)
	_, named := rules.(game.RatingKeyed)
	_, rewarding := rules.(game.Rewarding)
	if !named && !rewarding {
		return nil
	}
	return rules
}

// rulesOf is the game of ID id, or nil when r's registry does not hold it.
func (r *Ratings) rulesOf(id string) game.Rules {
	if r.games == nil {
		return nil
	}
	rules, err := r.games.Get(id)
	if err != nil {
		return nil
	}
	return rules
}

// fold evolves the game state of a rated match whose game names its rating keys; other
// matches need no game state.
func (r *Ratings) fold(id string, ev eventstore.Event) error {
	m := r.pending[id]
	if m == nil || m.keyed == nil {
		return nil
	}
	d, err := match.Decode(m.keyed, ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		delete(r.pending, id) // set aside, as a match whose lifecycle does not decode
		return nil
	}
	m.state = m.keyed.Evolve(m.state, d)
	return nil
}

// keys are the rating keys of each seat of the ended match m (game.RatingKeys).
func (m *ratedMatch) keys() [][]string {
	if m.keyed != nil {
		return game.RatingKeys(m.keyed, m.state, len(m.players))
	}
	out := make([][]string, len(m.players))
	for seat := range out {
		out[seat] = []string{m.game}
	}
	return out
}

// rate counts result, by seat, for the players of m, each under its k-th key, which keyOf
// gives, for the seats that only admits. It returns the ratings before, by seat, and adds
// to moved what it changed.
func (r *Ratings) rate(m *ratedMatch, result []float64, k int, keyOf func(seat int) string, only func(seat int) bool, moved *[]movedRating) []rating.Player {
	before := make([]rating.Player, len(m.players))
	rows := make([]*Rating, len(m.players))
	for i, p := range m.players {
		if only(i) {
			if r.changed != nil {
				r.changed[p] = true
			}
			rows[i] = r.get(p, m.game, keyOf(i), m.rules)
		} else { // read, not kept: a seat whose rating does not move gets no row from it
			rows[i] = r.peek(p, m.game, keyOf(i), m.rules)
		}
		before[i] = rating.Player{Rating: rows[i].Rating, Games: rows[i].Games}
	}
	after := rating.UpdateMany(before, m.teams, result)
	for i, x := range rows {
		if !only(i) {
			continue
		}
		mv := movedRating{seat: int32(i), key: int32(k), by: after[i] - x.Rating, result: result[i]}
		was := x.Rating
		mv.apply(x, 1)
		r.moved(m.players[i], x, was)
		*moved = append(*moved, mv)
	}
	return before
}

// peek is a player's rating under key as it stands, a copy, without keeping a new one.
func (r *Ratings) peek(player, gameID, key string, rules game.Rules) *Rating {
	if x := r.byPlayer[player][key]; x != nil {
		c := *x
		return &c
	}
	return newRating(gameID, key, rules)
}

// newRating is a rating not played yet: at the game's start (game.RatingStarting) or Elo's.
func newRating(gameID, key string, rules game.Rules) *Rating {
	x := &Rating{Game: gameID, Key: key, Rating: rating.Initial}
	if s, ok := rules.(game.RatingStarting); ok {
		x.Rating = s.InitialRating(key)
	}
	return x
}

func (r *Ratings) get(player, gameID, key string, rules game.Rules) *Rating {
	g := r.byPlayer[player]
	if g == nil {
		g = map[string]*Rating{}
		r.byPlayer[player] = g
	}
	x := g[key]
	if x == nil {
		x = newRating(gameID, key, rules)
		g[key] = x
		r.list(player, x)
	}
	return x
}

// TrackChanges makes the model remember which players' ratings change, for
// TakeChanged.
func (r *Ratings) TrackChanges() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changed = map[string]bool{}
}

// TakeChanged returns, sorted, the players whose ratings changed since the last call (or
// since TrackChanges), and forgets them.
func (r *Ratings) TakeChanged() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.changed))
	for p := range r.changed {
		out = append(out, p)
	}
	clear(r.changed)
	sort.Strings(out)
	return out
}

// Under is a player's rating under key as it stands, or the game's starting rating for a
// key it has not played rated: what the economy reads for a league (the loot's chance).
func (r *Ratings) Under(player, gameID, key string) float64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.peek(player, gameID, key, r.rulesOf(gameID)).Rating
}

// Of returns a player's ratings, one per key played rated (by default one per game),
// sorted by key.
func (r *Ratings) Of(player string) []Rating {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Rating, 0, len(r.byPlayer[player]))
	for _, x := range r.byPlayer[player] {
		out = append(out, *x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Standing is one player's rating under a key: a row of a leaderboard.
type Standing struct {
	Player string
	Rating
}

// Leaderboard returns the best n ratings under key (a game's ID, or a key the game names),
// highest first, ties by player ID: the order of singlewriter.Leaderboard's table. It
// reads the first n rows of the key's index (leaderboard.go).
func (r *Ratings) Leaderboard(key string, n int) []Standing {
	return r.LeaderboardAfter(key, nil, n)
}

// Place is a place in a leaderboard's order: a rating, then a player ID among equal
// ratings. A page of the leaderboard starts after the place of the last row of the page
// before, where that row was then, whatever its rating is now.
type Place struct {
	Rating float64
	Player string
}

// LeaderboardAfter returns the n ratings under key that come after the place after in
// the leaderboard's order (from the first when after is nil), as Leaderboard lists them:
// a binary search and the page.
func (r *Ratings) LeaderboardAfter(key string, after *Place, n int) []Standing {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var rows board
	if b := r.boards[key]; b != nil {
		rows = *b
	}
	if after != nil {
		i, found := rows.find(place{after.Rating, after.Player})
		if found {
			i++
		}
		rows = rows[i:]
	}
	rows = rows[:min(n, len(rows))]
	out := make([]Standing, 0, len(rows))
	for _, p := range rows {
		out = append(out, Standing{Player: p.player, Rating: *r.byPlayer[p.player][key]})
	}
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
