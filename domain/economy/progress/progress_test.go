package progress_test

import (
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/facts"
	"github.com/arbiter-games/arbiter/domain/economy/leagues"
	"github.com/arbiter-games/arbiter/domain/economy/progress"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
)

// The economy and the game say the same turn (the economy imports no game: the read side
// that uses it must not).
func TestTheGameAndTheEconomyAgreeOnTheFourthTurn(t *testing.T) {
	if progress.MinTurns != solwaris.RewardTurn || progress.Solwaris != solwaris.ID {
		t.Fatalf("progress says turn %d of %s, the game turn %d of %s", progress.MinTurns, progress.Solwaris, solwaris.RewardTurn, solwaris.ID)
	}
}

// duel is a finished Solwaris duel of turns rounds that seat 0 won; abandoner (-1 none)
// resigned it; bot seats the house bot at seat 1 (a friendly duel: the bot is never
// rated), else it is rated.
func duel(turns, abandoner int, bot bool) facts.Match {
	m := facts.Match{Game: "SOLWARIS", Rated: !bot, Turns: turns, Seats: []facts.Seat{{Player: "ann", Won: true}, {Player: "bob", Bot: bot}}, Seed: []byte("seed")}
	if abandoner >= 0 {
		m.Seats[abandoner].Abandoned = true
		m.Seats[abandoner].Won, m.Seats[1-abandoner].Won = false, true
	}
	return m
}

func TestXPFromEveryDuelBotDuelsIncluded(t *testing.T) {
	if xp := progress.XP(duel(10, -1, false), 0); xp != 20+2*10+30 {
		t.Errorf("a win in 10 rounds: %d XP", xp)
	}
	if xp := progress.XP(duel(10, -1, false), 1); xp != 20+2*10 {
		t.Errorf("a loss in 10 rounds: %d XP", xp)
	}
	if xp := progress.XP(duel(10, -1, true), 0); xp != 70 {
		t.Errorf("a win against the bot: %d XP, want the same as against a player", xp)
	}
	if progress.Rewarded(duel(10, -1, true), 0) {
		t.Error("a bot duel rewards coins, challenges, league points or loot")
	}
	if xp := progress.XP(facts.Match{Game: "UNFAIR_CHESS", Turns: 30, Seats: []facts.Seat{{Won: true}, {}}}, 0); xp != 0 {
		t.Errorf("UnfairChess gave %d XP", xp)
	}
}

// The one who abandons gains nothing, even late; the one who stays keeps everything from
// turn 4 on, and nothing before.
func TestAbandonment(t *testing.T) {
	for _, c := range []struct {
		turns            int
		stayer, leaver   bool
		stayerXP, leaveX int
	}{
		{1, false, false, 0, 0},
		{3, false, false, 0, 0},
		{4, true, false, 20 + 8 + 30, 0},
		{12, true, false, 20 + 24 + 30, 0},
	} {
		m := duel(c.turns, 1, false) // bob abandons, ann stays and wins
		if got := progress.Rewarded(m, 0); got != c.stayer {
			t.Errorf("turn %d: the one who stays rewarded %v", c.turns, got)
		}
		if progress.Rewarded(m, 1) || progress.XP(m, 1) != 0 {
			t.Errorf("turn %d: the one who abandons gains something", c.turns)
		}
		if got := progress.XP(m, 0); got != c.stayerXP {
			t.Errorf("turn %d: the one who stays gains %d XP, want %d", c.turns, got, c.stayerXP)
		}
		if _, ok := progress.DrawLoot(m, 0, 1000); ok != c.stayer {
			t.Errorf("turn %d: the one who stays draws loot: %v", c.turns, ok)
		}
		if !progress.CountsAsAbandonment(m, 1) || progress.CountsAsAbandonment(m, 0) {
			t.Errorf("turn %d: who abandoned", c.turns)
		}
	}
	if progress.CountsAsAbandonment(duel(2, 1, true), 0) || progress.CountsAsAbandonment(duel(2, 0, true), 0) {
		t.Error("abandoning a training duel against the AI costs time")
	}
}

func TestCooldownsOverARolling24Hours(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	at := func(d ...time.Duration) []time.Time {
		var out []time.Time
		for _, x := range d {
			out = append(out, t0.Add(x))
		}
		return out
	}
	for _, c := range []struct {
		name      string
		abandoned []time.Time
		now       time.Time
		until     time.Time
		recent    int
	}{
		{"none", nil, t0, time.Time{}, 0},
		{"the first is forgiven", at(0), t0, time.Time{}, 1},
		{"the second: 2 min", at(0, time.Hour), t0.Add(time.Hour + time.Minute), t0.Add(time.Hour + 2*time.Minute), 2},
		{"the second, once waited", at(0, time.Hour), t0.Add(time.Hour + 2*time.Minute), time.Time{}, 2},
		{"the third: 10 min", at(0, time.Hour, 2*time.Hour), t0.Add(2 * time.Hour), t0.Add(2*time.Hour + 10*time.Minute), 3},
		{"the fourth: 30 min", at(0, 1*time.Hour, 2*time.Hour, 3*time.Hour), t0.Add(3 * time.Hour), t0.Add(3*time.Hour + 30*time.Minute), 4},
		{"the fifth: 30 min", at(0, 1*time.Hour, 2*time.Hour, 3*time.Hour, 4*time.Hour), t0.Add(4 * time.Hour), t0.Add(4*time.Hour + 30*time.Minute), 5},
		{"a day later the first is forgotten", at(0, 25*time.Hour), t0.Add(25 * time.Hour), time.Time{}, 1},
		{"rolling, not by calendar day", at(20*time.Hour, 30*time.Hour), t0.Add(30 * time.Hour), t0.Add(30*time.Hour + 2*time.Minute), 2},
	} {
		until, recent := progress.Cooldown(c.abandoned, c.now)
		if !until.Equal(c.until) || recent != c.recent {
			t.Errorf("%s: until %v (%d recent), want %v (%d)", c.name, until, recent, c.until, c.recent)
		}
	}
}

// The loot's chance grows with the league; its roll is the seed's, the same every time.
func TestLootIsDrawnFromTheSeedAndGrowsWithTheLeague(t *testing.T) {
	m := duel(10, -1, false)
	low, _ := progress.DrawLoot(m, 0, 1000)
	high, _ := progress.DrawLoot(m, 0, 2000)
	again, _ := progress.DrawLoot(m, 0, 1000)
	if low.Chance >= high.Chance || low != again || low.Roll < 0 || low.Roll > 999 {
		t.Fatalf("low %+v high %+v again %+v", low, high, again)
	}
	// Over many seeds, the share won is near the league's chance.
	won := map[bool]int{}
	for i := range 20000 {
		m.Seed = []byte{byte(i), byte(i >> 8), 7}
		l, _ := progress.DrawLoot(m, 0, 2000)
		won[l.Won()]++
	}
	if share := won[true] * 1000 / 20000; share < 65 || share > 95 {
		t.Errorf("Légende won %d‰ of 20000 draws, want near 80", share)
	}
	if _, ok := progress.DrawLoot(duel(10, -1, true), 0, 2000); ok {
		t.Error("loot against the bot")
	}
}

// The loot is a ranked victory's: only the winner of a rated duel against a player draws,
// and only when the duel rewards it.
func TestOnlyARankedVictoryDrawsLoot(t *testing.T) {
	friendly := duel(10, -1, false)
	friendly.Rated = false
	drawn := duel(40, -1, false)
	drawn.Seats[0].Won, drawn.Seats[0].Drew, drawn.Seats[1].Drew = false, true, true
	for _, c := range []struct {
		name string
		m    facts.Match
		seat int
		want bool
	}{
		{"the winner of a rated duel", duel(10, -1, false), 0, true},
		{"the loser of a rated duel", duel(10, -1, false), 1, false},
		{"the winner of a friendly duel", friendly, 0, false},
		{"a seat of a rated duel drawn at the 40th turn", drawn, 0, false},
		{"the winner against the bot", duel(10, -1, true), 0, false},
		{"the one who stays, from turn 4", duel(4, 1, false), 0, true},
		{"the one who stays, before turn 4", duel(3, 1, false), 0, false},
		{"the one who abandons", duel(10, 0, false), 0, false},
	} {
		if _, ok := progress.DrawLoot(c.m, c.seat, 1500); ok != c.want || progress.DrawsLoot(c.m, c.seat) != c.want {
			t.Errorf("%s draws loot: %v, want %v", c.name, ok, c.want)
		}
	}
}

// A recorded draw is audited against the match's seed: the draw as recorded passes, a
// roll changed to a win with its result to match does not, nor a draw put on another
// player's stream; for a match of the Legacy procedure (no match seed, the server seed's
// roll) as for one of procedure 1 (the match seed's).
func TestARecordedDrawIsReDerivedFromTheSeed(t *testing.T) {
	for _, matchSeed := range [][]byte{nil, []byte("match seed")} {
		m := duel(10, -1, false)
		m.ID, m.MatchSeed = "m1", matchSeed
		l, ok := progress.DrawLoot(m, 0, 1450)
		if !ok {
			t.Fatal("no draw for the winner of a duel against a player")
		}
		rec := progress.Record(m, 0, 1450, l)
		if rec.League != "expert" || rec.Chance != 25 || rec.Rating != 1450 || rec.Won != (rec.Roll < 25) {
			t.Fatalf("recorded %+v", rec)
		}
		if err := progress.AuditLoot(m, "ann", rec); err != nil {
			t.Fatalf("the draw as recorded: %v", err)
		}
		forged := rec
		forged.Roll, forged.Won, forged.Item = (rec.Roll+1)%25, true, progress.Crystal
		if err := progress.AuditLoot(m, "ann", forged); err == nil {
			t.Errorf("a forged roll %d (the seed's is %d) passed", forged.Roll, rec.Roll)
		}
		richer := rec
		richer.Rating, richer.League, richer.Chance = 1950, "legende", 80
		richer.Won = richer.Roll < 80
		if err := progress.AuditLoot(m, "ann", richer); err != nil {
			t.Errorf("a draw at another rating, consistent with it, is the seed's: %v", err)
		}
		richer.League = "expert"
		if err := progress.AuditLoot(m, "ann", richer); err == nil {
			t.Error("a league that is not the rating's passed")
		}
		if err := progress.AuditLoot(m, "bob", rec); err == nil {
			t.Error("ann's draw on bob's stream passed")
		}
	}
}

// A new draw is the match seed's, the one the seats' entropy went into: IntN(1000) of its
// stream "solwaris/loot/<seat>", recorded as procedure 1; another server seed with the
// same match seed draws the same roll, and other match seeds draw other rolls.
func TestANewDrawUsesTheMatchSeed(t *testing.T) {
	m := duel(10, -1, false)
	m.MatchSeed = []byte("match seed")
	l, ok := progress.DrawLoot(m, 0, 1450)
	if want := fairness.New(m.MatchSeed, "solwaris/loot/0").IntN(1000); !ok || l.Procedure != fairness.V1 || l.Roll != want {
		t.Fatalf("drew %+v (%v), want roll %d by procedure 1", l, ok, want)
	}
	if rec := progress.Record(m, 0, 1450, l); rec.Procedure != fairness.V1 {
		t.Fatalf("recorded %+v without its procedure", rec)
	}
	m.Seed = []byte("another server seed")
	if again, _ := progress.DrawLoot(m, 0, 1450); again != l {
		t.Fatalf("the server's seed moved the roll: %+v, then %+v", l, again)
	}
	rolls := map[int]bool{}
	for i := range 50 {
		m.MatchSeed = []byte{byte(i), 7}
		d, _ := progress.DrawLoot(m, 0, 1450)
		rolls[d.Roll] = true
	}
	if len(rolls) < 40 {
		t.Fatalf("50 match seeds drew %d different rolls", len(rolls))
	}
	// A match of the Legacy procedure has no match seed: its roll is the server seed's.
	m.MatchSeed = nil
	if old, ok := progress.DrawLoot(m, 0, 1450); !ok || old.Procedure != fairness.Legacy {
		t.Fatalf("a Legacy match drew %+v (%v)", old, ok)
	}
}

// A draw stored before procedure 1, which records none, still verifies by the Legacy
// derivation, on a match that has a match seed too; the same roll claimed under
// procedure 1, or an unknown procedure, does not (a forged roll: the test above).
func TestAStoredDrawVerifiesByItsProcedure(t *testing.T) {
	m := duel(10, -1, false)
	m.ID, m.MatchSeed = "m1", []byte("match seed")
	// As stored before procedure 1: SHA-256("solwaris loot" 0x00 "seed" int64be(0)) gives 91.
	stored := `{"match":"m1","seat":0,"class":"","rating":1450,"league":"expert","chance":25,"roll":91,"won":false}`
	d, err := progress.LootEvents.Decode("LootDrawn", 1, []byte(stored))
	if err != nil {
		t.Fatal(err)
	}
	old := d.(progress.LootDrawn)
	if err := progress.AuditLoot(m, "ann", old); err != nil {
		t.Fatalf("a draw stored before procedure 1: %v", err)
	}
	claimed := old
	claimed.Procedure = fairness.V1
	if err := progress.AuditLoot(m, "ann", claimed); err == nil {
		t.Error("the Legacy roll claimed under procedure 1 passed")
	}
	l, _ := progress.DrawLoot(m, 0, 1450)
	rec := progress.Record(m, 0, 1450, l)
	unknown := rec
	unknown.Procedure = 2
	if err := progress.AuditLoot(m, "ann", unknown); err == nil {
		t.Error("a draw by an unknown procedure passed")
	}
	m.MatchSeed = nil
	if err := progress.AuditLoot(m, "ann", rec); err == nil {
		t.Error("a procedure 1 draw on a match without a match seed passed")
	}
}

// A draw's procedure does not follow from the draw alone: a match with a match seed that
// ended from MatchSeedLootFrom on was drawn from it by every build of that time, so its
// draw rewritten by the Legacy derivation (no procedure, the server seed's roll) is
// refused, while the same draw of a match that ended just before passes, as does a Legacy
// draw of a match of the Legacy procedure (no match seed), whenever it ended.
func TestALegacyDrawAfterTheCutOverIsRefused(t *testing.T) {
	m := duel(10, -1, false)
	m.ID, m.MatchSeed = "m1", []byte("match seed")
	legacyDraw := func(m facts.Match) progress.LootDrawn {
		roll, err := progress.LootRoll(m, 0, fairness.Legacy)
		if err != nil {
			t.Fatal(err)
		}
		return progress.Record(m, 0, 1450, progress.Loot{Chance: leagues.Of(1450).LootChance, Roll: roll, Procedure: fairness.Legacy})
	}
	newDraw := func(m facts.Match) progress.LootDrawn {
		l, ok := progress.DrawLoot(m, 0, 1450)
		if !ok || l.Procedure != fairness.V1 {
			t.Fatalf("the draw of a match with a match seed: %+v, %v; want procedure 1", l, ok)
		}
		return progress.Record(m, 0, 1450, l)
	}
	for _, tc := range []struct {
		ended  time.Time
		legacy bool // whether its Legacy draw passes
	}{
		{time.Time{}, true},
		{progress.MatchSeedLootFrom.Add(-time.Nanosecond), true},
		{progress.MatchSeedLootFrom, false},
		{progress.MatchSeedLootFrom.Add(90 * 24 * time.Hour), false},
	} {
		m.Ended = tc.ended
		err := progress.AuditLoot(m, "ann", legacyDraw(m))
		if (err == nil) != tc.legacy {
			t.Errorf("a Legacy draw of a match that ended at %s: %v; want it to pass: %v", tc.ended, err, tc.legacy)
		}
		if err != nil && !strings.Contains(err.Error(), "by the Legacy derivation, but the match ended at") {
			t.Errorf("a Legacy draw after the cut-over refused as %q", err)
		}
		if err := progress.AuditLoot(m, "ann", newDraw(m)); err != nil {
			t.Errorf("the draw of procedure 1 of a match that ended at %s: %v", tc.ended, err)
		}
		old := m
		old.MatchSeed = nil // a match of the Legacy procedure still draws by the Legacy derivation
		if l, ok := progress.DrawLoot(old, 0, 1450); !ok || l.Procedure != fairness.Legacy {
			t.Fatalf("the draw of a match without a match seed: %+v, %v", l, ok)
		}
		if err := progress.AuditLoot(old, "ann", legacyDraw(old)); err != nil {
			t.Errorf("a Legacy draw of a match without a match seed that ended at %s: %v", tc.ended, err)
		}
	}
}
