package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/projections"
)

// TestProjectionsLiveEqualRebuilt: the read models fed live over the bus end up exactly
// as a rebuild from position zero, and applying the same events again changes nothing.
func TestProjectionsLiveEqualRebuilt(t *testing.T) {
	ctx := context.Background()
	store, err := openStore(ctx, filepath.Join(t.TempDir(), "arbiter.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	a, err := startApp(ctx, store, appConfig{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer a.stop()

	// Three rated games with results of each kind, and one match left open.
	for _, ending := range []func(id string){
		func(id string) { // White mates
			for j, mv := range []string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"} {
				act(t, a.engine, id, []string{"w", "b"}[j%2], move(mv))
			}
		},
		func(id string) { // after each side's first move: else the game is aborted
			act(t, a.engine, id, "w", move("e4"))
			act(t, a.engine, id, "b", move("e5"))
			act(t, a.engine, id, "w", resign)
		},
		func(id string) {
			act(t, a.engine, id, "w", move("d4"))
			act(t, a.engine, id, "b", move("d5"))
			act(t, a.engine, id, "b", offerDraw)
			act(t, a.engine, id, "w", acceptDraw)
		},
	} {
		ack, err := a.engine.Create(ctx, engine.CreateMatch{Game: "CHESS", Rated: true, By: "w"}, engine.Meta{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"w", "b"} {
			act(t, a.engine, ack.MatchID, p, join)
		}
		ending(ack.MatchID)
	}
	last, err := a.engine.Create(ctx, engine.CreateMatch{Game: "CHESS"}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := a.follower.WaitFor(wait, last.LastPosition); err != nil {
		t.Fatal(err)
	}

	matches, ratings := projections.NewMatches(games()), projections.NewRatings(games())
	if err := projections.Rebuild(ctx, store, nil, matches, ratings); err != nil {
		t.Fatal(err)
	}
	if live, rebuilt := a.matches.Digest(), matches.Digest(); live != rebuilt {
		t.Fatalf("matches live %s, rebuilt %s", live, rebuilt)
	}
	if live, rebuilt := a.ratings.Digest(), ratings.Digest(); live != rebuilt {
		t.Fatalf("ratings live %s, rebuilt %s", live, rebuilt)
	}
	if r := ratings.Of("w"); len(r) != 1 || r[0].Games != 3 || r[0].Wins != 1 || r[0].Losses != 1 || r[0].Draws != 1 {
		t.Fatalf("w's record after a win, a loss and a draw: %+v", r)
	}
	// Idempotent: the same events again are ignored.
	before := matches.Digest() + ratings.Digest()
	if err := projections.Rebuild(ctx, store, nil, matches, ratings); err != nil {
		t.Fatal(err)
	}
	if after := matches.Digest() + ratings.Digest(); after != before {
		t.Fatalf("re-applying events changed the projections:\n%s\n%s", before, after)
	}
	open, err := a.matches.List(ctx, projections.Filter{Status: match.Open})
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 1 || open[0].ID != last.MatchID {
		t.Fatalf("the lobby's open matches: %v", open)
	}
}

// act runs a player's command.
func act(t *testing.T, e *engine.Engine, matchID, player string, cmd func(player string) match.Command) {
	t.Helper()
	if _, err := e.Handle(context.Background(), matchID, cmd(player), engine.Meta{}); err != nil {
		t.Fatalf("%s %T: %v", player, cmd(player), err)
	}
}

func move(notation string) func(string) match.Command {
	return func(p string) match.Command { return match.Act{PlayerID: p, Do: game.Move{Notation: notation}} }
}
func resign(p string) match.Command     { return match.Resign{PlayerID: p} }
func offerDraw(p string) match.Command  { return match.OfferDraw{PlayerID: p} }
func acceptDraw(p string) match.Command { return match.AcceptDraw{PlayerID: p} }
func join(p string) match.Command       { return match.Join{PlayerID: p, Name: p} }
