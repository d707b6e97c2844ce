package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// Commands and reads on matches that do not exist, and creations the rules refuse, are
// answered without keeping anything: a caller cannot fill the cache with made-up IDs.
func TestNotFoundLeavesNothingCached(t *testing.T) {
	e := newEngine(openStore(t))
	ctx := context.Background()
	id := seated(t, e)
	before := e.Cached()
	if before != 1 {
		t.Fatalf("%d matches cached after creating one", before)
	}
	for i := range 200 {
		absent := fmt.Sprintf("absent-%d", i)
		if _, err := e.Handle(ctx, absent, move("white", "e4"), engine.Meta{}); game.CodeOf(err) != game.NotFound {
			t.Fatalf("a move on %s: %v, want NOT_FOUND", absent, err)
		}
		if _, err := e.Handle(ctx, absent, match.Join{PlayerID: "p", Name: "p"}, engine.Meta{CommandID: "c"}); game.CodeOf(err) != game.NotFound {
			t.Fatalf("a join of %s: %v, want NOT_FOUND", absent, err)
		}
		if _, err := e.Match(ctx, absent); game.CodeOf(err) != game.NotFound {
			t.Fatalf("reading %s: %v, want NOT_FOUND", absent, err)
		}
		bad := game.Options{"fen": "not a position"}
		if _, err := e.Create(ctx, engine.CreateMatch{Game: classic.ID, Options: bad}, engine.Meta{}); game.CodeOf(err) == "" {
			t.Fatalf("a creation with a bad position: %v, want a rejection", err)
		}
	}
	if n := e.Cached(); n != before {
		t.Fatalf("%d matches cached after commands on absent ones, want %d", n, before)
	}
	if _, err := e.Handle(ctx, id, move("white", "e4"), engine.Meta{}); err != nil {
		t.Fatalf("the real match still plays: %v", err)
	}
}

// A finished match leaves the cache once KeepFinished more have ended, whatever the
// throughput: what its readers need (the first answer to a retry, a CONFLICT for a
// command ID reused, a rematch) is read back from the store, unchanged.
func TestFinishedMatchesLeaveTheCache(t *testing.T) {
	const keep = 2
	e := engine.New(engine.Config{Store: openStore(t), Games: game.NewRegistry(classic.Rules{}), KeepFinished: keep})
	ctx := context.Background()
	live := seated(t, e)
	type played struct {
		id           string
		move, resign engine.Ack
	}
	var done []played
	for range 5 {
		p := played{id: seated(t, e)}
		var err error
		if p.move, err = e.Handle(ctx, p.id, move("white", "e4"), as("white", "m1")); err != nil {
			t.Fatal(err)
		}
		if p.resign, err = e.Handle(ctx, p.id, match.Resign{PlayerID: "black"}, as("black", "r")); err != nil {
			t.Fatal(err)
		}
		done = append(done, p)
		if n := e.Cached(); n != 1+min(len(done), keep) {
			t.Fatalf("%d matches cached with 1 live and %d finished, want %d", n, len(done), 1+min(len(done), keep))
		}
	}
	first := done[0] // it left the cache three matches ago
	for _, retry := range []struct {
		cmd  match.Command
		meta engine.Meta
		want engine.Ack
	}{{move("white", "e4"), as("white", "m1"), first.move}, {match.Resign{PlayerID: "black"}, as("black", "r"), first.resign}} {
		got, err := e.Handle(ctx, first.id, retry.cmd, retry.meta)
		want := retry.want
		want.Duplicate = true
		if err != nil || got != want {
			t.Fatalf("a retry of %T on a match that left the cache: %+v, %v; want its first answer %+v", retry.cmd, got, err, want)
		}
	}
	if _, err := e.Handle(ctx, first.id, move("white", "d4"), as("white", "m1")); game.CodeOf(err) != game.Conflict {
		t.Fatalf("another move under a command ID of a match that left the cache: %v, want CONFLICT", err)
	}
	snap, err := e.Match(ctx, first.id)
	if err != nil || snap.State.Status != match.Finished || snap.Version != first.resign.LastVersion {
		t.Fatalf("reading a match that left the cache: %+v, %v", snap, err)
	}
	if n := e.Cached(); n != 1+keep {
		t.Fatalf("%d matches cached after reading finished ones back, want %d", n, 1+keep)
	}
	rematch, err := e.Rematch(ctx, done[1].id, "black", "black", engine.Meta{})
	if err != nil || rematch.MatchID != match.RematchID(done[1].id) {
		t.Fatalf("a rematch of a match that left the cache: %+v, %v", rematch, err)
	}
	if _, err := e.Handle(ctx, live, move("white", "e4"), engine.Meta{}); err != nil {
		t.Fatalf("the live match plays on: %v", err)
	}
}
