package engine_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/bot"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
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
	if flags := timedOut(ctx, t, store, ack.MatchID, "FlagFell"); flags != 1 {
		t.Fatalf("%d FlagFell events from two nodes' timers", flags)
	}
}

// timedOut counts a match's events of type typ, each of which must be the timers' own.
func timedOut(ctx context.Context, t *testing.T, store eventstore.Store, id, typ string) int {
	t.Helper()
	evs, err := store.ReadStream(ctx, matchstream.Name(id), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range evs {
		if ev.Type == typ {
			n++
			if ev.Actor != "system" {
				t.Fatalf("a timeout's actor is %q", ev.Actor)
			}
		}
	}
	return n
}

// A timeout that fails because the store is down rings again, and only the latest
// deadline of a match is ever submitted.
func TestTimersRetryAndFollowTheLatestDeadline(t *testing.T) {
	store := openStore(t)
	var now atomic.Int64
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	now.Store(start.UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	flaky := &failingStore{Store: store}
	e := engine.New(engine.Config{Store: flaky, Games: game.NewRegistry(classic.Rules{}), Now: clock})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	id := timedMatch(ctx, t, e)
	deadline := start.Add(time.Minute)
	timers := e.NewTimers()
	timers.Track(id, deadline.Add(-time.Hour)) // an old deadline, replaced at once
	timers.Track(id, deadline)

	flaky.down.Store(true)
	now.Store(deadline.UnixNano())
	go func() { _ = timers.Run(ctx) }()
	for flaky.refused.Load() == 0 && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	flaky.down.Store(false)
	// The retry rings a second after the refusal by the clock the timers read once the
	// append failed, which may be after the refusal was counted: the clock moves on a
	// second at a time until the retry has rung and the match has timed out.
	waitForTimeout(ctx, t, e, id, func() { now.Add(int64(time.Second)) })
}

// timedMatch creates a chess match with one minute each on e, and seats white and black.
func timedMatch(ctx context.Context, t *testing.T, e *engine.Engine) string {
	t.Helper()
	ack, err := e.Create(ctx, engine.CreateMatch{Game: classic.ID, Options: game.Options{"clock": "1+0"}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"white", "black"} {
		if _, err := e.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p}, engine.Meta{CommandID: "join", Actor: "player:" + p}); err != nil {
			t.Fatal(err)
		}
	}
	return ack.MatchID
}

// waitForTimeout waits until a match ends on time, and fails if it ends otherwise or not
// before ctx does. tick, if not nil, moves the test's clock on between looks.
func waitForTimeout(ctx context.Context, t *testing.T, e *engine.Engine, id string, tick func()) {
	t.Helper()
	for ctx.Err() == nil {
		snap, err := e.Match(ctx, id)
		if err == nil && snap.State.Result != nil {
			if snap.State.Result.Reason != "timeout" {
				t.Fatalf("result %+v", snap.State.Result)
			}
			return
		}
		if tick != nil {
			tick()
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("match %s never timed out", id)
}

// failingStore refuses appends while down.
type failingStore struct {
	eventstore.Store
	down    atomic.Bool
	refused atomic.Int64
}

func (f *failingStore) Append(ctx context.Context, stream string, expected int64, events ...eventstore.Proposed) (eventstore.AppendResult, error) {
	if f.down.Load() {
		f.refused.Add(1)
		return eventstore.AppendResult{}, errors.New("disk unavailable")
	}
	return f.Store.Append(ctx, stream, expected, events...)
}

// A player who leaves a game against the bot forfeits through the timers at the bot's
// wait (match.DefaultAbandon.BotForfeitAfterMs), not at the human one: a timeout at the
// human wait is refused, and the timers forfeit the player at the bot's.
func TestTimersWaitLongerAgainstTheBot(t *testing.T) {
	store := openStore(t)
	var now atomic.Int64
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	now.Store(start.UnixNano())
	rule := match.DefaultAbandon
	rule.FirstMovesMs = 0 // nobody moves here: no abort for want of first moves
	e := engine.New(engine.Config{Store: store, Games: game.NewRegistry(classic.Rules{}), Abandon: &rule, Now: func() time.Time { return time.Unix(0, now.Load()) }})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ack, err := e.Create(ctx, engine.CreateMatch{Game: classic.ID, By: "ann"}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Handle(ctx, ack.MatchID, match.Join{PlayerID: "ann", Name: "Ann"}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	if _, err := bot.Add(ctx, e, ack.MatchID, "ann", nil, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Handle(ctx, ack.MatchID, match.Leave{PlayerID: "ann"}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	snap, err := e.Match(ctx, ack.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	wait := time.Duration(match.DefaultAbandon.BotForfeitAfterMs) * time.Millisecond
	deadline := snap.State.Deadline(snap.Rules)
	if wait <= time.Duration(match.DefaultAbandon.ForfeitAfterMs)*time.Millisecond || !deadline.Equal(start.Add(wait)) {
		t.Fatalf("Ann's forfeit is due at %s, want %s after she left at %s", deadline, wait, start)
	}
	human := start.Add(time.Duration(match.DefaultAbandon.ForfeitAfterMs) * time.Millisecond)
	now.Store(human.UnixNano())
	if _, err := e.Handle(ctx, ack.MatchID, match.Timeout{Deadline: human}, engine.Meta{}); game.CodeOf(err) != game.Conflict {
		t.Fatalf("a timeout at the human wait: %v", err)
	}

	now.Store(deadline.UnixNano())
	timers := e.NewTimers()
	timers.Track(ack.MatchID, deadline)
	go func() { _ = timers.Run(ctx) }()
	for snap.State.Result == nil && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
		if snap, err = e.Match(ctx, ack.MatchID); err != nil {
			t.Fatal(err)
		}
	}
	if r := snap.State.Result; r == nil || r.Reason != "abandonment" || r.Winners[0] != 1 {
		t.Fatalf("after the bot's wait: %+v", r)
	}
}
