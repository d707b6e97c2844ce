package settlement_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/tollgame"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/replay"
	"github.com/arbiter-games/arbiter/settlement"
)

// A game that charges its seats: each seat holds the stake and a purse up to the game's
// ceiling; at the end the loser pays the stake to the winner and what the game charged
// leaves the economy, which verify accounts for.
func TestAChargingGameIsSettledAndVerified(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	games := game.NewRegistry(tollgame.Rules{})
	e := engine.New(engine.Config{Store: store, Games: games})
	ann, bob := register(t, e, "Ann"), register(t, e, "Bob")
	ack, err := e.Create(ctx, engine.CreateMatch{Game: tollgame.ID, By: ann.ID, Options: game.Options{match.StakeOption: "100"}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id := ack.MatchID
	for _, p := range []engine.Player{ann, bob} {
		if err := join(e, id, p); err != nil {
			t.Fatal(err)
		}
		if b, _ := balance(t, e, p); b != 400 {
			t.Fatalf("%s holds the stake of 100 and a purse of 500 (the game's ceiling): balance %d", p.Name, b)
		}
	}
	for _, c := range []struct {
		who  engine.Player
		move string
	}{{ann, "pay:100"}, {bob, "win"}} {
		if _, err := e.Handle(ctx, id, match.Act{PlayerID: c.who.ID, Do: game.Move{Notation: c.move}}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	p := settlement.New(e, slog.Default(), settlement.Grace(0))
	if err := projections.Rebuild(ctx, store, nil, p); err != nil {
		t.Fatal(err)
	}
	if n := step(t, store, p); n != 2 {
		t.Fatalf("%d steps", n)
	}
	if a, _ := balance(t, e, ann); a != 800 {
		t.Fatalf("Ann lost the stake of 100 and paid 100 to the game: %d, want 800", a)
	}
	if b, _ := balance(t, e, bob); b != 1100 {
		t.Fatalf("Bob won Ann's stake: %d, want 1100", b)
	}
	if m, err := replay.Verify(ctx, store, games, id); err != nil || !m.OK() {
		t.Fatalf("the match's audit: %+v, %v", m.Problems, err)
	}
	r, err := replay.VerifyWallets(ctx, store, games)
	if err != nil || !r.OK() || len(r.Pending) != 0 || r.Holds != 2 {
		t.Fatalf("verify: %+v, %v", r, err)
	}
}
