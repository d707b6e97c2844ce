package unfair

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/replay"
)

// player is the conformance suite's player: a mate when it has one, or a random action.
func player(rng *rand.Rand, st game.State, _ int) any {
	if m, ok := mating(st.(State)); ok {
		return m
	}
	return randomAction(rng, st.(State))
}

// A whole match played to a result through the engine is verified clean (the suite
// checks that much for every game); a forger who re-hashes the chain after changing a
// drawn card, a position or a card's slot is still caught by the rules, and one who
// stores a draw for everyone, for the other seat, or the deal for a seat, by the checks
// of the seed and of the sight.
func TestVerifyCatchesForgedMatches(t *testing.T) {
	tb := gametest.NewTable(t, Rules{}, nil, 7)
	tb.Play(rand.New(rand.NewPCG(3, 4)), player, 2000)
	if report := tb.Verify(); report.Result == nil || len(report.Result.Winners) != 1 || report.Result.Reason != "checkmate" {
		t.Fatalf("result %+v", report.Result)
	}
	evs := tb.Events()
	first := gametest.Nth(evs, "CardPlayed", 1)
	if first < 0 {
		t.Fatal("no card was played")
	}
	other := "queen-return" // a card the hand's slot does not hold
	if strings.Contains(string(evs[first].Payload), `"card":"queen-return"`) {
		other = "poison"
	}
	for _, forgery := range []struct {
		typ   string
		nth   int
		field string
		value any
	}{
		{"CardDrawn", 9, "card", "queen-return"}, // the first draw after the deal
		{"MovePlayed", 3, "fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"CardPlayed", 1, "card", other},
		{"CardPlayed", 1, "slot", HandSize},
	} {
		forged := gametest.Forge(t, evs, forgery.typ, forgery.nth, forgery.field, forgery.value)
		if report := tb.VerifyEvents(forged); report.OK() || report.Problems[0].Check != replay.CheckRules {
			t.Errorf("%s with another %s: %+v", forgery.typ, forgery.field, report.Problems)
		}
	}
	for _, leak := range []struct {
		typ   string
		nth   int // counted from 1
		vis   visibility.Visibility
		other bool // stored visible to the other seat instead of vis
		check string
	}{
		{"CardDrawn", 9, visibility.Public, false, replay.CheckSight}, // the first draw after the deal
		{"CardDrawn", 9, visibility.Public, true, replay.CheckSight},
		{"CardDrawn", 1, visibility.Public, false, replay.CheckSetup}, // the deal is re-dealt from the seed
		{"DeckShuffled", 1, visibility.Seat(0), false, replay.CheckSetup},
	} {
		forged := slices.Clone(evs)
		i := gametest.Nth(forged, leak.typ, leak.nth)
		forged[i].Visibility = leak.vis
		if leak.other {
			seat, _ := evs[i].Visibility.Seat()
			forged[i].Visibility = visibility.Seat(1 - seat)
		}
		if report := tb.VerifyEvents(gametest.Rehash(forged, i)); report.OK() || report.Problems[0].Check != leak.check {
			t.Errorf("%s number %d stored visible to %q: %+v", leak.typ, leak.nth, forged[i].Visibility, report.Problems)
		}
	}
}

// A match on the clock through the engine: the players act three seconds apart, cards
// among their actions, then nobody acts; the timeout at the deadline Status announces
// makes the seat to act lose on time, recorded by the system. Every action carries its
// time, and a forger who gives a player more time is caught by the audit.
func TestMatchOnTheClockThroughTheEngine(t *testing.T) {
	tb := gametest.NewTable(t, Rules{}, game.Options{"clock": "1+2"}, 9)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 12 {
		tb.Wait(3 * time.Second)
		ms, st := tb.Snapshot()
		tb.Act(st.ToAct[0], randomAction(rng, ms.GameState.(State)))
	}
	_, st := tb.Snapshot()
	loser := st.ToAct[0]
	ms := tb.TimeOut()
	if ms.Result == nil || ms.Result.Reason != "timeout" || !slices.Equal(ms.Result.Winners, []int{1 - loser}) {
		t.Fatalf("result %+v, want seat %d to lose on time", ms.Result, loser)
	}
	tb.Verify()
	evs := tb.Events()
	stamped, cards := 0, 0
	for _, ev := range evs {
		switch ev.Type {
		case "MovePlayed", "CardPlayed":
			if strings.Contains(string(ev.Payload), `"at":`) {
				stamped++
			}
			if ev.Type == "CardPlayed" {
				cards++
			}
		case "FlagFell":
			if ev.Actor != "system" {
				t.Errorf("the flag's actor is %q", ev.Actor)
			}
		}
	}
	if stamped < 12 || cards == 0 {
		t.Errorf("%d actions carry their time, %d of them cards", stamped, cards)
	}
	forged := gametest.Forge(t, evs, "MovePlayed", 2, "leftMs", 99_000)
	if report := tb.VerifyEvents(forged); report.OK() || report.Problems[0].Check != replay.CheckRules {
		t.Errorf("more time left: %+v", report.Problems)
	}
}
