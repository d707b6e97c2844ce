package daily_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/economy/facts"
)

func TestTheDayIsUTC(t *testing.T) {
	paris := time.FixedZone("Paris", 3600)
	for _, c := range []struct {
		at   time.Time
		want string
	}{
		{time.Date(2026, 12, 1, 0, 30, 0, 0, paris), "2026-11-30"},
		{time.Date(2026, 12, 1, 23, 59, 59, 0, time.UTC), "2026-12-01"},
		{time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), "2026-12-02"},
	} {
		if got := daily.Day(c.at); got != c.want {
			t.Errorf("%v: %s, want %s", c.at, got, c.want)
		}
	}
}

// The pool holds at least 15 challenges per staked game, each on a counter the facts of
// a match can show, with a goal, a reward and both texts.
func TestThePool(t *testing.T) {
	known := []string{facts.Matches, facts.Wins, facts.Moves, facts.Cards, facts.Captures, facts.Checks, facts.Castles,
		facts.Promotions, facts.Spells, facts.Damage, facts.Crits, facts.Knockouts, facts.Pushes, facts.PushTraps,
		facts.Traps, facts.BonusesHit, facts.Summons, facts.Teleports, facts.Steps}
	perGame := map[string]int{}
	ids := map[string]bool{}
	for _, c := range daily.Pool {
		perGame[c.Game]++
		prefixed := strings.HasPrefix(c.Counter, facts.StatusPrefix) || strings.HasPrefix(c.Counter, facts.TriggeredPrefix) || strings.HasPrefix(c.Counter, facts.CardPrefix)
		if ids[c.ID] || c.Goal <= 0 || c.Reward <= 0 || c.En == "" || c.Fr == "" || !slices.Contains(known, c.Counter) && !prefixed {
			t.Errorf("challenge %+v", c)
		}
		ids[c.ID] = true
	}
	for _, g := range []string{"UNFAIR_CHESS", "SOLWARIS"} {
		if perGame[g] < 15 {
			t.Errorf("%s: %d challenges in the pool, want at least 15", g, perGame[g])
		}
	}
}

func TestThreeChallengesAPlayerADay(t *testing.T) {
	a := daily.Pick("2026-12-01", "ann")
	if len(a) != 3 || a[0].ID == a[1].ID || a[1].ID == a[2].ID || a[0].ID == a[2].ID {
		t.Fatalf("ann's challenges: %v", a)
	}
	if !slices.Equal(a, daily.Pick("2026-12-01", "ann")) {
		t.Fatal("the same day gives ann other challenges on another read")
	}
	changed := false
	for d := 2; d < 10; d++ {
		changed = changed || !slices.Equal(a, daily.Pick(time.Date(2026, 12, d, 0, 0, 0, 0, time.UTC).Format(time.DateOnly), "ann"))
	}
	if !changed {
		t.Fatal("ann's challenges never change from one day to the next")
	}
}

func TestProgressCountsTheDaysRewardedMatches(t *testing.T) {
	day := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	win := func(at time.Time, turns int, bot, abandoned bool) facts.Match {
		m := facts.Match{Game: "SOLWARIS", Ended: at, Turns: turns, Seats: []facts.Seat{
			{Player: "ann", Won: true, Counts: map[string]int{facts.Wins: 1, facts.Matches: 1, facts.Spells: 6}},
			{Player: "bob", Bot: bot, Abandoned: abandoned, Counts: map[string]int{facts.Matches: 1, facts.Spells: 4}}}}
		return m
	}
	played := []facts.Match{
		win(day, 8, false, false),                    // counts
		win(day.Add(-11*time.Hour), 8, false, false), // yesterday
		win(day.Add(time.Hour), 8, true, false),      // against the bot
		win(day.Add(2*time.Hour), 2, false, true),    // bob abandoned on turn 2: nothing for ann
		win(day.Add(3*time.Hour), 12, false, false),  // counts, not quick
		win(day.Add(4*time.Hour), 5, false, true),    // bob abandoned on turn 5: ann keeps it
	}
	get := func(id string) daily.Challenge {
		for _, c := range daily.Pool {
			if c.ID == id {
				return c
			}
		}
		t.Fatalf("no challenge %s", id)
		return daily.Challenge{}
	}
	d := daily.Day(day)
	if p := get("solwaris-spells-15").Progress(d, "ann", played); p != 15 {
		t.Errorf("ann's spells: %d, want 15 (capped from 18)", p)
	}
	if p := get("solwaris-spells-15").Progress(d, "bob", played); p != 8 {
		t.Errorf("bob's spells: %d, want 8: his abandoned duels count for nothing", p)
	}
	if p := get("solwaris-win-quick").Progress(d, "ann", played); p != 1 {
		t.Errorf("ann's quick wins: %d", p)
	}
	if p := get("solwaris-duel-2").Progress(d, "ann", played); p != 2 {
		t.Errorf("ann's duels: %d", p)
	}
	if p := get("unfair-win-1").Progress(d, "ann", played); p != 0 {
		t.Errorf("a Solwaris win counted for UnfairChess: %d", p)
	}
}
