package projections

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/dispute"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// A void takes back exactly what a rated match moved (a row it alone made disappears), a
// second ruling rates it again from the ratings before it, and the matches rated since,
// another player's among them, stand: rebuilt from zero, the same figures. (See also
// TestARulingRatesAMatchAgainFromTheRatingsBeforeIt, fed live.)
func TestARulingMovesTheRatingsOfItsMatchAlone(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	reg := game.NewRegistry(classic.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: reg})
	play := func(white, black, resigns string) string {
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: classic.ID, Rated: true, By: white}, engine.Meta{CommandID: white + black})
		if err != nil {
			t.Fatal(err)
		}
		for seat, p := range []string{white, black} {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range []string{white, black} {
			snap, err := eng.Match(ctx, ack.MatchID)
			if err != nil {
				t.Fatal(err)
			}
			first := snap.Rules.(game.Boarded).Board(snap.State.GameState).LegalMoves[0]
			if _, err := eng.Handle(ctx, ack.MatchID, match.Act{PlayerID: p, Do: game.Move{Notation: first}}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := eng.Handle(ctx, ack.MatchID, match.Resign{PlayerID: resigns}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
		return ack.MatchID
	}
	rule := func(m string, n int, ruling dispute.Ruling, before, after dispute.Result) {
		payload, err := game.Encode(dispute.Ruled{Dispute: dispute.ID(m, n), Match: m, Reviewer: "rev", Ruling: ruling, Before: before, After: after})
		if err != nil {
			t.Fatal(err)
		}
		cur, _ := store.ReadStream(ctx, dispute.Stream(m), 0, 0)
		if _, err := store.Append(ctx, dispute.Stream(m), int64(len(cur)), eventstore.Proposed{ID: fmt.Sprint(m, n), Type: "DisputeRuled", SchemaVersion: 1,
			Payload: payload, CommandID: fmt.Sprint(m, n), Actor: "player:rev", Visibility: visibility.Server, Time: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	rebuilt := func() *Ratings {
		r := NewRatings(reg)
		if err := Rebuild(ctx, store, nil, r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	disputed := play("ann", "bob", "ann") // bob wins
	play("ann", "cid", "cid")             // ann wins: stands whatever the ruling
	after := rebuilt()
	annBefore := after.Of("ann")[0]

	won := dispute.Result{Winners: []int{1}, Reason: "resigned"}
	voided := dispute.Result{Reason: dispute.ReasonVoided, Void: true}
	rule(disputed, 1, dispute.Void, won, voided)
	r := rebuilt()
	if got := r.Of("bob"); len(got) != 0 {
		t.Fatalf("bob, rated by the voided match alone: %+v", got)
	}
	ann := r.Of("ann")
	if len(ann) != 1 || ann[0].Games != 1 || ann[0].Wins != 1 || ann[0].Losses != 0 || math.Abs(ann[0].Rating-(annBefore.Rating+20)) > 1e-9 {
		t.Fatalf("ann after the void: %+v (before it %+v)", ann, annBefore)
	}
	if cid := r.Of("cid"); len(cid) != 1 || cid[0] != after.Of("cid")[0] {
		t.Fatalf("cid, whose match was rated after the disputed one: %+v, was %+v", cid, after.Of("cid"))
	}

	rule(disputed, 2, dispute.Draw, voided, dispute.Result{Winners: []int{}, Reason: dispute.ReasonRuling})
	r = rebuilt()
	bob := r.Of("bob")
	if len(bob) != 1 || bob[0].Games != 1 || bob[0].Draws != 1 || bob[0].Rating != 1400 {
		t.Fatalf("bob after the draw, rated from where both stood: %+v", bob)
	}
	if ann := r.Of("ann")[0]; ann.Games != 2 || ann.Draws != 1 || ann.Wins != 1 {
		t.Fatalf("ann after the draw: %+v", ann)
	}
	if r.Digest() != rebuilt().Digest() {
		t.Fatal("two rebuilds from zero disagree")
	}
}
