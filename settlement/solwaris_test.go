package settlement_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
)

// duel is a Solwaris match between Ann and Bob on a real store, played through the
// engine, its clock in the test's hands (a second per action).
type duel struct {
	t       *testing.T
	e       *engine.Engine
	id      string
	players []engine.Player
	now     atomic.Int64
}

// newDuel creates a match of rules with opts on store, and seats Ann and Bob (each join
// holds the stake, if the match has one).
func newDuel(t *testing.T, store eventstore.Store, rules solwaris.Rules, opts game.Options) *duel {
	t.Helper()
	d := &duel{t: t}
	d.now.Store(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	d.e = engine.New(engine.Config{Store: store, Games: game.NewRegistry(rules), Now: func() time.Time { return time.Unix(0, d.now.Load()) }})
	d.players = []engine.Player{register(t, d.e, "Ann"), register(t, d.e, "Bob")}
	ack, err := d.e.Create(context.Background(), engine.CreateMatch{Game: solwaris.ID, By: d.players[0].ID, Options: opts}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	d.id = ack.MatchID
	for _, p := range d.players {
		if _, err := d.e.Handle(context.Background(), d.id, match.Join{PlayerID: p.ID, Name: p.Name}, engine.Meta{Actor: "player:" + p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// state is the match and its game, as the engine folds them.
func (d *duel) state() (match.State, solwaris.State) {
	d.t.Helper()
	snap, err := d.e.Match(context.Background(), d.id)
	if err != nil {
		d.t.Fatal(err)
	}
	s, _ := snap.State.GameState.(solwaris.State)
	return snap.State, s
}

// at is the player at seat.
func (d *duel) at(seat int) engine.Player {
	m, _ := d.state()
	if m.SeatOf(d.players[0].ID) == seat {
		return d.players[0]
	}
	return d.players[1]
}

// act is the action of the player at seat, one second after the last.
func (d *duel) act(seat int, do any) {
	d.t.Helper()
	d.now.Add(int64(time.Second))
	p := d.at(seat)
	if _, err := d.e.Handle(context.Background(), d.id, match.Act{PlayerID: p.ID, Do: do}, engine.Meta{Actor: "player:" + p.ID}); err != nil {
		d.t.Fatalf("seat %d's %T: %v", seat, do, err)
	}
}

// timeout is the engine's timeout at the match's deadline, the clock moved there.
func (d *duel) timeout(name string) {
	d.t.Helper()
	m, _ := d.state()
	deadline := m.Deadline(solwaris.Rules{})
	d.now.Store(deadline.UnixNano())
	if _, err := d.e.Handle(context.Background(), d.id, match.Timeout{Deadline: deadline}, engine.Meta{CommandID: name, Actor: "system"}); err != nil {
		d.t.Fatal(err)
	}
}

// opened is the duel through the grimoires (seat 0 the Guerrier, seat 1 the Arcaniste),
// the placement and an auction that the team not designated wins with one bid, closed
// by its timeout: it returns the bidder's seat, which plays first and pays the bid.
func (d *duel) opened() int {
	d.t.Helper()
	d.act(0, solwaris.ChooseGrimoire{Class: "guerrier"})
	d.act(1, solwaris.ChooseGrimoire{Class: "arcaniste"})
	d.act(0, solwaris.PlaceFighter{Cell: "d1"})
	d.act(1, solwaris.PlaceFighter{Cell: "k12"})
	_, s := d.state()
	bidder := 1 - s.Auction.Designated // a team, here the seat of that number
	d.act(bidder, solwaris.Bid{})
	d.timeout("auction-timeout")
	_, s = d.state()
	if s.Phase != solwaris.PhasePlay || s.Auction.Payer != bidder || s.Auction.Price != solwaris.BidStep || s.Fighters[s.Actor].Seat != bidder {
		d.t.Fatalf("after the auction: phase %s, auction %+v, fighter %d to act", s.Phase, s.Auction, s.Actor)
	}
	return bidder
}
