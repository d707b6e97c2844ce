package settlement_test

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/replay"
	"github.com/arbiter-games/arbiter/settlement"
)

// A daily challenge completed by a match is paid by the settlement process at the match's
// end, the player reading nothing. The node stopped between the end and the payment (no
// process ran): two processes rebuilt from the store after it both find the challenge
// due and pay it, and the store keeps one grant; a third finds nothing due; verify
// re-derives the grant from the match.
func TestAChallengeIsPaidAtTheEndOfItsMatchOnce(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	reg := game.NewRegistry(unfair.Rules{})
	var now time.Time
	e := engine.New(engine.Config{Store: store, Games: reg, Now: func() time.Time { return now }})
	ann, bob := register(t, e, "Ann"), register(t, e, "Bob")
	// A day on which one of Ann's three challenges is a win in UnfairChess: about one in
	// five days, so the search ends within a few.
	var target daily.Challenge
	for d := 0; target.ID == ""; d++ {
		if d == 365 {
			t.Fatal("no day of a year gives Ann a challenge won by one game: is Pick uniform?")
		}
		now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC).AddDate(0, 0, d)
		for _, c := range daily.Pick(daily.Day(now), ann.ID) {
			if c.ID == "unfair-win-1" || c.ID == "unfair-win-quick" {
				target = c
			}
		}
	}
	day := daily.Day(now)
	ack, err := e.Create(ctx, engine.CreateMatch{Game: unfair.ID, By: ann.ID}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id := ack.MatchID
	players := []engine.Player{ann, bob}
	for seat, p := range players {
		if _, err := e.Handle(ctx, id, match.Join{PlayerID: p.ID, Name: p.Name, Seat: &seat}, engine.Meta{Actor: "player:" + p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	for i, mv := range []string{"e2e4", "e7e5"} {
		if _, err := e.Handle(ctx, id, match.Act{PlayerID: players[i].ID, Do: game.Move{Notation: mv}}, engine.Meta{Actor: "player:" + players[i].ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Handle(ctx, id, match.Resign{PlayerID: bob.ID}, engine.Meta{Actor: "player:" + bob.ID}); err != nil {
		t.Fatal(err)
	}
	if w, err := e.ReadWallet(ctx, ann.ID); err != nil || w.Version != 0 {
		t.Fatalf("Ann's wallet before any process ran: %+v, %v", w, err)
	}
	// bootAt is a node rebuilt from the store; shared, its process reads the node's
	// economy model (as serve wires it) rather than fold its own.
	bootAt := func(shared bool) *settlement.Process {
		eng := engine.New(engine.Config{Store: store, Games: reg, Now: func() time.Time { return now }})
		if !shared {
			p := settlement.New(eng, slog.Default(), settlement.Grace(0))
			if err := projections.Rebuild(ctx, store, nil, p); err != nil {
				t.Fatal(err)
			}
			return p
		}
		econ := projections.NewEconomy(reg)
		p := settlement.New(eng, slog.Default(), settlement.Grace(0), settlement.Shared(econ))
		if err := projections.Rebuild(ctx, store, nil, econ, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	first, second := bootAt(false), bootAt(true)
	if n := first.Step(ctx); n == 0 {
		t.Fatal("the first process paid nothing")
	}
	at := head(t, store)
	if n := second.Step(ctx); n == 0 { // it has not seen the first one's grant: it pays again, and the store keeps one
		t.Fatal("the second process found nothing due")
	}
	if head(t, store) != at {
		t.Fatalf("the second process wrote %d event(s)", head(t, store)-at)
	}
	if n := bootAt(true).Step(ctx); n != 0 {
		t.Fatalf("a third process, rebuilt after the payment, did %d thing(s)", n)
	}
	w, err := e.ReadWallet(ctx, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	var paid []string
	var coins int64
	for _, x := range w.Entries {
		if x.Reason == daily.ReasonChallenge {
			paid, coins = append(paid, x.Ref), coins+x.Amount
		}
	}
	if !slices.Contains(paid, day+":"+target.ID) || len(paid) != len(slices.Compact(slices.Sorted(slices.Values(paid)))) || w.State.Balance != 1000+coins {
		t.Fatalf("Ann's wallet after the processes: %+v, want %s paid once", w.Entries, target.ID)
	}
	if bw, _ := e.ReadWallet(ctx, bob.ID); bw.Version != 0 {
		t.Fatalf("Bob, who resigned, was paid: %+v", bw.Entries)
	}
	if r, err := replay.VerifyWallets(ctx, store, reg); err != nil || !r.OK() {
		t.Fatalf("verify: %+v, %v", r, err)
	}
}
