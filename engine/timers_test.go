package engine_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/classic"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// Two nodes' timers fire at the same deadline: the turn times out once.
func TestTimersOfTwoNodesTimeOutOnce(t *testing.T) {
	store := openStore(t)
	var now atomic.Int64
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	now.Store(start.UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	nodes := []*engine.Engine{
		engine.New(engine.Config{Store: store, Games: game.NewRegistry(classic.Rules{}), Now: clock}),
		engine.New(engine.Config{Store: store, Games: game.NewRegistry(classic.Rules{}), Now: clock}),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ack, err := nodes[0].Create(ctx, engine.CreateMatch{Game: classic.ID, Options: game.Options{"clock": "1+0"}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"white", "black"} {
		if _, err := nodes[0].Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := nodes[0].Match(ctx, ack.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	deadline := snap.State.GameStatus(snap.Rules).Deadline
	if !deadline.Equal(start.Add(time.Minute)) {
		t.Fatalf("White's deadline %v", deadline)
	}

	now.Store(deadline.Add(time.Second).UnixNano()) // both nodes see the flag fall
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{}, 2)
	for _, n := range nodes {
		timers := n.NewTimers()
		timers.Track(ack.MatchID, deadline)
		go func() { _ = timers.Run(runCtx); done <- struct{}{} }()
	}
	for {
		snap, err = nodes[1].Match(ctx, ack.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		if snap.State.Result != nil || ctx.Err() != nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	<-done
	<-done
	if snap.State.Result == nil || snap.State.Result.Reason != "timeout" || snap.State.Result.Winners[0] != 1 {
		t.Fatalf("after White's flag: %+v", snap.State.Result)
	}
	evs, _ := store.ReadStream(ctx, engine.MatchStream(ack.MatchID), 0, 0)
	flags := 0
	for _, ev := range evs {
		if ev.Type == "FlagFell" {
			flags++
			if ev.Actor != "system" {
				t.Fatalf("a timeout's actor is %q", ev.Actor)
			}
		}
	}
	if flags != 1 {
		t.Fatalf("%d FlagFell events from two nodes' timers", flags)
	}
}
