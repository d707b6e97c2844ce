package projections

import (
	"context"
	"fmt"
	"testing"

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
		t.Fatalf("live:\n%s\nrebuilt:\n%s", live.Digest(), rebuilt.Digest())
	}
	ann, bob := rebuilt.Of("ann"), rebuilt.Of("bob")
	if len(ann.Recent) != 2 || len(bob.Recent) != 2 || ann.XP != 0 || len(bob.Abandoned) != 0 {
		t.Fatalf("ann %+v bob %+v", ann, bob)
	}
	if m := ann.Recent[0]; !m.Void || m.Seats[0].Won {
		t.Fatalf("a rated game resigned before the first moves is aborted, void: %+v", m)
	}
	if m := ann.Recent[1]; !m.Seats[0].Won || m.Seats[0].Counts[facts.Moves] != 1 || !m.Seats[1].Abandoned || m.Ended.IsZero() || len(m.Seed) == 0 || m.Turns != 1 || m.Void {
		t.Fatalf("a game Ann won: %+v", m)
	}
}
