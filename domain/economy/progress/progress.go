// Package progress is what a Solwaris duel gives beyond its stake: experience, the rules
// of abandonment (who is rewarded, the cooldowns), and the loot of a duel against a
// player. Everything is read from a finished match's facts (package facts) and data the
// caller passes (a time, a rating): pure, as the games' rules.
package progress

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/facts"
	"github.com/arbiter-games/arbiter/domain/economy/leagues"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Solwaris is the game these rules are Solwaris's for.
const Solwaris = "SOLWARIS"

// MinTurns is the turn an abandoned duel must have reached for the one who stays to keep
// its rewards: before it the duel is too short to count ("Abandonner un combat").
const MinTurns = 4 // solwaris.RewardTurn, the same rule in the game (a test checks they agree)

// Rewarded reports whether seat receives the rewards of m that are coins, challenges,
// league points and loot: never in a void match nor against the bot (bot games never
// count), never for the seat that abandoned, and in Solwaris, for nobody when the duel
// was abandoned before its MinTurns-th turn.
func Rewarded(m facts.Match, seat int) bool {
	switch {
	case seat < 0 || seat >= len(m.Seats), m.Void, m.VsBot(), m.Seats[seat].Abandoned:
		return false
	case m.Game == Solwaris && m.Abandoner() >= 0 && m.Turns < MinTurns:
		return false
	}
	return true
}

// The experience of a duel: every duel gives some, bot duels included (training against
// the AI gives experience and nothing else), more for each round fought and for a win.
const (
	XPPerDuel  = 20
	XPPerRound = 2
	XPForAWin  = 30
	XPMaxRound = 40 // rounds past the 40th (none: the duel ends there) give nothing more
)

// XP is the experience seat gains from m: nothing for the one who abandons, nothing for
// the one who stays when the duel was abandoned before MinTurns, nothing in a void match.
func XP(m facts.Match, seat int) int {
	if m.Game != Solwaris || seat < 0 || seat >= len(m.Seats) || m.Void || m.Seats[seat].Abandoned ||
		m.Abandoner() >= 0 && m.Turns < MinTurns {
		return 0
	}
	xp := XPPerDuel + XPPerRound*min(m.Turns, XPMaxRound)
	if m.Seats[seat].Won {
		xp += XPForAWin
	}
	return xp
}

// CountsAsAbandonment reports whether seat's abandonment of m costs time: a Solwaris duel
// against a player (friendly or staked); training against the AI is exempt.
func CountsAsAbandonment(m facts.Match, seat int) bool {
	return m.Game == Solwaris && !m.Void && !m.VsBot() && seat >= 0 && seat < len(m.Seats) && m.Seats[seat].Abandoned
}

// Window is the rolling period abandonments are counted over.
const Window = 24 * time.Hour

// Wait is the pause the n-th abandonment within Window imposes before the next match: the
// first is forgiven (an emergency, a cut), then 2 minutes, 10 minutes, 30 minutes beyond.
func Wait(n int) time.Duration {
	switch {
	case n <= 1:
		return 0
	case n == 2:
		return 2 * time.Minute
	case n == 3:
		return 10 * time.Minute
	}
	return 30 * time.Minute
}

// Cooldown says until when a player who abandoned at the times given (oldest first) may
// not start a match against a player, as of now, and how many abandonments fall in the
// last Window. The wait runs from the last abandonment and is the one its rank in the
// Window before it imposes; until is zero when no wait is running.
func Cooldown(abandoned []time.Time, now time.Time) (until time.Time, recent int) {
	for _, t := range abandoned {
		if t.After(now.Add(-Window)) && !t.After(now) {
			recent++
		}
	}
	if len(abandoned) == 0 {
		return time.Time{}, recent
	}
	last := abandoned[len(abandoned)-1]
	rank := 0
	for _, t := range abandoned {
		if t.After(last.Add(-Window)) && !t.After(last) {
			rank++
		}
	}
	if u := last.Add(Wait(rank)); u.After(now) {
		return u, recent
	}
	return time.Time{}, recent
}

// Loot is the draw of a Cristal légendaire for one seat at the end of a duel.
type Loot struct {
	Chance int // in thousandths, from the league of the class played
	Roll   int // 0-999, drawn from the match's seed by Procedure
	// Procedure is how Roll was drawn: fairness.V1, the match seed's stream LootLabel;
	// fairness.Legacy, the server's seed hashed with the seat (draws recorded before V1,
	// and a match of the Legacy procedure, which has no match seed).
	Procedure fairness.Version
}

// Won reports whether the draw gives the crystal.
func (l Loot) Won() bool { return l.Roll < l.Chance }

// Crystal is the loot's item.
const Crystal = "Cristal légendaire"

// DrawsLoot reports whether seat draws a Cristal légendaire at the end of m: the loot is
// "le butin d'une victoire classée" ("Abandonner un combat"), the prize of a ranked
// victory in a duel against a player ("à la fin d'un combat contre un joueur",
// "Ligues et progression"), so only a seat that won a rated duel it is rewarded for
// (Rewarded) draws: not a friendly duel, not the loser, not a draw at the 40th turn, not
// the one who stays in a duel abandoned before MinTurns.
func DrawsLoot(m facts.Match, seat int) bool {
	return m.Game == Solwaris && m.Rated && Rewarded(m, seat) && m.Seats[seat].Won
}

// DrawLoot draws seat's loot at the end of m (see DrawsLoot), given the rating of the
// class it played: the chance is its league's, the roll comes from the match seed, which
// the seats' entropy went into (so the server could not choose it), on the stream
// LootLabel(seat) (procedure V1, docs/fairness.md), revealed at the end so that anyone can
// check it. A match of the Legacy procedure has no match seed: its roll is the Legacy
// derivation from the server's seed. ok is false when the seat draws nothing or the seed
// is not revealed.
func DrawLoot(m facts.Match, seat int, classRating float64) (l Loot, ok bool) {
	if !DrawsLoot(m, seat) {
		return Loot{}, false
	}
	p := fairness.V1
	if len(m.MatchSeed) == 0 {
		p = fairness.Legacy
	}
	roll, err := LootRoll(m, seat, p)
	if err != nil {
		return Loot{}, false
	}
	return Loot{Chance: leagues.Of(classRating).LootChance, Roll: roll, Procedure: p}, true
}

// LootLabel is the fairness stream of seat's loot roll under procedure V1: the roll is
// its IntN(1000).
func LootLabel(seat int) string { return fmt.Sprintf("solwaris/loot/%d", seat) }

// LootRoll is seat's roll (0-999) at the end of m drawn by procedure p: V1, IntN(1000) of
// the match seed's stream LootLabel(seat); Legacy, the first 8 bytes of
// SHA-256("solwaris loot" || 0x00 || seed || int64be(seat)), big-endian, mod 1000, seed
// being the server's. It fails when m has not revealed the seed p needs, or p is unknown.
func LootRoll(m facts.Match, seat int, p fairness.Version) (int, error) {
	switch p {
	case fairness.V1:
		if len(m.MatchSeed) == 0 {
			return 0, fmt.Errorf("procedure %d draws from the match seed, which %s has not revealed", p, m.ID)
		}
		return fairness.New(m.MatchSeed, LootLabel(seat)).IntN(1000), nil
	case fairness.Legacy:
		if len(m.Seed) == 0 {
			return 0, fmt.Errorf("the Legacy procedure draws from the server's seed, which %s has not revealed", m.ID)
		}
		h := sha256.New()
		h.Write([]byte("solwaris loot\x00"))
		h.Write(m.Seed)
		_ = binary.Write(h, binary.BigEndian, int64(seat))
		return int(binary.BigEndian.Uint64(h.Sum(nil)[:8]) % 1000), nil
	}
	return 0, fmt.Errorf("no loot procedure %d (known: %d, %d)", p, fairness.Legacy, fairness.V1)
}

// CooldownCode is the rejection code of a match refused during a cooldown.
const CooldownCode game.Code = "COOLDOWN"

// CooldownError is the cause of a COOLDOWN rejection: until when, and after how many
// abandonments in the last Window. The API gives both in the error's extensions.
type CooldownError struct {
	Until        time.Time
	Abandonments int
}

func (e *CooldownError) Error() string {
	return fmt.Sprintf("in a cooldown until %s after %d abandonments", e.Until.UTC().Format(time.RFC3339), e.Abandonments)
}

// Extensions are what a client reads of the refusal: until (RFC 3339) and abandonments.
func (e *CooldownError) Extensions() map[string]any {
	return map[string]any{"until": e.Until.UTC().Format(time.RFC3339Nano), "abandonments": e.Abandonments}
}

// CooldownRefusal is the rejection of a match against a player during a cooldown.
func CooldownRefusal(until time.Time, abandonments int) error {
	return &game.Error{Code: CooldownCode, Err: &CooldownError{Until: until, Abandonments: abandonments},
		Reason: fmt.Sprintf("you abandoned %d duels against players in the last 24 hours: no duel against a player before %s (training against the AI is open)", abandonments, until.UTC().Format(time.RFC3339))}
}
