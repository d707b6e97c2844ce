package sovereignchess_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
)

// Matches on the clock through the engine, their time read from a fake clock: the first
// seat to act moves, then nobody does. The engine's scheduler, told each new deadline as
// a read model would be, times the seats out one after the other: in a two-player game
// the chooser's flag falls during the opening choice and the first mover wins; in Royale
// three flags fall, each seat leaving the game as if it withdrew, and the first mover is
// the last king standing. replay.Verify accepts both streams.
func TestFlagsFallThroughTheEngine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   game.Options
		flags  int
		reason string
		winner func(sovereignchess.State) int
	}{
		{"two players", game.Options{"clock": "1+0"}, 1, "timeout",
			func(st sovereignchess.State) int { return st.FirstMover }},
		{"Royale", game.Options{"clock": "1+0", "mode": sovereignchess.Royale}, 3, "last king standing",
			func(st sovereignchess.State) int { return st.Order[0] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newClockTable(t, tc.opts)
			tb.after(10 * time.Second)
			ms, st := tb.snapshot()
			move := game.Move{Notation: sovereignchess.Rules{}.Board(ms.GameState).LegalMoves[0]}
			if _, err := tb.eng.Handle(tb.ctx, tb.id, match.Act{PlayerID: player(st.ToAct[0]), Do: move}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
			ms = tb.timeOut()
			want := []int{tc.winner(ms.GameState.(sovereignchess.State))}
			if ms.Result == nil || ms.Result.Reason != tc.reason || !slices.Equal(ms.Result.Winners, want) {
				t.Fatalf("result %+v, want %v by %s", ms.Result, want, tc.reason)
			}
			report, err := replay.Verify(tb.ctx, tb.store, tb.games, tb.id)
			if err != nil || !report.OK() {
				t.Fatalf("verify: %v %v", err, report.Err())
			}
			evs, err := tb.store.ReadStream(tb.ctx, matchstream.Name(tb.id), 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			flags := 0
			for _, ev := range evs {
				if ev.Type == "FlagFell" {
					flags++
				}
			}
			if flags != tc.flags {
				t.Errorf("%d flags fell, want %d", flags, tc.flags)
			}
		})
	}
}

// clockTable is a match played through an engine whose time moves only when the test
// says, from noon on.
type clockTable struct {
	t     *testing.T
	ctx   context.Context
	noon  time.Time
	now   atomic.Int64 // Unix nanoseconds
	store *memstore.Store
	games *game.Registry
	eng   *engine.Engine
	id    string
}

// player is the player sitting at seat.
func player(seat int) string { return fmt.Sprintf("player-%d", seat) }

// newClockTable creates a match with opts and seats its players, at noon.
func newClockTable(t *testing.T, opts game.Options) *clockTable {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	tb := &clockTable{t: t, ctx: ctx, noon: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), store: memstore.New(),
		games: game.NewRegistry(sovereignchess.Rules{})}
	tb.after(0)
	tb.eng = engine.New(engine.Config{Store: tb.store, Games: tb.games, Now: func() time.Time { return time.Unix(0, tb.now.Load()) }})
	ack, err := tb.eng.Create(ctx, engine.CreateMatch{Game: sovereignchess.ID, Options: opts}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	tb.id = ack.MatchID
	plan, _ := sovereignchess.Rules{}.Plan(opts)
	for seat := range plan.Seats {
		if _, err := tb.eng.Handle(ctx, tb.id, match.Join{PlayerID: player(seat), Name: player(seat)}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	return tb
}

// after sets the engine's time to d after noon.
func (tb *clockTable) after(d time.Duration) { tb.now.Store(tb.noon.Add(d).UnixNano()) }

// snapshot is the match now, and its game's status.
func (tb *clockTable) snapshot() (match.State, game.Status) {
	tb.t.Helper()
	snap, err := tb.eng.Match(tb.ctx, tb.id)
	if err != nil {
		tb.t.Fatal(err)
	}
	return snap.State, snap.State.GameStatus(sovereignchess.Rules{})
}

// timeOut lets nobody act: it runs the engine's timers, telling them each deadline the
// game announces and moving the time just past it, until the match is over.
func (tb *clockTable) timeOut() match.State {
	tb.t.Helper()
	timers := tb.eng.NewTimers()
	ctx, stop := context.WithCancel(tb.ctx)
	done := make(chan struct{})
	go func() { _ = timers.Run(ctx); close(done) }()
	defer func() { stop(); <-done }()
	ms, st := tb.snapshot()
	for ms.Status == match.Live && tb.ctx.Err() == nil {
		deadline := st.Deadline
		tb.now.Store(deadline.Add(time.Millisecond).UnixNano())
		timers.Track(tb.id, deadline)
		for ms.Status == match.Live && st.Deadline.Equal(deadline) && tb.ctx.Err() == nil {
			time.Sleep(2 * time.Millisecond)
			ms, st = tb.snapshot()
		}
	}
	return ms
}

// A Royale seat that resigns on its turn through the engine withdraws at the time of its
// resignation: the next seat's clock starts then, and replay.Verify accepts the stream,
// as it does the same stream stored before withdrawals recorded their time, but not one
// whose withdrawal records another time.
func TestRoyaleResignationOnTheClockThroughTheEngine(t *testing.T) {
	tb := newClockTable(t, game.Options{"clock": "1+0", "mode": sovereignchess.Royale})
	tb.after(10 * time.Second)
	_, st := tb.snapshot()
	resigner := st.ToAct[0]
	if _, err := tb.eng.Handle(tb.ctx, tb.id, match.Resign{PlayerID: player(resigner)}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	ms, st := tb.snapshot()
	if want := tb.noon.Add(70 * time.Second); ms.Status != match.Live || !st.Deadline.Equal(want) || slices.Contains(st.ToAct, resigner) {
		t.Fatalf("after seat %d resigned at 12:00:10: %s, %+v; want the next seat to act until %s", resigner, ms.Status, st, want)
	}
	evs, err := tb.store.ReadStream(tb.ctx, matchstream.Name(tb.id), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := slices.IndexFunc(evs, func(ev eventstore.Event) bool { return ev.Type == "PlayerWithdrew" })
	if w < 0 || !strings.Contains(string(evs[w].Payload), `"at":"2026-11-30T12:00:10Z"`) {
		t.Fatalf("the withdrawal as stored: %+v", evs[w:])
	}
	if r := replay.VerifyEvents(tb.games, evs[0].Stream, evs); !r.OK() {
		t.Fatalf("verify: %v", r.Err())
	}
	// The payload changed, the hash chain breaks: the rules' verdict is what is checked.
	rules := func(payload string) []replay.Problem {
		forged := slices.Clone(evs)
		forged[w].Payload = []byte(payload)
		var out []replay.Problem
		for _, p := range replay.VerifyEvents(tb.games, evs[0].Stream, forged).Problems {
			if p.Check != replay.CheckChain {
				out = append(out, p)
			}
		}
		return out
	}
	old := strings.Replace(string(evs[w].Payload), `,"at":"2026-11-30T12:00:10Z"`, "", 1)
	if ps := rules(old); len(ps) > 0 || old == string(evs[w].Payload) {
		t.Errorf("the withdrawal stored without its time %s: %v", old, ps)
	}
	if ps := rules(strings.Replace(string(evs[w].Payload), "12:00:10Z", "12:00:05Z", 1)); len(ps) == 0 || ps[0].Check != replay.CheckRules || ps[0].Version != evs[w].Version {
		t.Errorf("a withdrawal that records another time: %v", ps)
	}
}

// A Royale seat whose flag fell is out of the match as a resigned one is: it can no
// longer offer a draw nor hold one up, and the others agree one among themselves,
// whether they agree after the flag fell or only its acceptance was awaited. Both
// streams verify.
func TestRoyaleDrawWithoutTheSeatOutOnTime(t *testing.T) {
	for _, early := range []bool{false, true} {
		tb := newClockTable(t, game.Options{"clock": "1+0", "mode": sovereignchess.Royale})
		_, st := tb.snapshot()
		flagged := st.ToAct[0]
		var others []int
		for seat := range 4 {
			if seat != flagged {
				others = append(others, seat)
			}
		}
		do := func(cmd match.Command) error {
			_, err := tb.eng.Handle(tb.ctx, tb.id, cmd, engine.Meta{})
			return err
		}
		must := func(seat int, cmd match.Command) {
			t.Helper()
			if err := do(cmd); err != nil {
				t.Fatalf("seat %d %T: %v", seat, cmd, err)
			}
		}
		if early { // the offer and two acceptances come first: the flagged seat's is awaited
			must(others[0], match.OfferDraw{PlayerID: player(others[0])})
			must(others[1], match.AcceptDraw{PlayerID: player(others[1])})
			must(others[2], match.AcceptDraw{PlayerID: player(others[2])})
		}
		tb.after(61 * time.Second)
		must(-1, match.Timeout{Deadline: st.Deadline})
		ms, st := tb.snapshot()
		if !early {
			if ms.Status != match.Live || !slices.Equal(st.Out, []int{flagged}) || !slices.Equal(ms.Playing(sovereignchess.Rules{}), others) {
				t.Fatalf("after seat %d's flag fell: %s, %+v, playing %v", flagged, ms.Status, st, ms.Playing(sovereignchess.Rules{}))
			}
			for _, cmd := range []match.Command{match.OfferDraw{PlayerID: player(flagged)}, match.Resign{PlayerID: player(flagged)}} {
				if err := do(cmd); game.CodeOf(err) != game.Forbidden {
					t.Fatalf("seat %d, out on time, %T: %v", flagged, cmd, err)
				}
			}
			must(others[0], match.OfferDraw{PlayerID: player(others[0])})
			must(others[1], match.AcceptDraw{PlayerID: player(others[1])})
			if ms, _ = tb.snapshot(); ms.Status != match.Live {
				t.Fatalf("one acceptance of two ended the match: %+v", ms.Result)
			}
			must(others[2], match.AcceptDraw{PlayerID: player(others[2])})
			ms, _ = tb.snapshot()
		}
		if ms.Status != match.Finished || ms.Result.Reason != "agreement" || len(ms.Result.Winners) != 0 {
			t.Fatalf("early offer %v: the match is %s, %+v", early, ms.Status, ms.Result)
		}
		if r, err := replay.Verify(tb.ctx, tb.store, tb.games, tb.id); err != nil || !r.OK() {
			t.Fatalf("verify: %v %v", err, r.Err())
		}
	}
}
