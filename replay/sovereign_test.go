package replay_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/sovereign"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/replay"
)

// A stored two-player Sovereign Chess match in which a defection's forced king move took
// the other king, as the rules recorded it before rulebook-2017.3, fails verify: the
// match is played through the engine up to that defection, its move is rewritten to the
// capture (the hash chain recomputed, as a forger or the old server would have left it),
// and the audit of the rules refuses it.
func TestVerifyRefusesAKingCapturedByADefection(t *testing.T) {
	ctx := context.Background()
	games := game.NewRegistry(classic.Rules{}, sovereignchess.Rules{})
	f := fixture{path: filepath.Join(t.TempDir(), "arbiter.db")}
	store, err := sqlite.Open(ctx, f.path)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(engine.Config{Store: store, Games: games})
	var players [2]string
	for seat := range players {
		p, _, err := eng.RegisterPlayer(ctx, fmt.Sprintf("player %d", seat), "")
		if err != nil {
			t.Fatal(err)
		}
		players[seat] = p.ID
	}
	meta := func(what string, seat int) engine.Meta {
		return engine.Meta{CommandID: what, Actor: "player:" + players[seat]}
	}
	// The slate king on k6 (a yellow square) may defect to yellow and must then leave k6;
	// the black king on j7 stands on a slate square.
	start := "16/16/16/16/16/16/bp15/16/16/9bk6/10sk5/16/16/sp15/16/16 2 b s - 0"
	ack, err := eng.Create(ctx, engine.CreateMatch{Game: sovereignchess.ID, Options: game.Options{"position": start}, By: players[0]}, meta("create", 0))
	if err != nil {
		t.Fatal(err)
	}
	id := ack.MatchID
	for seat, p := range players {
		s := seat
		if _, err := eng.Handle(ctx, id, match.Join{PlayerID: p, Name: fmt.Sprintf("player %d", seat), Seat: &s}, meta(fmt.Sprintf("join%d", seat), seat)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := eng.Handle(ctx, id, match.Act{PlayerID: players[1], Do: game.Move{Notation: "=yk6j7"}}, meta("capture", 1)); game.CodeOf(err) != game.IllegalMove {
		t.Fatalf("=yk6j7 through the engine: %v, want ILLEGAL_MOVE", err)
	}
	if _, err := eng.Handle(ctx, id, match.Act{PlayerID: players[1], Do: game.Move{Notation: "=yk6k5"}}, meta("defect", 1)); err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	if r, err := replay.Verify(ctx, f.open(t), games, id); err != nil || !r.OK() {
		t.Fatalf("the honest match: %v %v", err, r.Problems)
	}
	board, err := sovereign.BoardNotation("bpa10 ykj7 spa3")
	if err != nil {
		t.Fatal(err)
	}
	v := f.versionOf(t, id, "MovePlayed", 1)
	f.forge(t, id, v, func(e map[string]any) {
		e["move"], e["position"] = "=yk6j7", board+" 1 b y - 1"
	})
	r, err := replay.Verify(ctx, f.open(t), games, id)
	if err != nil {
		t.Fatal(err)
	}
	wantProblem(t, r, v, replay.CheckRules, "=yk6j7")
}
