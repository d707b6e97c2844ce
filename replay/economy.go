package replay

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/economy/hats"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/eventstore"
)

// The economy's part of the wallets' verification (docs/economy.md): each grant and
// spending of the economy is for what its ref names, at that thing's price, once; each
// hat worn was bought before, in the store's order (the engine reads the wallet before
// it appends to the profile).

// economy is what verify learns of the economy as it reads the store in order.
type economy struct {
	refs     map[string]bool            // player, reason, ref: granted or spent once
	owned    map[string][]string        // player -> hats bought
	profiles map[string]hats.Profile    // player -> its profile as folded
	pool     map[string]daily.Challenge // challenge ID -> challenge
}

func newEconomy() *economy {
	pool := map[string]daily.Challenge{}
	for _, c := range daily.Pool {
		pool[c.ID] = c
	}
	return &economy{refs: map[string]bool{}, owned: map[string][]string{}, profiles: map[string]hats.Profile{}, pool: pool}
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
			_, id, _ := strings.Cut(e.Ref, ":")
			c, ok := x.pool[id]
			if !ok {
				return fmt.Sprintf("a challenge's grant for %q, not in the pool", e.Ref)
			}
			want = c.Reward
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
