package projections

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/economy/facts"
	"github.com/arbiter-games/arbiter/domain/economy/progress"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Economy is what the economy reads from finished matches, per player (docs/economy.md):
// what the matches of the last two days count toward their days' challenges, Solwaris's
// experience, the abandonments of duels against players (the cooldowns) and the
// Cristal légendaire draws. Each match is tallied as its events come (package facts)
// and read once it is over, at its SeedRevealed, the seed being the loot's draw.
//
// What a finished match is owed is derived here (Pending) and done by the settlement
// process: a Cristal légendaire's draw, recorded as LootDrawn on the player's loot
// stream, and a daily challenge the match completed, paid as a CoinsGranted on its
// wallet. Each comes back through the feed and leaves the pending ones; the read model
// shows what was recorded (the crystals won), not the derivation.
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
	pending map[string]Due // Due.ID -> what a finished match is owed and was not done yet
}

// Due is what a finished match is owed, for the settlement process to do once: either a
// draw of loot to record on Player's loot stream, or a daily challenge of Day that the
// match completed, to pay on Player's wallet.
type Due struct {
	Player string
	// ID names what is due: the draw's event ID (progress.LootEventID), or the
	// challenge's grant key (daily.ChallengeKey), which the wallet's event ID derives from.
	ID        string
	Loot      *progress.LootDrawn
	Day       string
	Challenge *daily.Challenge
}

type playerEconomy struct {
	days      map[string]*dayTally // by UTC day (daily.Day), the days within Keep of the player's last match
	xp        int
	abandoned []time.Time // abandonments that cost time, within Keep of the last one
	loot      []Loot
	drawn     map[string]bool // loot event IDs recorded
	paid      map[string]bool // challenges paid, by grant key, of about the last two days
}

// dayTally is what a player's matches that ended on one day count toward its challenges
// of that day: all a challenge reads of them (daily.Challenge.Progress), so that a
// finished match leaves nothing behind in the economy but a few counters of its day.
type dayTally struct {
	matches  int
	progress [daily.PerDay]int // by the day's challenges (daily.Pick), not capped at their goals
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
	return &Economy{games: reg, ratings: NewRatings(reg), live: map[string]*facts.Tally{}, players: map[string]*playerEconomy{}, pending: map[string]Due{}}
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
	if player, ok := strings.CutPrefix(ev.Stream, "wallet-"); ok {
		if ev.Type == (wallet.CoinsGranted{}).EventType() {
			e.granted(player, ev)
		}
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
		p := e.player(s.Player)
		p.count(s.Player, m)
		p.xp += progress.XP(m, seat)
		e.challengesDone(s.Player, p, m)
		if progress.CountsAsAbandonment(m, seat) {
			p.abandoned = append(slices.DeleteFunc(p.abandoned, func(t time.Time) bool { return t.Before(m.Ended.Add(-Keep)) }), m.Ended)
		}
		if s.Class == "" {
			continue
		}
		rating := e.ratings.Under(s.Player, m.Game, progress.RatingKey(s.Class))
		if l, ok := progress.DrawLoot(m, seat, rating); ok {
			id := progress.LootEventID(m.ID, seat)
			if !p.drawn[id] {
				d := progress.Record(m, seat, rating, l)
				e.pending[id] = Due{Player: s.Player, ID: id, Loot: &d}
			}
		}
	}
}

// player is the economy of a player, made on first use.
func (e *Economy) player(id string) *playerEconomy {
	p := e.players[id]
	if p == nil {
		p = &playerEconomy{days: map[string]*dayTally{}, drawn: map[string]bool{}, paid: map[string]bool{}}
		e.players[id] = p
	}
	return p
}

// count adds m, a match player finished, to its day's tally, and forgets the days that
// ended more than Keep before it. A challenge's progress is counted as
// daily.Challenge.Progress counts it over the day's matches.
func (p *playerEconomy) count(player string, m facts.Match) {
	oldest := daily.Day(m.Ended.Add(-Keep))
	maps.DeleteFunc(p.days, func(day string, _ *dayTally) bool { return day < oldest })
	day := daily.Day(m.Ended)
	t := p.days[day]
	if t == nil {
		t = &dayTally{}
		p.days[day] = t
	}
	t.matches++
	for k, c := range daily.Pick(day, player) {
		for seat, s := range m.Seats {
			if s.Player == player && c.Counts(m, seat) {
				t.progress[k] += s.Counts[c.Counter]
			}
		}
	}
}

// progress is how far the player is in each of its challenges of day, capped at their
// goals.
func (p *playerEconomy) progress(player, day string) []int {
	out := make([]int, 0, daily.PerDay)
	t := p.days[day]
	for k, c := range daily.Pick(day, player) {
		n := 0
		if t != nil {
			n = t.progress[k]
		}
		out = append(out, min(n, c.Goal))
	}
	return out
}

// challengesDone makes due the player's challenges of the day m ended that its matches
// of that day, m the last, complete and that were not paid: a challenge is paid by the
// settlement process at the end of the match that completes it, without the player
// having to read it.
func (e *Economy) challengesDone(player string, p *playerEconomy, m facts.Match) {
	day := daily.Day(m.Ended)
	done := p.progress(player, day)
	for k, c := range daily.Pick(day, player) {
		key := daily.ChallengeKey(day, c.ID)
		if c.Game != m.Game || p.paid[key] || done[k] < c.Goal {
			continue
		}
		e.pending[player+"\x00"+key] = Due{Player: player, ID: key, Day: day, Challenge: &c}
	}
}

// granted reads a grant on a player's wallet: a challenge's payment leaves the pending
// ones. The challenges paid are kept for two days before the grant's own: a match is
// read within Keep of its end, and only its own day's challenges are due.
func (e *Economy) granted(player string, ev eventstore.Event) {
	d, err := wallet.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
	g, ok := d.(wallet.CoinsGranted)
	if err != nil || !ok || g.Reason != daily.ReasonChallenge {
		return
	}
	day, id, _ := strings.Cut(g.Ref, ":")
	key := daily.ChallengeKey(day, id)
	delete(e.pending, player+"\x00"+key)
	p := e.player(player)
	if t, err := time.Parse(time.DateOnly, day); err == nil {
		oldest := daily.Day(t.Add(-Keep))
		maps.DeleteFunc(p.paid, func(k string, _ bool) bool {
			d, _, _ := strings.Cut(strings.TrimPrefix(k, "challenge:"), ":")
			return d < oldest
		})
	}
	p.paid[key] = true
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
	p := e.player(player)
	p.drawn[id] = true // recorded before its match was read: a store copied out of order
	if l.Won {
		p.loot = append(p.loot, Loot{Match: l.Match, Item: l.Item, Chance: l.Chance, Roll: l.Roll, At: ev.Time})
	}
}

// Pending returns what finished matches are owed and was not done yet (the draws not
// recorded, the challenges not paid), in the order of their players and IDs.
func (e *Economy) Pending() []Due {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.pendingLocked()
}

func (e *Economy) pendingLocked() []Due {
	return slices.SortedFunc(maps.Values(e.pending), func(a, b Due) int { return cmp.Or(cmp.Compare(a.Player, b.Player), cmp.Compare(a.ID, b.ID)) })
}

// PlayerEconomy is what the economy knows of one player.
type PlayerEconomy struct {
	Days      map[string]int // the matches finished on each of about the last two days (UTC, daily.Day)
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
	days := make(map[string]int, len(p.days))
	for d, t := range p.days {
		days[d] = t.matches
	}
	return PlayerEconomy{Days: days, XP: p.xp, Abandoned: slices.Clone(p.abandoned), Loot: slices.Clone(p.loot)}
}

// Challenges is how far a player is in each of its challenges of day (daily.Pick), in
// their order, capped at their goals: what the matches it finished that day count.
func (e *Economy) Challenges(player, day string) []int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	p := e.players[player]
	if p == nil {
		p = &playerEconomy{}
	}
	return p.progress(player, day)
}

// RatingsModel is the economy's fold of the ratings, fed by its Apply: a node serves its
// ratings from it rather than fold them a second time (cmd/arbiter).
func (e *Economy) RatingsModel() *Ratings { return e.ratings }

// Ratings returns a player's ratings as the economy folded them.
func (e *Economy) Ratings(player string) []Rating { return e.ratings.Of(player) }

// Digest implements Projection.
//
// It is one line, as every model's: the players' count, the checkpoint and a hash of the
// model's whole content (contents), then the ratings' own line; `arbiter rebuild` prints
// it for each model, and a store's economy runs to a line per player.
func (e *Economy) Digest() string {
	text := e.contents()
	e.mu.RLock()
	players, pos := len(e.players), e.pos
	e.mu.RUnlock()
	sum := sha256.Sum256([]byte(text))
	return fmt.Sprintf("%d players, checkpoint %d, sha256 %s; ratings %s", players, pos, hex.EncodeToString(sum[:])[:16], e.ratings.Digest())
}

// contents is the economy's whole content as text, a line per player and per due, that
// Digest hashes (and that a failing test prints).
func (e *Economy) contents() string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var b strings.Builder
	for _, id := range slices.Sorted(maps.Keys(e.players)) {
		p := e.players[id]
		fmt.Fprintf(&b, "%s xp=%d", id, p.xp)
		for _, d := range slices.Sorted(maps.Keys(p.days)) {
			fmt.Fprintf(&b, " %s=%d%v", d, p.days[d].matches, p.days[d].progress)
		}
		fmt.Fprintf(&b, " abandoned=%v loot=%v\n", p.abandoned, p.loot)
	}
	for _, d := range e.pendingLocked() {
		fmt.Fprintf(&b, "pending %s %s", d.ID, d.Player)
		if d.Loot != nil {
			fmt.Fprintf(&b, " %+v", *d.Loot)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
