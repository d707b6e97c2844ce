package projections

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// A rated Royale match of four newcomers, won by the last seat standing after three
// resignations: the winner gains what a win against one equal gains (K 40 times 0.5),
// the three others share the loss, and a friendly match changes nothing. Each seat moves
// first: a rated match that ends before every seat has moved is aborted and rates nobody.
func TestRatingsOfAFourPlayerMatch(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	reg := game.NewRegistry(classic.Rules{}, sovereignchess.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: reg})
	players := []string{"ann", "bob", "cid", "dee"}
	for _, rated := range []bool{true, false} {
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: sovereignchess.ID, Options: game.Options{"mode": "ROYALE"}, Rated: rated, By: "ann"}, engine.Meta{CommandID: fmt.Sprint(rated)})
		if err != nil {
			t.Fatal(err)
		}
		for seat, p := range players {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		for range players { // each seat makes its first move: else the match is aborted
			snap, err := eng.Match(ctx, ack.MatchID)
			if err != nil {
				t.Fatal(err)
			}
			seat := snap.State.GameStatus(snap.Rules).ToAct[0]
			first := snap.Rules.(game.Boarded).Board(snap.State.GameState).LegalMoves[0]
			if _, err := eng.Handle(ctx, ack.MatchID, match.Act{PlayerID: players[seat], Do: game.Move{Notation: first}}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range players[:3] {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Resign{PlayerID: p}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := NewRatings()
	if err := Rebuild(ctx, store, nil, r); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"ann": 1400 - 20.0/3, "bob": 1400 - 20.0/3, "cid": 1400 - 20.0/3, "dee": 1420}
	for p, w := range want {
		got := r.Of(p)
		if len(got) != 1 || got[0].Game != sovereignchess.ID || got[0].Games != 1 || math.Abs(got[0].Rating-w) > 1e-9 {
			t.Errorf("%s: %+v, want one rated game at %g", p, got, w)
		}
	}
	if dee := r.Of("dee")[0]; dee.Wins != 1 || dee.Losses != 0 {
		t.Errorf("the winner's record: %+v", dee)
	}
	if ann := r.Of("ann")[0]; ann.Losses != 1 {
		t.Errorf("a loser's record: %+v", ann)
	}
}
