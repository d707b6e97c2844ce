package settlement_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/replay"
	"github.com/arbiter-games/arbiter/settlement"
)

// A Solwaris auction closed by its timeout after one bid, on a real SQLite store: the
// bidder plays first and alone pays the 100 coins from its wallet, the designated seat,
// which let its 5 s pass, pays nothing; verify re-derives the duel and both wallets.
func TestASolwarisAuctionClosedByTimeoutChargesTheBidderAlone(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	d := newDuel(t, store, solwaris.Rules{}, game.Options{solwaris.MapOption: "caveau"})
	bidder := d.opened()
	loser := d.at(1 - bidder)
	if _, err := d.e.Handle(ctx, d.id, match.Resign{PlayerID: loser.ID}, engine.Meta{Actor: "player:" + loser.ID}); err != nil {
		t.Fatal(err)
	}

	p := settlement.New(d.e, slog.Default(), settlement.Grace(0))
	if err := projections.Rebuild(ctx, store, nil, p); err != nil {
		t.Fatal(err)
	}
	step(t, store, p)
	for seat := range 2 {
		pl := d.at(seat)
		want := int64(1000)
		if seat == bidder {
			want -= solwaris.BidStep
		}
		if b, _ := balance(t, d.e, pl); b != want {
			t.Fatalf("seat %d (%s, the bidder is seat %d): balance %d, want %d", seat, pl.Name, bidder, b, want)
		}
	}
	if v, err := replay.Verify(ctx, store, game.NewRegistry(solwaris.Rules{}), d.id); err != nil || !v.OK() {
		t.Fatalf("the duel's audit: %+v, %v", v.Problems, err)
	}
	if r, err := replay.VerifyWallets(ctx, store, game.NewRegistry(solwaris.Rules{})); err != nil || !r.OK() || len(r.Pending) != 0 {
		t.Fatalf("the wallets' audit: %+v, %v", r, err)
	}
}
