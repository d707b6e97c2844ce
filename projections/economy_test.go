package projections

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/economy/facts"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// Two rated UnfairChess games that Bob resigns, at once, then after a move each, fed
// live and rebuilt:
// Ann's economy holds both, won, with her move counted; Bob's, his abandonments
// (which cost no time in UnfairChess: the cooldowns are Solwaris's).
func TestEconomyReadsFinishedMatches(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	reg := game.NewRegistry(unfair.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: reg})
	for round := range 2 {
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: unfair.ID, Rated: true, By: "ann"}, engine.Meta{CommandID: fmt.Sprint(round)})
		if err != nil {
			t.Fatal(err)
		}
		for seat, p := range []string{"ann", "bob"} {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		for i, mv := range []string{"e2e4", "e7e5"}[:2*round] { // the first is resigned at once
			if _, err := eng.Handle(ctx, ack.MatchID, match.Act{PlayerID: []string{"ann", "bob"}[i], Do: game.Move{Notation: mv}}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := eng.Handle(ctx, ack.MatchID, match.Resign{PlayerID: "bob"}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	live := NewEconomy(reg)
	evs, err := store.ReadAll(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if err := live.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	rebuilt := NewEconomy(reg)
	if err := Rebuild(ctx, store, nil, rebuilt); err != nil {
		t.Fatal(err)
	}
	if live.Digest() != rebuilt.Digest() {
		t.Fatalf("live:\n%s\nrebuilt:\n%s", live.contents(), rebuilt.contents())
	}
	ann, bob := rebuilt.Of("ann"), rebuilt.Of("bob")
	if len(ann.Days) != 1 || len(bob.Days) != 1 || ann.XP != 0 || len(bob.Abandoned) != 0 {
		t.Fatalf("ann %+v bob %+v", ann, bob)
	}
	for day, n := range ann.Days {
		if n != 2 || bob.Days[day] != 2 {
			t.Fatalf("on %s: ann finished %d matches, bob %d; want 2 each", day, n, bob.Days[day])
		}
	}
}

// A player's challenges of a day count what daily.Challenge.Progress counts over the
// matches it finished that day, whatever their order, from the day's tally alone: every
// challenge of the day met by a match that counts, one lost, one void, one of another
// day, and days older than Keep forgotten.
func TestChallengesCountTheDaysMatches(t *testing.T) {
	e := NewEconomy(game.NewRegistry(unfair.Rules{}))
	noon := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	day := daily.Day(noon)
	var played []facts.Match
	add := func(m facts.Match) {
		m.ID = fmt.Sprint("m", len(played))
		played = append(played, m)
		e.finish(m)
	}
	seats := func(won bool, counts map[string]int) []facts.Seat {
		return []facts.Seat{{Player: "ann", Won: won, Counts: counts}, {Player: "bob", Won: !won, Counts: map[string]int{facts.Matches: 1}}}
	}
	add(facts.Match{Game: "CHESS", Rated: true, Ended: noon.Add(-3 * Keep), Turns: 1, Seats: seats(true, map[string]int{facts.Matches: 1, facts.Wins: 1})})
	for i, c := range daily.Pick(day, "ann") {
		counts := map[string]int{facts.Matches: 1, facts.Wins: 1, c.Counter: 2 + i}
		add(facts.Match{Game: c.Game, Rated: true, Stake: 10, Ended: noon.Add(time.Duration(i) * time.Minute), Turns: 1, Seats: seats(true, counts)})
		add(facts.Match{Game: c.Game, Rated: true, Ended: noon.Add(-time.Duration(i+1) * time.Minute), Turns: 1, Seats: seats(false, counts)})
		add(facts.Match{Game: c.Game, Rated: true, Void: true, Ended: noon.Add(time.Hour), Turns: 1, Seats: seats(true, counts)})
		add(facts.Match{Game: c.Game, Rated: true, Ended: noon.Add(-24 * time.Hour), Turns: 1, Seats: seats(true, counts)})
	}
	for _, d := range []string{day, daily.Day(noon.Add(-24 * time.Hour)), daily.Day(noon.Add(-3 * Keep))} {
		got := e.Challenges("ann", d)
		for k, c := range daily.Pick(d, "ann") {
			want := c.Progress(d, "ann", played)
			if d == daily.Day(noon.Add(-3*Keep)) {
				want = 0 // forgotten: more than Keep before the last match
			}
			if got[k] != want {
				t.Errorf("on %s, challenge %s (%s of %s): %d, want %d", d, c.ID, c.Counter, c.Game, got[k], want)
			}
		}
	}
	if days := e.Of("ann").Days; len(days) != 2 || days[day] != 3*len(daily.Pick(day, "ann")) {
		t.Errorf("ann's days: %v", days)
	}
}
