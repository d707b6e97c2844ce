package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// twinWindows is a game made for the timers' contract: its setup opens two windows that
// close at one instant, and each Timeout closes one of them, so that after the first
// timeout the match's deadline is still where it was. Ajedrez Mágico's doubles does this
// when both boards' reaction windows end together; the game here has nothing else, so a
// failure can only be the timers'.
type twinWindows struct{}

type twinState struct {
	Open     int
	Deadline time.Time
}

type windowsOpened struct{ Deadline time.Time }
type windowClosed struct{}

func (windowsOpened) EventType() string { return "WindowsOpened" }
func (windowClosed) EventType() string  { return "WindowClosed" }

func (twinWindows) Info() game.Info {
	return game.Info{ID: "TWIN_WINDOWS", Name: "Twin windows", RulesVersion: "test-1"}
}
func (twinWindows) Plan(game.Options) (game.Plan, error) { return game.Plan{Seats: 2}, nil }
func (twinWindows) Setup(s game.Setup) ([]game.Emitted, error) {
	return game.PublicEvents(windowsOpened{Deadline: s.At.Add(time.Minute)}), nil
}
func (twinWindows) Decide(st game.State, a game.Action) ([]game.Emitted, error) {
	s := st.(twinState)
	tm, ok := a.Do.(game.Timeout)
	if !ok {
		return nil, game.Reject(game.BadInput, "only the timers act here")
	}
	if s.Open == 0 || !tm.Deadline.Equal(s.Deadline) {
		return nil, game.Reject(game.Conflict, "nothing is due at %s", tm.Deadline)
	}
	return game.PublicEvents(windowClosed{}), nil
}
func (twinWindows) Evolve(st game.State, e game.Event) game.State {
	s, _ := st.(twinState)
	switch e := e.(type) {
	case windowsOpened:
		s = twinState{Open: 2, Deadline: e.Deadline}
	case windowClosed:
		s.Open--
	}
	return s
}
func (twinWindows) Status(st game.State) game.Status {
	s, _ := st.(twinState)
	if s.Open == 0 {
		return game.Status{Over: true, Outcome: game.Outcome{Reason: "timeout"}}
	}
	return game.Status{ToAct: []int{0, 1}, Deadline: s.Deadline}
}
func (twinWindows) Events() *game.Codec {
	c := game.NewCodec()
	game.Register[windowsOpened](c, 1)
	game.Register[windowClosed](c, 1)
	return c
}

// Two timed things due at one instant both time out: the first timeout leaves the
// match's deadline unchanged, and the timers arm it again (a fired alarm is no longer
// queued) under a new command ID (the second timeout is not answered from the first one's
// record). With a read side that tracks the match's deadline after each of its events, as
// a node's does, and with one that never tracks it again: the timers then follow the
// engine's own deadline after each timeout.
func TestTwoThingsDueAtOneInstantBothTimeOut(t *testing.T) {
	for _, readSide := range []bool{true, false} {
		t.Run(map[bool]string{true: "tracked", false: "untracked"}[readSide], func(t *testing.T) {
			twinTimeouts(t, readSide)
		})
	}
}

func twinTimeouts(t *testing.T, readSide bool) {
	store := openStore(t)
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	now := start
	e := engine.New(engine.Config{Store: store, Games: game.NewRegistry(classic.Rules{}, twinWindows{}),
		Now: func() time.Time { return now }})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ack, err := e.Create(ctx, engine.CreateMatch{Game: "TWIN_WINDOWS"}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"left", "right"} {
		if _, err := e.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := e.Match(ctx, ack.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	deadline := snap.State.Deadline(snap.Rules)
	if !deadline.Equal(start.Add(time.Minute)) {
		t.Fatalf("deadline %v, want a minute after the start", deadline)
	}
	now = deadline.Add(time.Second) // set before the timers run: they read it from here on

	timers := e.NewTimers()
	timers.Track(ack.MatchID, deadline)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { _ = timers.Run(runCtx); close(done) }()
	defer func() { stop(); <-done }()

	seen := snap.Version
	for snap.State.Result == nil {
		if ctx.Err() != nil {
			t.Fatalf("the match is stuck at version %d with %d window(s) open past the deadline",
				snap.Version, snap.State.GameState.(twinState).Open)
		}
		time.Sleep(5 * time.Millisecond)
		if snap, err = e.Match(ctx, ack.MatchID); err != nil {
			t.Fatal(err)
		}
		if readSide && snap.Version != seen {
			seen = snap.Version
			timers.Track(ack.MatchID, snap.State.Deadline(snap.Rules))
		}
	}
	if closed := timedOut(ctx, t, store, ack.MatchID, "WindowClosed"); closed != 2 {
		t.Fatalf("%d windows closed, want 2", closed)
	}
}
