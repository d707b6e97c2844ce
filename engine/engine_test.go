package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/matchstream"
)

func openStore(t testing.TB) eventstore.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "arbiter.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newEngine(store eventstore.Store) *engine.Engine {
	return engine.New(engine.Config{Store: store, Games: game.NewRegistry(classic.Rules{})})
}

// seated creates a chess match on e with white and black seated.
func seated(t *testing.T, e *engine.Engine) string {
	t.Helper()
	ctx := context.Background()
	ack, err := e.Create(ctx, engine.CreateMatch{Game: classic.ID}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"white", "black"} {
		if _, err := e.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	return ack.MatchID
}

func move(player, notation string) match.Command {
	return match.Act{PlayerID: player, Do: game.Move{Notation: notation}}
}

// Two engines on one store are two nodes: they race for the same turn, and the store's
// expected version lets exactly one move through; the loser decides again and is told it
// is not its turn any more.
func TestTwoNodesRaceForOneTurn(t *testing.T) {
	store := openStore(t)
	nodes := []*engine.Engine{newEngine(store), newEngine(store)}
	id := seated(t, nodes[0])
	for _, n := range nodes { // warm both caches at the same version
		if _, err := n.Match(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = nodes[i%2].Handle(context.Background(), id, move("white", []string{"e4", "d4", "c4", "Nf3"}[i%4]), engine.Meta{})
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch game.CodeOf(err) {
		case "":
			if err != nil {
				t.Fatal(err)
			}
			won++
		case game.NotYourTurn:
		default:
			t.Fatalf("unexpected %v", err)
		}
	}
	snap, _ := nodes[1].Match(context.Background(), id)
	if won != 1 || len(classic.Rules{}.MoveList(snap.State.GameState)) != 1 {
		t.Fatalf("%d moves won the race", won)
	}
}

// A command retried on another node returns the first outcome.
func TestCommandIDsAreDedupedAcrossNodes(t *testing.T) {
	store := openStore(t)
	a, b := newEngine(store), newEngine(store)
	id := seated(t, a)
	ctx := context.Background()
	first, err := a.Handle(ctx, id, move("white", "e4"), engine.Meta{CommandID: "w-1"})
	if err != nil || first.Duplicate {
		t.Fatalf("first: %+v %v", first, err)
	}
	again, err := b.Handle(ctx, id, move("white", "e4"), engine.Meta{CommandID: "w-1"})
	if err != nil || !again.Duplicate || again.LastVersion != first.LastVersion {
		t.Fatalf("retry on the other node: %+v %v (first %+v)", again, err, first)
	}
	v, _ := store.StreamVersion(ctx, matchstream.Name(id))
	if v != first.LastVersion {
		t.Fatalf("the retry appended: version %d, want %d", v, first.LastVersion)
	}
	// A create retried with the same command ID is the same match.
	c1, err := a.Create(ctx, engine.CreateMatch{Game: classic.ID, By: "p"}, engine.Meta{CommandID: "new-1"})
	if err != nil {
		t.Fatal(err)
	}
	c2, err := b.Create(ctx, engine.CreateMatch{Game: classic.ID, By: "p"}, engine.Meta{CommandID: "new-1"})
	if err != nil || c2.MatchID != c1.MatchID || !c2.Duplicate {
		t.Fatalf("create retried: %+v vs %+v (%v)", c2, c1, err)
	}
}

// A refused command appends nothing.
func TestRefusalsAppendNothing(t *testing.T) {
	store := openStore(t)
	e := newEngine(store)
	id := seated(t, e)
	ctx := context.Background()
	head, _ := store.HeadPosition(ctx)
	for _, cmd := range []match.Command{move("black", "e5"), move("white", "e5"), move("nobody", "e4"), match.AcceptDraw{PlayerID: "black"}} {
		if _, err := e.Handle(ctx, id, cmd, engine.Meta{}); game.CodeOf(err) == "" {
			t.Fatalf("%+v was accepted: %v", cmd, err)
		}
	}
	if _, err := e.Handle(ctx, "nosuch", move("white", "e4"), engine.Meta{}); game.CodeOf(err) != game.NotFound {
		t.Fatalf("unknown match: %v", err)
	}
	if h, _ := store.HeadPosition(ctx); h != head {
		t.Fatalf("refusals appended %d events", h-head)
	}
}

// The secret seed is stored salted, and players' tokens only as hashes.
func TestSecretsInTheStore(t *testing.T) {
	store := openStore(t)
	e := newEngine(store)
	ctx := context.Background()
	p, token, err := e.RegisterPlayer(ctx, "Ada", "")
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := store.ReadStream(ctx, engine.PlayerStream(p.ID), 0, 0)
	if len(evs) != 1 || !json.Valid(evs[0].Payload) || strings.Contains(string(evs[0].Payload), token[len(p.ID)+1:]) {
		t.Fatalf("the token's secret is stored in clear: %s", evs[0].Payload)
	}
	if got, err := e.Authenticate(ctx, token); err != nil || got.ID != p.ID {
		t.Fatalf("authenticate: %+v %v", got, err)
	}
	for _, bad := range []string{"", "x", p.ID + ".", p.ID + ".00", "nobody." + token[len(p.ID)+1:], token + "0"} {
		if _, err := e.Authenticate(ctx, bad); game.CodeOf(err) != game.Unauthenticated {
			t.Fatalf("token %q: %v", bad, err)
		}
	}
	id := seated(t, e)
	evs, _ = store.ReadStream(ctx, matchstream.Name(id), 0, 0)
	var seed struct{ Salt string }
	if evs[1].Type != "SeedDrawn" || json.Unmarshal(evs[1].Payload, &seed) != nil || len(seed.Salt) != 32 {
		t.Fatalf("the server-only seed is not salted: %s", evs[1].Payload)
	}
}

// A store that fails makes the command fail, and the next command reloads.
func TestStoreFailure(t *testing.T) {
	store := openStore(t)
	e := newEngine(store)
	id := seated(t, e)
	store.Close()
	_, err := e.Handle(context.Background(), id, move("white", "e4"), engine.Meta{})
	if !errors.Is(err, eventstore.ErrClosed) {
		t.Fatalf("a closed store: %v", err)
	}
}

// A node whose cache is behind the stream never refuses on its stale state: Black's reply
// on node A, after White moved on node B, is played, not refused as out of turn.
func TestStaleCacheIsCheckedBeforeARefusal(t *testing.T) {
	store := openStore(t)
	a, b := newEngine(store), newEngine(store)
	id := seated(t, a)
	ctx := context.Background()
	if _, err := b.Handle(ctx, id, move("white", "e4"), engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Handle(ctx, id, move("black", "e5"), engine.Meta{}); err != nil {
		t.Fatalf("Black's reply on the node that missed 1. e4: %v", err)
	}
	// And a stale cache that would accept is caught by the expected version.
	if _, err := a.Handle(ctx, id, move("white", "Nf3"), engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Handle(ctx, id, move("white", "d4"), engine.Meta{}); game.CodeOf(err) != game.NotYourTurn {
		t.Fatalf("node B, two moves behind, let White move twice: %v", err)
	}
}
