package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/matchstream"
)

// Solwaris's deadlines are data in its state; the engine's timers read them
// (match.State.Deadline) and submit the timeouts, through a real SQLite store: nobody
// places in 25 s, so the game places both; nobody bids in 5 s, so the first turn is free;
// the first turn lasts 40 s and passes as it stands. Each timeout is the system's, and
// each next deadline runs from when the timeout was recorded.
func TestSolwarisTimeoutsThroughTheEngine(t *testing.T) {
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	e, now := stopped(t, solwaris.Rules{}, start)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ann, bob := register(t, e, "Ann"), register(t, e, "Bob")
	ack, err := e.Create(ctx, engine.CreateMatch{Game: solwaris.ID, By: ann.ID, Options: game.Options{solwaris.MapOption: "caveau"}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id := ack.MatchID
	for _, p := range []engine.Player{ann, bob} {
		if _, err := join(e, id, p); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range []engine.Player{ann, bob} {
		class := []string{"guerrier", "arcaniste"}[i]
		if _, err := e.Handle(ctx, id, match.Act{PlayerID: p.ID, Do: solwaris.ChooseGrimoire{Class: class}}, engine.Meta{Actor: "player:" + p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	// state is the game's state and status now.
	state := func() (solwaris.State, game.Status, time.Time) {
		t.Helper()
		snap, err := e.Match(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := snap.State.GameState.(solwaris.State)
		return s, snap.State.GameStatus(snap.Rules), snap.State.Deadline(snap.Rules)
	}
	// ring lets the clock reach the deadline plus late, and waits until the timers have
	// recorded its timeout (the phase or the fighter to act changed), or ctx ends.
	timers, stop := runTimers(ctx, cancel, e)
	defer stop()
	ring := func(late time.Duration) solwaris.State {
		t.Helper()
		before, _, deadline := state()
		now.Store(deadline.Add(late).UnixNano())
		timers.Track(id, deadline)
		for ctx.Err() == nil {
			s, _, _ := state()
			if s.Phase != before.Phase || s.Actor != before.Actor {
				return s
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatalf("the deadline %s never timed out", deadline)
		return before
	}

	s, st, deadline := state()
	if s.Phase != solwaris.PhasePlacement || !deadline.Equal(start.Add(solwaris.PlacementTime)) || len(st.ToAct) != 2 {
		t.Fatalf("after the grimoires: phase %s until %s, to act %v", s.Phase, deadline, st.ToAct)
	}
	s = ring(time.Second) // the timers ring a second late: the auction's 5 s run from then
	if s.Phase != solwaris.PhaseAuction || !s.Deadline.Equal(start.Add(26*time.Second+solwaris.BidTime)) {
		t.Fatalf("after placement's timeout: phase %s until %s", s.Phase, s.Deadline)
	}
	s = ring(0)
	if s.Phase != solwaris.PhasePlay || s.Actor < 0 || !s.Deadline.Equal(start.Add(31*time.Second+solwaris.TurnTime)) {
		t.Fatalf("after the auction's timeout: phase %s, fighter %d until %s", s.Phase, s.Actor, s.Deadline)
	}
	first, cell := s.Actor, s.Fighters[s.Actor].Cell
	s = ring(0)
	if s.Actor == first || s.Turn != 1 || s.Fighters[first].Cell != cell || s.Fighters[first].HP != s.Fighters[first].MaxHP {
		t.Fatalf("after the first turn's timeout: fighter %d to act in round %d; the first stood %+v", s.Actor, s.Turn, s.Fighters[first])
	}

	evs, err := e.Store().ReadStream(ctx, matchstream.Name(id), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	timedOut := map[string]bool{}
	for _, ev := range evs {
		if ev.Actor != "system" {
			continue
		}
		timedOut[ev.Type] = true
	}
	for _, typ := range []string{"FightersPlaced", "AuctionClosed", "TurnEnded"} {
		if !timedOut[typ] {
			t.Fatalf("no %s recorded by the system's timeout in %d events", typ, len(evs))
		}
	}
	caveau, err := arena.ByID("caveau")
	if err != nil {
		t.Fatal(err)
	}
	for seat, f := range s.Fighters[:2] {
		if side, ok := caveau.Grid.ZoneOf(f.Cell); !ok || int(side) != s.Teams[seat] || !caveau.Grid.Free(f.Cell) {
			t.Fatalf("seat %d placed by the game on %s, not a free cell of its zone", seat, f.Cell)
		}
	}
	if s.Auction.Payer != -1 {
		t.Fatalf("auction %+v: want a free first turn", s.Auction)
	}
}
