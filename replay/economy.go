package replay

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/economy/facts"
	"github.com/arbiter-games/arbiter/domain/economy/hats"
	"github.com/arbiter-games/arbiter/domain/economy/progress"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/projections"
)

// The economy's part of the wallets' verification (docs/economy.md): each grant and
// spending of the economy is for what its ref names, at that thing's price, once; each
// hat worn was bought before, in the store's order (the engine reads the wallet before
// it appends to the profile); each draw of loot recorded is the one its match's revealed
// seed gives, at the chance of the league of the rating it records.

// economy is what verify learns of the economy as it reads the store in order.
type economy struct {
	refs     map[string]bool            // player, reason, ref: granted or spent once
	owned    map[string][]string        // player -> hats bought
	profiles map[string]hats.Profile    // player -> its profile as folded
	pool     map[string]daily.Challenge // challenge ID -> challenge
	draws    []lootDraw                 // the draws of loot recorded, checked once every match is read
	live     map[string]*facts.Tally    // matches under way, tallied as the store is read
	played   map[string][]facts.Match   // player -> the matches it finished, as far as read
	// ratings is verify's own fold of the ratings, fed every event in the store's order
	// as the economy model is; rated is, by loot event ID, the rounded rating of the
	// class played that it gives at the end of the duel: what a draw must record.
	ratings *projections.Ratings
	rated   map[string]int
}

func newEconomy(games *game.Registry) *economy {
	pool := map[string]daily.Challenge{}
	for _, c := range daily.Pool {
		pool[c.ID] = c
	}
	return &economy{refs: map[string]bool{}, owned: map[string][]string{}, profiles: map[string]hats.Profile{}, pool: pool,
		live: map[string]*facts.Tally{}, played: map[string][]facts.Match{}, ratings: projections.NewRatings(games), rated: map[string]int{}}
}

// walletEvent checks a wallet event of the economy's; it returns a problem or "".
func (x *economy) walletEvent(player string, e game.Event) string {
	var reason, ref string
	var amount, want int64
	switch e := e.(type) {
	case wallet.CoinsGranted:
		reason, ref, amount = e.Reason, e.Ref, e.Amount
		switch e.Reason {
		case daily.ReasonBonus:
			want = daily.Bonus
		case daily.ReasonChallenge:
			day, id, _ := strings.Cut(e.Ref, ":")
			c, ok := x.pool[id]
			if !ok {
				return fmt.Sprintf("a challenge's grant for %q, not in the pool", e.Ref)
			}
			want = c.Reward
			if e.Amount == want {
				if p := x.challengeDone(player, day, c); p != "" {
					return p
				}
			}
		default:
			return ""
		}
	case wallet.CoinsSpent:
		if e.Reason != hats.ReasonHat {
			return ""
		}
		reason, ref, amount = e.Reason, e.Ref, e.Amount
		h, ok := hats.ByID(e.Ref)
		if !ok {
			return fmt.Sprintf("a hat %q bought, not in the catalog", e.Ref)
		}
		want = h.Price
		x.owned[player] = append(x.owned[player], h.ID)
	default:
		return ""
	}
	key := player + "\x00" + reason + "\x00" + ref
	switch {
	case amount != want:
		return fmt.Sprintf("%s %q for %d coins, not %d", reason, ref, amount, want)
	case x.refs[key]:
		return fmt.Sprintf("%s %q a second time", reason, ref)
	}
	x.refs[key] = true
	return ""
}

// challengeDone checks that c is one of player's challenges of day and that the matches
// it finished before the grant, in the store's order, complete it (the settlement process
// pays a challenge from its economy model, which reads a match once its seed is revealed:
// before the grant).
func (x *economy) challengeDone(player, day string, c daily.Challenge) string {
	picked := false
	for _, p := range daily.Pick(day, player) {
		picked = picked || p.ID == c.ID
	}
	if !picked {
		return fmt.Sprintf("challenge %q paid, not one of %s's challenges of %s", c.ID, player, day)
	}
	if n := c.Progress(day, player, x.played[player]); n < c.Goal {
		return fmt.Sprintf("challenge %q of %s paid at %d of %d: the matches finished before it do not complete it", c.ID, day, n, c.Goal)
	}
	return ""
}

// matchEvent tallies an event of a match (package facts), as the economy model does, and
// keeps each finished match for its players once its seed is revealed.
func (x *economy) matchEvent(id string, ev eventstore.Event) {
	t := x.live[id]
	if ev.Type == (match.MatchCreated{}).EventType() && t == nil {
		t = facts.New(id)
		x.live[id] = t
	}
	if t == nil {
		return
	}
	d, err := t.AddStored(ev.Type, ev.SchemaVersion, ev.Payload, ev.Time)
	if err != nil {
		delete(x.live, id) // the match's own check names it
		return
	}
	if _, revealed := d.(match.SeedRevealed); revealed && t.Over() {
		delete(x.live, id)
		m := t.Match()
		for seat, s := range m.Seats {
			if s.Player != "" && !s.Bot { // a day's matches, with a day to spare: what a challenge reads
				x.played[s.Player] = append(slices.DeleteFunc(x.played[s.Player], func(p facts.Match) bool { return p.Ended.Before(m.Ended.Add(-48 * time.Hour)) }), m)
			}
			if progress.DrawsLoot(m, seat) && s.Class != "" {
				x.rated[progress.LootEventID(m.ID, seat)] = int(x.ratings.Under(s.Player, m.Game, progress.RatingKey(s.Class)) + 0.5)
			}
		}
	}
}

// profileEvent audits and folds an event of a player's profile stream.
func (x *economy) profileEvent(player string, ev eventstore.Event) string {
	d, err := hats.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		return fmt.Sprintf("%s version %d: %v", ev.Stream, ev.Version, err)
	}
	p := x.profiles[player]
	if err := hats.Audit(p, x.owned[player], d); err != nil {
		return fmt.Sprintf("%s version %d: %v", ev.Stream, ev.Version, err)
	}
	x.profiles[player] = hats.Evolve(p, d)
	return ""
}

// lootDraw is a draw of loot as recorded on a player's loot stream.
type lootDraw struct {
	player string
	ev     eventstore.Event
}

// lootEvent reads a loot stream's event; its draw is checked against its match at the end.
func (x *economy) lootEvent(player string, ev eventstore.Event) string {
	d, err := progress.LootEvents.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
	l, ok := d.(progress.LootDrawn)
	switch {
	case err != nil:
		return fmt.Sprintf("%s version %d: %v", ev.Stream, ev.Version, err)
	case !ok:
		return fmt.Sprintf("%s version %d: %s is no loot event", ev.Stream, ev.Version, ev.Type)
	case ev.ID != progress.LootEventID(l.Match, l.Seat):
		return fmt.Sprintf("%s version %d: a draw stored as %q, not as its match and seat name it", ev.Stream, ev.Version, ev.ID)
	}
	x.draws = append(x.draws, lootDraw{player: player, ev: ev})
	return ""
}

// checkDraws re-derives every recorded draw from its match's revealed seeds, by the
// procedure it recorded, and the match's facts (package facts) from its own stream; it
// also counts the draws of the Legacy procedure.
func (x *economy) checkDraws(ctx context.Context, store Reader) (problems []string, legacy int) {
	seen := map[string]facts.Match{}
	for _, d := range x.draws {
		l, _ := progress.LootEvents.Decode(d.ev.Type, d.ev.SchemaVersion, d.ev.Payload)
		e := l.(progress.LootDrawn)
		if e.Procedure == fairness.Legacy {
			legacy++
		}
		m, ok := seen[e.Match]
		if !ok {
			var err error
			if m, err = matchFacts(ctx, store, e.Match); err != nil {
				problems = append(problems, fmt.Sprintf("%s version %d: %v", d.ev.Stream, d.ev.Version, err))
				continue
			}
			seen[e.Match] = m
		}
		if err := progress.AuditLoot(m, d.player, e); err != nil {
			problems = append(problems, fmt.Sprintf("%s version %d: %v", d.ev.Stream, d.ev.Version, err))
			continue
		}
		if want, ok := x.rated[d.ev.ID]; !ok || want != e.Rating {
			problems = append(problems, fmt.Sprintf("%s version %d: a draw at a rating of %d, but the ratings folded from the store rate %s's class %s %d at the end of %s",
				d.ev.Stream, d.ev.Version, e.Rating, d.player, e.Class, want, e.Match))
		}
	}
	return problems, legacy
}

// matchFacts reads what a finished match shows, from its stream.
func matchFacts(ctx context.Context, store Reader, id string) (facts.Match, error) {
	t := facts.New(id)
	var after int64
	for {
		evs, err := store.ReadStream(ctx, matchstream.Name(id), after, pageSize)
		if err != nil {
			return facts.Match{}, fmt.Errorf("reading match %s: %w", id, err)
		}
		for _, ev := range evs {
			if _, err := t.AddStored(ev.Type, ev.SchemaVersion, ev.Payload, ev.Time); err != nil {
				return facts.Match{}, fmt.Errorf("match %s version %d: %w", id, ev.Version, err)
			}
		}
		if len(evs) < pageSize {
			break
		}
		after = evs[len(evs)-1].Version
	}
	if m := t.Match(); !t.Over() || len(m.Seed) == 0 {
		return facts.Match{}, fmt.Errorf("a draw for match %s, which has not ended with its seed revealed", id)
	}
	return t.Match(), nil
}
