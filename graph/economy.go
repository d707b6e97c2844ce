package graph

import (
	"context"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/badges"
	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/economy/hats"
	"github.com/arbiter-games/arbiter/domain/economy/leagues"
	"github.com/arbiter-games/arbiter/domain/economy/progress"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/graph/model"
	"github.com/arbiter-games/arbiter/projections"
)

// The economy's reads (docs/economy.md): what a player owns, its challenges and its
// cooldown are its own; its worn hat, badges, experience and leagues are public.

// isCaller reports whether the request's token is playerID's.
func (r *Resolver) isCaller(ctx context.Context, playerID string) bool {
	p, err := r.viewer(ctx)
	return err == nil && p != nil && p.ID == playerID
}

// dailyChallenges is the player's three challenges of today, as far as the matches it
// finished today go. A read pays nothing: the settlement process pays a challenge at the
// end of the match that completes it (projections.Economy.Pending).
func (r *Resolver) dailyChallenges(playerID string) []*model.DailyChallenge {
	day := r.Engine.Today()
	progress := make([]int, daily.PerDay)
	if r.Economy != nil {
		progress = r.Economy.Challenges(playerID, day)
	}
	out := make([]*model.DailyChallenge, 0, daily.PerDay)
	for k, c := range daily.Pick(day, playerID) {
		n := progress[k]
		out = append(out, &model.DailyChallenge{ID: c.ID, Game: model.Game(c.Game), TextEn: c.En, TextFr: c.Fr,
			Progress: n, Goal: c.Goal, Reward: int(c.Reward), Done: n >= c.Goal})
	}
	return out
}

// dailyBonus is whether the player claimed today's bonus.
func (r *Resolver) dailyBonus(ctx context.Context, playerID string) (*model.DailyBonus, error) {
	day := r.Engine.Today()
	w, err := r.Engine.ReadWallet(ctx, playerID)
	if err != nil {
		return nil, err
	}
	return &model.DailyBonus{Day: day, Amount: int(daily.Bonus), Claimed: engine.Claimed(w, daily.ReasonBonus, day)}, nil
}

func hatModel(id string) *model.Hat {
	h, ok := hats.ByID(id)
	if !ok {
		return &model.Hat{ID: id, NameEn: id, NameFr: id}
	}
	return &model.Hat{ID: h.ID, NameEn: h.En, NameFr: h.Fr, Price: int(h.Price)}
}

func hatCatalog() []*model.Hat {
	out := make([]*model.Hat, len(hats.Catalog))
	for i, h := range hats.Catalog {
		out[i] = hatModel(h.ID)
	}
	return out
}

// hatsPayload is the player's hats and wallet.
func (r *Resolver) hatsPayload(ctx context.Context, playerID string) (*model.HatsPayload, error) {
	owned, worn, err := r.Engine.Hats(ctx, playerID)
	if err != nil {
		return nil, err
	}
	w, err := r.wallet(ctx, playerID)
	if err != nil {
		return nil, err
	}
	out := &model.HatsPayload{Hats: make([]*model.OwnedHat, len(owned)), Wallet: w}
	for i, id := range owned {
		out.Hats[i] = &model.OwnedHat{ID: id, Worn: id == worn, Hat: hatModel(id)}
	}
	return out, nil
}

func leagueModel(l leagues.League) *model.League {
	out := &model.League{ID: l.ID, NameEn: l.NameEn, NameFr: l.NameFr, Min: l.Min}
	if m := leagues.Max(l); m >= 0 {
		out.Max = &m
	}
	return out
}

func leagueModels() []*model.League {
	out := make([]*model.League, len(leagues.All))
	for i, l := range leagues.All {
		out[i] = leagueModel(l)
	}
	return out
}

// classLeagues is the league of each Solwaris class the player has a rating with.
func (r *Resolver) classLeagues(playerID string) []*model.ClassLeague {
	out := []*model.ClassLeague{}
	if r.Elo == nil {
		return out
	}
	for _, x := range r.Elo.Of(playerID) {
		class, ok := strings.CutPrefix(x.Key, solwaris.ID+"/")
		if !ok {
			continue
		}
		out = append(out, &model.ClassLeague{Key: x.Key, Class: class, Rating: int(x.Rating + 0.5), League: leagueModel(leagues.Of(x.Rating))})
	}
	return out
}

// playedCards is what a player has played, as the profile shows it now to everyone: a
// delayed match's cards once its end is as old as its delay (projections.CardsPlayed).
func (r *Resolver) playedCards(playerID string) []projections.CardCount {
	return r.Cards.Of(playerID, time.Now())
}

// badges is what the player's played cards unlocked.
func (r *Resolver) badges(playerID string) []*model.Badge {
	out := []*model.Badge{}
	if r.Cards == nil {
		return out
	}
	played := map[string]map[string]int{}
	for _, c := range r.playedCards(playerID) {
		if played[c.Game] == nil {
			played[c.Game] = map[string]int{}
		}
		played[c.Game][c.Card] += c.Count
	}
	for _, b := range badges.Unlocked(played) {
		out = append(out, &model.Badge{ID: b.ID, NameEn: b.En, NameFr: b.Fr, TextEn: b.TextEn, TextFr: b.TextFr})
	}
	return out
}

// cooldown is the player's running cooldown, or nil.
func (r *Resolver) cooldown(playerID string) *model.Cooldown {
	if r.Economy == nil {
		return nil
	}
	until, recent := progress.Cooldown(r.Economy.Of(playerID).Abandoned, r.Engine.Now())
	if until.IsZero() {
		return nil
	}
	return &model.Cooldown{Until: until, Abandonments: recent}
}

// checkCooldown refuses a player in a cooldown a Solwaris duel against a player: a
// friendly or staked duel's creation (rated or staked: an unrated, unstaked one may be
// training against the AI), or a join of a duel where the bot does not sit.
func (r *Resolver) checkCooldown(playerID, gameID string) error {
	if gameID != solwaris.ID || r.Economy == nil {
		return nil
	}
	until, recent := progress.Cooldown(r.Economy.Of(playerID).Abandoned, r.Engine.Now())
	if until.IsZero() {
		return nil
	}
	return progress.CooldownRefusal(until, recent)
}

// joinCooldown refuses a player in a cooldown a seat at a Solwaris duel where the bot
// does not sit (a duel against a player). A match the engine cannot read is left to the
// join to refuse.
func (r *Resolver) joinCooldown(ctx context.Context, playerID, matchID string) error {
	snap, err := r.Engine.Match(ctx, matchID)
	if err != nil || snap.State.SeatOf(playerID) >= 0 {
		return nil // not found, or seated already: the join answers as it would
	}
	if match.Training(snap.State.Options) {
		return nil // training against the AI is exempt, before the bot sits too
	}
	for _, s := range snap.State.Seats {
		if s.Bot {
			return nil // training against the AI is exempt
		}
	}
	return r.checkCooldown(playerID, snap.Rules.Info().ID)
}
