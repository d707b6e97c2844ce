package engine_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// A doubles planning no seat may stall: three of the four seats end it, the fourth says
// nothing, and the engine's timers end it at its deadline (two minutes from the start),
// through a real SQLite store; then the boards' clocks run, the first move's deadline
// being the clock's.
func TestADoublesPlanningEndsAtItsDeadline(t *testing.T) {
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	e, now := stopped(t, magicchess.Rules{}, start)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var players []engine.Player
	for _, name := range []string{"Ann", "Bob", "Cid", "Dee"} {
		players = append(players, register(t, e, name))
	}
	ack, err := e.Create(ctx, engine.CreateMatch{Game: magicchess.ID, By: players[0].ID, Options: game.Options{magicchess.OptionBoards: "2"}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id := ack.MatchID
	for _, p := range players {
		if _, err := join(e, id, p); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range players[:3] {
		if _, err := e.Handle(ctx, id, match.Act{PlayerID: p.ID, Do: game.Choose{Option: "ready"}}, engine.Meta{Actor: "player:" + p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	status := func() (game.Status, time.Time) {
		t.Helper()
		snap, err := e.Match(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return snap.State.GameStatus(snap.Rules), snap.State.Deadline(snap.Rules)
	}
	st, deadline := status()
	if st.Phase != magicchess.Planning || len(st.ToAct) != 1 || !deadline.Equal(start.Add(2*time.Minute)) {
		t.Fatalf("the planning with one seat silent: %+v until %s, want that seat until %s", st, deadline, start.Add(2*time.Minute))
	}
	timers, stop := runTimers(ctx, cancel, e)
	defer stop()
	now.Store(deadline.Add(time.Second).UnixNano())
	timers.Track(id, deadline)
	for st.Phase == magicchess.Planning {
		if ctx.Err() != nil {
			t.Fatalf("the planning's deadline %s never timed out", deadline)
		}
		time.Sleep(5 * time.Millisecond)
		st, _ = status()
	}
	if st, next := status(); st.Phase != "play" || len(st.ToAct) != 2 || !next.After(deadline) {
		t.Fatalf("after the planning: %+v until %s", st, next)
	}
}

// stopped is an engine of rules on a real SQLite store whose clock stands at start until
// the test moves it (now, in Unix nanoseconds).
func stopped(t *testing.T, rules game.Rules, start time.Time) (*engine.Engine, *atomic.Int64) {
	t.Helper()
	now := &atomic.Int64{}
	now.Store(start.UnixNano())
	return engine.New(engine.Config{Store: openStore(t), Games: game.NewRegistry(rules), Now: func() time.Time { return time.Unix(0, now.Load()) }}), now
}

// runTimers runs e's timers until ctx ends; stop cancels ctx and waits for them.
func runTimers(ctx context.Context, cancel context.CancelFunc, e *engine.Engine) (timers *engine.Timers, stop func()) {
	timers = e.NewTimers()
	done := make(chan struct{})
	go func() { _ = timers.Run(ctx); close(done) }()
	return timers, func() { cancel(); <-done }
}
