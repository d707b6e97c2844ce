package engine_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

func as(player, commandID string) engine.Meta {
	return engine.Meta{CommandID: commandID, Actor: "player:" + player}
}

// A command ID is its sender's: Black's move under the ID White used is played, and
// Black's join under White's join ID seats Black.
func TestCommandIDsAreScopedToTheActor(t *testing.T) {
	e := newEngine(openStore(t))
	ctx := context.Background()
	ack, err := e.Create(ctx, engine.CreateMatch{Game: classic.ID}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id := ack.MatchID
	for seat, p := range []string{"white", "black"} {
		j, err := e.Handle(ctx, id, match.Join{PlayerID: p, Name: p}, as(p, "join"))
		if err != nil || j.Duplicate {
			t.Fatalf("%s's join under the shared ID %q: %+v, %v", p, "join", j, err)
		}
		snap, _ := e.Match(ctx, id)
		if snap.State.SeatOf(p) != seat {
			t.Fatalf("%s sits at %d, want %d", p, snap.State.SeatOf(p), seat)
		}
	}
	last := int64(0)
	for _, m := range []struct{ player, move string }{{"white", "e4"}, {"black", "e5"}} {
		a, err := e.Handle(ctx, id, move(m.player, m.move), as(m.player, "move-1"))
		if err != nil || a.Duplicate || a.FirstVersion <= last {
			t.Fatalf("%s's %s under the shared ID %q: %+v, %v", m.player, m.move, "move-1", a, err)
		}
		last = a.LastVersion
	}
}

// The same command ID from the same actor is a retry when the command is the same (the
// first outcome, Duplicate) and a CONFLICT when it is not, on this node and on another.
func TestACommandIDReusedForAnotherCommandConflicts(t *testing.T) {
	store := openStore(t)
	e, other := newEngine(store), newEngine(store)
	ctx := context.Background()
	id := seated(t, e)
	first, err := e.Handle(ctx, id, move("white", "e4"), as("white", "k"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []*engine.Engine{e, other} {
		again, err := n.Handle(ctx, id, move("white", "e4"), as("white", "k"))
		if err != nil || !again.Duplicate || again.LastVersion != first.LastVersion {
			t.Fatalf("a retry: %+v, %v; first %+v", again, err, first)
		}
		_, err = n.Handle(ctx, id, move("white", "d4"), as("white", "k"))
		if game.CodeOf(err) != game.Conflict || !strings.Contains(err.Error(), "already used for a different command") {
			t.Fatalf("another move under the same ID: %v, want CONFLICT", err)
		}
		_, err = n.Handle(ctx, id, match.Resign{PlayerID: "white"}, as("white", "k"))
		if game.CodeOf(err) != game.Conflict {
			t.Fatalf("a resignation under a move's ID: %v, want CONFLICT", err)
		}
	}
	snap, _ := e.Match(ctx, id)
	if snap.Version != first.LastVersion {
		t.Fatalf("the refused commands changed the match: version %d, was %d", snap.Version, first.LastVersion)
	}
}

// Anonymous creators share one space of keys: the same key with the same input returns
// the same match; with another input it is a CONFLICT, not the first match.
func TestAnonymousCreateWithAReusedKey(t *testing.T) {
	e := newEngine(openStore(t))
	ctx := context.Background()
	anon := engine.Meta{CommandID: "table-1", Actor: "anonymous"}
	first, err := e.Create(ctx, engine.CreateMatch{Game: classic.ID}, anon)
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.Create(ctx, engine.CreateMatch{Game: classic.ID}, anon)
	if err != nil || !again.Duplicate || again.MatchID != first.MatchID {
		t.Fatalf("a retried creation: %+v, %v; first %+v", again, err, first)
	}
	for _, c := range []engine.CreateMatch{
		{Game: classic.ID, Rated: true},
		{Game: classic.ID, Options: game.Options{"clock": "5+3"}},
	} {
		if _, err := e.Create(ctx, c, anon); game.CodeOf(err) != game.Conflict {
			t.Fatalf("%+v under a used key: %v, want CONFLICT", c, err)
		}
	}
}

// A player who sends a command under the ID the timers once used for its deadline
// ("timeout-<deadline in ns>", computable from the public events) does not stop its flag.
func TestAPlayerCannotPreemptItsTimeout(t *testing.T) {
	store := openStore(t)
	var now atomic.Int64
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	now.Store(start.UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	e := engine.New(engine.Config{Store: store, Games: game.NewRegistry(classic.Rules{}), Now: clock})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	id := timedMatch(ctx, t, e)
	deadline := start.Add(time.Minute)
	for _, key := range []string{fmt.Sprintf("timeout-%d", deadline.UnixNano()), "timeout"} {
		if _, err := e.Handle(ctx, id, match.OfferDraw{PlayerID: "white"}, as("white", key)); err != nil && game.CodeOf(err) == "" {
			t.Fatal(err)
		}
	}
	timers := e.NewTimers()
	timers.Track(id, deadline)
	now.Store(deadline.Add(time.Second).UnixNano())
	go func() { _ = timers.Run(ctx) }()
	waitForTimeout(ctx, t, e, id, nil)
}
