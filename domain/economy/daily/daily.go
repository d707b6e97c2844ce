// Package daily is what a player earns by the day: the bonus of the first connection of
// the day and three challenges renewed each day, drawn from a pool per game (data:
// challenges.json) and counted from what finished matches show (package facts).
//
// The day is the UTC day. A day that ended at each player's own midnight would need the
// player's time zone, which the server does not know and a player could change to claim
// twice; the UTC day is the same for everyone, on every node, and is what the events'
// times already are. A player in Paris sees the day turn at 01:00 (02:00 in summer).
package daily

import (
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/facts"
	"github.com/arbiter-games/arbiter/domain/economy/progress"
)

// Bonus is the daily bonus, in coins: a twentieth of the starting grant, so that a day's
// bonus and challenges (some 200 coins) are worth about one stake of a friendly duel.
const Bonus int64 = 50

// ReasonBonus and ReasonChallenge are the reasons of the grants on the wallet.
const (
	ReasonBonus     = "daily bonus"
	ReasonChallenge = "daily challenge"
)

// PerDay is how many challenges a player gets each day.
const PerDay = 3

// Day is the UTC day of t, as YYYY-MM-DD: the day of a bonus, of a challenge.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// BonusKey is the idempotency key of a player's bonus of day: one grant per day.
func BonusKey(day string) string { return "daily:" + day }

// ChallengeKey is the idempotency key of a challenge's reward: paid once.
func ChallengeKey(day, id string) string { return "challenge:" + day + ":" + id }

// Challenge is one challenge of the pool: Counter (a facts counter) summed over the day's
// matches of Game that count for the player, up to Goal; WinsOnly, Rated, Staked and
// Under (fewer turns than) narrow the matches that count.
type Challenge struct {
	ID       string `json:"id"`
	Game     string `json:"game"`
	Counter  string `json:"counter"`
	Goal     int    `json:"goal"`
	Reward   int64  `json:"reward"`
	WinsOnly bool   `json:"winsOnly,omitempty"`
	Rated    bool   `json:"rated,omitempty"`
	Staked   bool   `json:"staked,omitempty"`
	Under    int    `json:"under,omitempty"`
	En       string `json:"en"`
	Fr       string `json:"fr"`
}

//go:embed challenges.json
var poolJSON []byte

// Pool is every challenge, in the order of the data.
var Pool = func() []Challenge {
	var p []Challenge
	if err := json.Unmarshal(poolJSON, &p); err != nil {
		panic(fmt.Sprintf("daily: challenges.json: %v", err))
	}
	return p
}()

// Pick is the three challenges of player on day, drawn without repeat from the pool by a
// hash of the day and the player: the same on every node and every read, different for
// each player and each day, and never the server's randomness.
func Pick(day, player string) []Challenge {
	idx := make([]int, len(Pool))
	for i := range idx {
		idx[i] = i
	}
	h := sha256.Sum256([]byte("daily challenges\x00" + day + "\x00" + player))
	out := make([]Challenge, 0, PerDay)
	for k := 0; k < PerDay && k < len(idx); k++ {
		r := int(binary.BigEndian.Uint32(h[4*k:]) % uint32(len(idx)-k))
		idx[k], idx[k+r] = idx[k+r], idx[k]
		out = append(out, Pool[idx[k]])
	}
	return out
}

// Counts reports whether seat's part of m counts toward c.
func (c Challenge) Counts(m facts.Match, seat int) bool {
	s := m.Seats[seat]
	return m.Game == c.Game && progress.Rewarded(m, seat) &&
		(!c.WinsOnly || s.Won) && (!c.Rated || m.Rated) && (!c.Staked || m.Stake > 0) &&
		(c.Under == 0 || m.Turns < c.Under)
}

// Progress is how far player is in c on day, from the matches it played (any order, any
// day: those that ended on another day are not counted), capped at the goal.
func (c Challenge) Progress(day, player string, played []facts.Match) int {
	n := 0
	for _, m := range played {
		if Day(m.Ended) != day {
			continue
		}
		for seat, s := range m.Seats {
			if s.Player == player && c.Counts(m, seat) {
				n += s.Counts[c.Counter]
			}
		}
	}
	return min(n, c.Goal)
}
