package projections

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/arbiter-games/arbiter/domain/dispute"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/rating"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// A ruling that gives the first of two rated matches to its loser takes back what that
// match moved and rates it again from the ratings before it; the second match's change
// stands as it was computed. A void then takes the new result back. Fed live or rebuilt
// from zero, the model agrees.
func TestARulingRatesAMatchAgainFromTheRatingsBeforeIt(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	reg := game.NewRegistry(classic.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: reg})
	live := NewRatings(reg)
	feed := func() {
		evs, err := store.ReadAll(ctx, live.Checkpoint(), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if err := live.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	played := func(n int) string { // ann wins: both move, then bob resigns
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: classic.ID, Rated: true, By: "ann"}, engine.Meta{CommandID: fmt.Sprint("m", n)})
		if err != nil {
			t.Fatal(err)
		}
		for seat, p := range []string{"ann", "bob"} {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []match.Command{
			match.Act{PlayerID: "ann", Do: game.Move{Notation: "e4"}}, match.Act{PlayerID: "bob", Do: game.Move{Notation: "e5"}}, match.Resign{PlayerID: "bob"},
		} {
			if _, err := eng.Handle(ctx, ack.MatchID, c, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		return ack.MatchID
	}
	m1 := played(1)
	played(2)
	rev, _, err := eng.RegisterPlayer(ctx, "Rev", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.SetReviewer(ctx, rev.ID, true, "test"); err != nil {
		t.Fatal(err)
	}
	ack, err := eng.OpenDispute(ctx, m1, "bob", "I did not resign", nil)
	if err != nil {
		t.Fatal(err)
	}
	id := ack.Event.(dispute.Opened).Dispute
	if _, err := eng.RuleDispute(ctx, id, rev.ID, dispute.Win, 1, ""); err != nil {
		t.Fatal(err)
	}
	feed()

	newcomers := []rating.Player{{Rating: rating.Initial}, {Rating: rating.Initial}}
	first := rating.UpdateMany(newcomers, []int{0, 1}, []float64{1, 0})
	second := rating.UpdateMany([]rating.Player{{Rating: first[0], Games: 1}, {Rating: first[1], Games: 1}}, []int{0, 1}, []float64{1, 0})
	reversed := rating.UpdateMany(newcomers, []int{0, 1}, []float64{0, 1})
	for seat, p := range []string{"ann", "bob"} {
		want := reversed[seat] + second[seat] - first[seat]
		got := live.Of(p)
		if len(got) != 1 || got[0].Games != 2 || got[0].Wins != 1 || got[0].Losses != 1 || math.Abs(got[0].Rating-want) > 1e-9 {
			t.Fatalf("%s after the ruling: %+v, want 2 games, 1 won, 1 lost, at %g", p, got, want)
		}
	}
	rebuilt := NewRatings(reg)
	if err := Rebuild(ctx, store, nil, rebuilt); err != nil {
		t.Fatal(err)
	}
	if a, b := live.Digest(), rebuilt.Digest(); a != b {
		t.Fatalf("fed live: %s, rebuilt: %s", a, b)
	}

	// A second dispute on the same match voids it: from the ruled result, not the recorded one.
	ack, err = eng.OpenDispute(ctx, m1, "ann", "he had left the building", nil)
	if err != nil {
		t.Fatal(err)
	}
	ack, err = eng.RuleDispute(ctx, ack.Event.(dispute.Opened).Dispute, rev.ID, dispute.Void, 0, "")
	if err != nil || !ack.Event.(dispute.Ruled).Before.Same(dispute.Result{Winners: []int{1}}) {
		t.Fatalf("the void: %+v, %v", ack.Event, err)
	}
	feed()
	for seat, p := range []string{"ann", "bob"} {
		if got := live.Of(p); len(got) != 1 || got[0].Games != 1 || math.Abs(got[0].Rating-(second[seat]-first[seat]+rating.Initial)) > 1e-9 {
			t.Fatalf("%s after the void: %+v", p, got)
		}
	}
}
