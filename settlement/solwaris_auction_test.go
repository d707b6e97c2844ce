package settlement_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

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
	var now atomic.Int64
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	now.Store(start.UnixNano())
	games := game.NewRegistry(solwaris.Rules{})
	e := engine.New(engine.Config{Store: store, Games: games, Now: func() time.Time { return time.Unix(0, now.Load()) }})
	players := []engine.Player{register(t, e, "Ann"), register(t, e, "Bob")}
	ack, err := e.Create(ctx, engine.CreateMatch{Game: solwaris.ID, By: players[0].ID, Options: game.Options{solwaris.MapOption: "caveau"}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id := ack.MatchID
	for _, p := range players {
		if _, err := e.Handle(ctx, id, match.Join{PlayerID: p.ID, Name: p.Name}, engine.Meta{Actor: "player:" + p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	state := func() (match.State, solwaris.State) {
		t.Helper()
		snap, err := e.Match(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := snap.State.GameState.(solwaris.State)
		return snap.State, s
	}
	// at is the player at seat.
	at := func(seat int) engine.Player {
		m, _ := state()
		if m.SeatOf(players[0].ID) == seat {
			return players[0]
		}
		return players[1]
	}
	// act is the action of the player at seat, one second after the last.
	act := func(seat int, do any) {
		t.Helper()
		now.Add(int64(time.Second))
		p := at(seat)
		if _, err := e.Handle(ctx, id, match.Act{PlayerID: p.ID, Do: do}, engine.Meta{Actor: "player:" + p.ID}); err != nil {
			t.Fatalf("seat %d's %T: %v", seat, do, err)
		}
	}
	act(0, solwaris.ChooseGrimoire{Class: "guerrier"})
	act(1, solwaris.ChooseGrimoire{Class: "arcaniste"})
	act(0, solwaris.PlaceFighter{Cell: "d1"})
	act(1, solwaris.PlaceFighter{Cell: "k12"})
	_, s := state()
	designated := s.Auction.Designated // a team, here the seat of that number
	bidder := 1 - designated
	act(bidder, solwaris.Bid{})
	m, _ := state()
	deadline := m.Deadline(solwaris.Rules{})
	now.Store(deadline.UnixNano())
	if _, err := e.Handle(ctx, id, match.Timeout{Deadline: deadline}, engine.Meta{CommandID: "auction-timeout", Actor: "system"}); err != nil {
		t.Fatal(err)
	}
	m, s = state()
	if s.Phase != solwaris.PhasePlay || s.Auction.Payer != bidder || s.Auction.Price != solwaris.BidStep || s.Fighters[s.Actor].Seat != bidder {
		t.Fatalf("after the timeout: phase %s, auction %+v, fighter %d to act", s.Phase, s.Auction, s.Actor)
	}
	loser := at(designated)
	if _, err := e.Handle(ctx, id, match.Resign{PlayerID: loser.ID}, engine.Meta{Actor: "player:" + loser.ID}); err != nil {
		t.Fatal(err)
	}

	p := settlement.New(e, slog.Default(), settlement.Grace(0))
	if err := projections.Rebuild(ctx, store, nil, p); err != nil {
		t.Fatal(err)
	}
	step(t, store, p)
	for seat := range 2 {
		pl := at(seat)
		want := int64(1000)
		if seat == bidder {
			want -= solwaris.BidStep
		}
		if b, _ := balance(t, e, pl); b != want {
			t.Fatalf("seat %d (%s, the bidder is seat %d): balance %d, want %d", seat, pl.Name, bidder, b, want)
		}
	}
	if v, err := replay.Verify(ctx, store, games, id); err != nil || !v.OK() {
		t.Fatalf("the duel's audit: %+v, %v", v.Problems, err)
	}
	if r, err := replay.VerifyWallets(ctx, store, games); err != nil || !r.OK() || len(r.Pending) != 0 {
		t.Fatalf("the wallets' audit: %+v, %v", r, err)
	}
}
