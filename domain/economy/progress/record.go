package progress

import (
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/facts"
	"github.com/arbiter-games/arbiter/domain/economy/leagues"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
)

// LootDrawn records the draw of a Cristal légendaire at the end of a duel against a
// player, won or not, on the player's loot stream (LootStream): what was rolled, the
// chance of the league, and the result. The settlement process appends it once per
// match and seat; the read model and verify read it (docs/economy.md).
type LootDrawn struct {
	Match  string `json:"match"`
	Seat   int    `json:"seat"`
	Class  string `json:"class"`
	Rating int    `json:"rating"` // the class's rating after the duel, rounded
	League string `json:"league"`
	Chance int    `json:"chance"` // thousandths
	Roll   int    `json:"roll"`   // 0-999, from the match's seed and the seat, by Procedure
	Won    bool   `json:"won"`
	Item   string `json:"item,omitempty"` // Crystal when won
	// Procedure is how Roll was drawn (LootRoll): 1, the match seed's stream
	// "solwaris/loot/<seat>"; absent (0), the Legacy derivation from the server's seed,
	// which every draw stored before procedure 1 used and still verifies by.
	Procedure fairness.Version `json:"procedure,omitempty"`
}

func (LootDrawn) EventType() string { return "LootDrawn" }

// LootEvents decodes a loot stream.
var LootEvents = func() *game.Codec {
	c := game.NewCodec()
	game.Register[LootDrawn](c, 1)
	return c
}()

// LootStream is the name of a player's loot stream.
func LootStream(playerID string) string { return "loot-" + playerID }

// LootEventID names the draw of seat in match: the same draw appended twice (a restarted
// process, two nodes) is stored once.
func LootEventID(matchID string, seat int) string { return fmt.Sprintf("loot:%s:%d", matchID, seat) }

// RatingKey is the key of a Solwaris class's rating (game.RatingKeyed: the game rates per
// class), whose league gives the loot's chance.
func RatingKey(class string) string { return Solwaris + "/" + class }

// Record is the event that records l, seat's draw at the end of m, with the rating of
// the class played.
func Record(m facts.Match, seat int, rating float64, l Loot) LootDrawn {
	lg := leagues.Of(rating)
	e := LootDrawn{Match: m.ID, Seat: seat, Class: m.Seats[seat].Class, Rating: int(rating + 0.5), League: lg.ID,
		Chance: l.Chance, Roll: l.Roll, Won: l.Won(), Procedure: l.Procedure}
	if e.Won {
		e.Item = Crystal
	}
	return e
}

// MatchSeedLootFrom is when the loot's roll moved to the match seed (procedure 1, commit
// 4a21579): a build from before drew every roll by the Legacy derivation, a build from
// then on draws from the match seed whenever the match has one. A draw's procedure is the
// draw's own word; this time is not, nor is the end of the match, in the match's stream:
// a Legacy draw of a match with a match seed that ended from then on is a draw rewritten
// (one who holds the server key picking the better of two rolls), and AuditLoot refuses
// it. Before it, a draw may be either: a match that ended just before may have been drawn
// by a new build, catching up.
var MatchSeedLootFrom = time.Date(2026, time.December, 1, 18, 8, 24, 0, time.UTC)

// AuditLoot re-derives a recorded draw from m, the finished match it names (its seed
// revealed), for the player of the stream it is on: the seat is the player's and rewarded,
// the roll is the seed's by the procedure the draw recorded (LootRoll: a draw stored
// before procedure 1 records none, and is checked by the Legacy derivation), which must be
// procedure 1 for a match with a match seed that ended from MatchSeedLootFrom on, the
// chance the league's of the recorded rating, and the result follows from both. It
// returns what does not match.
func AuditLoot(m facts.Match, player string, e LootDrawn) error {
	if e.Seat < 0 || e.Seat >= len(m.Seats) || m.Seats[e.Seat].Player != player {
		return fmt.Errorf("a draw for seat %d of %s, not the seat of %s", e.Seat, m.ID, player)
	}
	if e.Class != m.Seats[e.Seat].Class {
		return fmt.Errorf("a draw for class %q, but seat %d of %s played %q", e.Class, e.Seat, m.ID, m.Seats[e.Seat].Class)
	}
	if !DrawsLoot(m, e.Seat) {
		return fmt.Errorf("a draw in %s for seat %d, which draws nothing there", m.ID, e.Seat)
	}
	if e.Procedure == fairness.Legacy && len(m.MatchSeed) > 0 && !m.Ended.Before(MatchSeedLootFrom) {
		return fmt.Errorf("a draw in %s for seat %d by the Legacy derivation, but the match ended at %s, when the loot was drawn from the match seed (procedure %d, from %s)",
			m.ID, e.Seat, m.Ended.UTC().Format(time.RFC3339), fairness.V1, MatchSeedLootFrom.Format(time.RFC3339))
	}
	roll, err := LootRoll(m, e.Seat, e.Procedure)
	if err != nil {
		return fmt.Errorf("a draw in %s for seat %d: %w", m.ID, e.Seat, err)
	}
	lg := leagues.Of(float64(e.Rating))
	want := Record(m, e.Seat, float64(e.Rating), Loot{Chance: lg.LootChance, Roll: roll, Procedure: e.Procedure})
	switch {
	case e.League != lg.ID:
		return fmt.Errorf("league %q recorded for a rating of %d, which is %q", e.League, e.Rating, lg.ID)
	case e != want:
		return fmt.Errorf("draw recorded as roll %d of %d (won %v) by procedure %d, the seed gives roll %d of %d (won %v)", e.Roll, e.Chance, e.Won, e.Procedure, want.Roll, want.Chance, want.Won)
	}
	return nil
}
