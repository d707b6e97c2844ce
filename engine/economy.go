package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/economy/hats"
	"github.com/arbiter-games/arbiter/domain/economy/progress"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// The economy's commands (docs/economy.md). Coins move on the wallet stream alone, each
// grant and spending once per key (the day's bonus, a challenge of a day, a hat); the hat
// a king wears is the player's profile stream (profile-<playerID>), decided by
// domain/economy/hats from the hats the wallet's spendings bought.

// ClaimDailyBonus grants the bonus of the UTC day of the engine's clock, once: granted is
// 0 when the day's bonus was given before, also by a claim at the same time (on this node
// or another): of two claims at once, one answers the bonus and the other 0.
func (e *Engine) ClaimDailyBonus(ctx context.Context, playerID string) (day string, granted int64, w Wallet, err error) {
	day = daily.Day(e.now())
	before, err := e.Wallet(ctx, playerID)
	if err != nil {
		return day, 0, Wallet{}, err
	}
	if Claimed(before, daily.ReasonBonus, day) {
		return day, 0, before, nil
	}
	_, stored, err := e.grantOnce(ctx, playerID, daily.Bonus, daily.ReasonBonus, day, daily.BonusKey(day))
	if err != nil {
		return day, 0, Wallet{}, err
	}
	if stored {
		granted = daily.Bonus
	}
	w, err = e.ReadWallet(ctx, playerID)
	return day, granted, w, err
}

// Today is the UTC day of the engine's clock.
func (e *Engine) Today() string { return daily.Day(e.now()) }

// Claimed reports whether w holds a grant for reason under ref (a day's bonus, a
// challenge of a day).
func Claimed(w Wallet, reason, ref string) bool {
	for _, x := range w.Entries {
		if x.Reason == reason && x.Ref == ref && x.Amount > 0 {
			return true
		}
	}
	return false
}

// PayChallenge pays a daily challenge of day that the player has done, once.
func (e *Engine) PayChallenge(ctx context.Context, playerID, day string, c daily.Challenge) error {
	_, err := e.grantFor(ctx, playerID, c.Reward, daily.ReasonChallenge, day+":"+c.ID, daily.ChallengeKey(day, c.ID))
	return err
}

// Hats are the hats a player owns (bought with its wallet, in the order bought) and the
// one its king wears ("" for none).
func (e *Engine) Hats(ctx context.Context, playerID string) (owned []string, worn string, err error) {
	w, err := e.ReadWallet(ctx, playerID)
	if err != nil {
		return nil, "", err
	}
	p, _, err := e.profile(ctx, playerID)
	return ownedHats(w), p.Worn, err
}

func ownedHats(w Wallet) []string {
	var out []string
	for _, x := range w.Entries {
		if x.Reason == hats.ReasonHat && x.Ref != "" && x.Amount < 0 {
			out = append(out, x.Ref)
		}
	}
	return out
}

// BuyHat buys a hat of the catalog with the player's coins, once: a hat owned already is
// not paid again.
func (e *Engine) BuyHat(ctx context.Context, playerID, hatID string) error {
	h, err := hats.Find(hatID)
	if err != nil {
		return err
	}
	w, err := e.Wallet(ctx, playerID)
	if err != nil {
		return err
	}
	for _, id := range ownedHats(w) {
		if id == h.ID {
			return nil
		}
	}
	_, err = e.SpendCoins(ctx, playerID, h.Price, hats.ReasonHat, h.ID, hats.Key(h.ID))
	return err
}

// WearHat puts an owned hat on the player's king ("" takes it off).
func (e *Engine) WearHat(ctx context.Context, playerID, hatID string) error {
	if _, err := e.registration(ctx, playerID); err != nil {
		return err
	}
	w, err := e.ReadWallet(ctx, playerID)
	if err != nil {
		return err
	}
	owned := ownedHats(w)
	stream := hats.Stream(playerID)
	for attempt := 0; ; attempt++ {
		p, version, err := e.profile(ctx, playerID)
		if err != nil {
			return err
		}
		evs, err := hats.Wear(p, owned, hatID)
		if err != nil || len(evs) == 0 {
			return err
		}
		proposed := make([]eventstore.Proposed, len(evs))
		for i, ev := range evs {
			payload, err := game.Encode(ev)
			if err != nil {
				return notApplied(err)
			}
			// Named by the version it is appended at: two nodes wearing at once conflict.
			proposed[i] = eventstore.Proposed{
				ID: fmt.Sprintf("%s:%d", stream, version+int64(i)+1), Type: ev.EventType(), SchemaVersion: hats.Events.Schema(ev.EventType()),
				Payload: payload, CommandID: "profile", Actor: "player:" + playerID, Visibility: visibility.Public, Time: e.now(),
			}
		}
		_, err = e.cfg.Store.Append(ctx, stream, version, proposed...)
		var conflict *eventstore.VersionConflict
		switch {
		case errors.As(err, &conflict) && attempt+1 < e.cfg.MaxRetries:
			continue
		case errors.As(err, &conflict):
			return &game.Error{Code: game.Conflict, Reason: "the profile kept changing under this command; send it again", Err: err}
		case err != nil:
			return appendError("appending to "+stream, err)
		}
		return nil
	}
}

// profile folds a player's profile stream.
func (e *Engine) profile(ctx context.Context, playerID string) (hats.Profile, int64, error) {
	evs, err := e.cfg.Store.ReadStream(ctx, hats.Stream(playerID), 0, 0)
	if err != nil {
		return hats.Profile{}, 0, notApplied(storeError("reading a profile", err))
	}
	var p hats.Profile
	var version int64
	for _, ev := range evs {
		d, err := hats.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
		if err != nil {
			return hats.Profile{}, 0, notApplied(fmt.Errorf("engine: profile of %s at version %d: %w", playerID, ev.Version, err))
		}
		p, version = hats.Evolve(p, d), ev.Version
	}
	return p, version, nil
}

// Now is the engine's clock, as the rules receive it.
func (e *Engine) Now() time.Time { return e.now() }

// RecordLoot appends the draw of a Cristal légendaire to the player's loot stream under
// id (progress.LootEventID): the same draw recorded twice, by a restarted settlement
// process or by two nodes, is stored once.
func (e *Engine) RecordLoot(ctx context.Context, playerID, id string, d progress.LootDrawn) error {
	stream := progress.LootStream(playerID)
	payload, err := game.Encode(d)
	if err != nil {
		return notApplied(err)
	}
	for attempt := 0; ; attempt++ {
		evs, err := e.cfg.Store.ReadStream(ctx, stream, 0, 0)
		if err != nil {
			return notApplied(storeError("reading a loot stream", err))
		}
		var version int64
		if len(evs) > 0 {
			version = evs[len(evs)-1].Version
		}
		_, err = e.cfg.Store.Append(ctx, stream, version, eventstore.Proposed{
			ID: id, Type: d.EventType(), SchemaVersion: progress.LootEvents.Schema(d.EventType()),
			Payload: payload, CommandID: "loot", Actor: "system", Visibility: visibility.Server, Time: e.now(),
		})
		var conflict *eventstore.VersionConflict
		switch {
		case errors.As(err, &conflict) && attempt+1 < e.cfg.MaxRetries:
			continue
		case err != nil:
			return appendError("appending to "+stream, err)
		}
		return nil
	}
}
