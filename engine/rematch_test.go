package engine_test

import (
	"context"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/engine"
)

// A fool's mate, then its rematch: asked by Black first, then by White, on two nodes.
func TestRematchTurnsTheSeats(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	nodes := []*engine.Engine{newEngine(store), newEngine(store)}
	id := seated(t, nodes[0])
	if _, err := nodes[0].Rematch(ctx, id, "black", "black", engine.Meta{}); game.CodeOf(err) != game.Conflict {
		t.Fatalf("a rematch of a match still open: %v", err)
	}
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		if _, err := nodes[0].Handle(ctx, id, move([]string{"white", "black"}[i%2], mv), engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := nodes[0].Rematch(ctx, id, "kibitzer", "kibitzer", engine.Meta{}); game.CodeOf(err) != game.Forbidden {
		t.Fatalf("a rematch asked by someone who did not play: %v", err)
	}

	ack, err := nodes[0].Rematch(ctx, id, "black", "black", engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	if ack.MatchID != engine.RematchID(id) || ack.MatchID == id {
		t.Fatalf("the rematch is %s, want %s", ack.MatchID, engine.RematchID(id))
	}
	snap, err := nodes[1].Match(ctx, ack.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.Status != match.Open || snap.State.SeatOf("black") != 0 || snap.State.RematchOf != id || snap.State.Game != "CHESS" {
		t.Fatalf("after Black asked: %+v", snap.State)
	}
	again, err := nodes[1].Rematch(ctx, id, "black", "black", engine.Meta{})
	if err != nil || !again.Duplicate || again.MatchID != ack.MatchID {
		t.Fatalf("Black asking again: %+v %v", again, err)
	}
	if _, err := nodes[1].Rematch(ctx, id, "white", "white", engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	snap, err = nodes[0].Match(ctx, ack.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.Status != match.Live || snap.State.SeatOf("white") != 1 || snap.State.SeatOf("black") != 0 {
		t.Fatalf("after both asked: %+v", snap.State)
	}
	if _, err := nodes[0].Handle(ctx, ack.MatchID, move("black", "e4"), engine.Meta{}); err != nil {
		t.Fatalf("Black, now at seat 0, opens the rematch: %v", err)
	}
}

// Both players ask at the same moment, on two nodes: one rematch, both seated.
func TestRematchAskedByBothAtOnce(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	nodes := []*engine.Engine{newEngine(store), newEngine(store)}
	id := seated(t, nodes[0])
	if _, err := nodes[0].Handle(ctx, id, match.Resign{PlayerID: "white"}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, p := range []string{"white", "black"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = nodes[i].Rematch(ctx, id, p, p, engine.Meta{})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
	}
	snap, err := nodes[0].Match(ctx, engine.RematchID(id))
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.Status != match.Live || snap.State.SeatOf("white") != 1 || snap.State.SeatOf("black") != 0 {
		t.Fatalf("after both asked at once: %+v", snap.State)
	}
}

// The rematch of a four-seat Royale is kept for its four players, each at the seat after
// their old one: a stranger is refused whichever seat it asks for.
func TestRematchOfRoyaleIsKeptForItsPlayers(t *testing.T) {
	ctx := context.Background()
	e := engine.New(engine.Config{Store: openStore(t), Games: game.NewRegistry(sovereignchess.Rules{})})
	ack, err := e.Create(ctx, engine.CreateMatch{Game: sovereignchess.ID, Options: game.Options{"mode": sovereignchess.Royale}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	players := []string{"ann", "bob", "cid", "dee"}
	for _, p := range players {
		if _, err := e.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range players[1:] {
		if _, err := e.Handle(ctx, ack.MatchID, match.Resign{PlayerID: p}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	re, err := e.Rematch(ctx, ack.MatchID, "ann", "ann", engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	for seat := range 4 {
		if _, err := e.Handle(ctx, re.MatchID, match.Join{PlayerID: "mallory", Name: "mallory", Seat: &seat}, engine.Meta{}); game.CodeOf(err) != game.Forbidden {
			t.Fatalf("a stranger asks for seat %d of the rematch: %v", seat, err)
		}
	}
	if _, err := e.Handle(ctx, re.MatchID, match.Join{PlayerID: "mallory", Name: "mallory"}, engine.Meta{}); game.CodeOf(err) != game.Forbidden {
		t.Fatalf("a stranger asks for any seat of the rematch: %v", err)
	}
	for _, p := range players[1:] {
		if _, err := e.Rematch(ctx, ack.MatchID, p, p, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := e.Match(ctx, re.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range players {
		if snap.State.SeatOf(p) != (i+1)%4 {
			t.Errorf("%s sits at seat %d of the rematch, want %d", p, snap.State.SeatOf(p), (i+1)%4)
		}
	}
	if snap.State.Status != match.Live {
		t.Fatalf("the rematch has not started: %s", snap.State.Status)
	}
}
