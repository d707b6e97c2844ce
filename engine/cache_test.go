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
