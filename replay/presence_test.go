package replay_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
)

// clock is a settable server clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// A claim against a player who left verifies; the same stream, re-hashed after a forger
// moved the claim earlier or removed the leaving, does not.
func TestVerifyChecksTheClaimsOfAbsence(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	clk := &clock{now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	e := engine.New(engine.Config{Store: store, Games: registry(), Now: clk.Now})
	ack, err := e.Create(ctx, engine.CreateMatch{Game: "CHESS"}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id := ack.MatchID
	for _, cmd := range []match.Command{
		match.Join{PlayerID: "ann", Name: "Ann"}, match.Join{PlayerID: "bob", Name: "Bob"}, match.Leave{PlayerID: "bob"},
	} {
		if _, err := e.Handle(ctx, id, cmd, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	clk.add(31 * time.Second)
	if _, err := e.Handle(ctx, id, match.ClaimVictory{PlayerID: "ann"}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	stream, evs, at := honestAbandonment(t, store, id)
	early := slices.Clone(evs)
	early[at("Forfeited")].Time = early[at("SeatLeft")].Time.Add(10 * time.Second)
	never := slices.Delete(slices.Clone(evs), at("SeatLeft"), at("SeatLeft")+1)
	for name, forged := range map[string][]eventstore.Event{"claimed after 10 s": early, "never left": never} {
		rehash(forged)
		r := replay.VerifyEvents(registry(), stream, forged)
		if r.OK() || r.Problems[0].Check != replay.CheckLifecycle {
			t.Errorf("%s: %+v", name, r.Problems)
		}
	}
}

// Against the bot the timers' forfeit comes at the bot's wait: the honest stream
// verifies; the same one with the forfeit moved to the human wait does not.
func TestVerifyChecksTheBotsWait(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	clk := &clock{now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	rule := match.DefaultAbandon
	rule.FirstMovesMs = 0 // nobody moves here: no abort for want of first moves
	e := engine.New(engine.Config{Store: store, Games: registry(), Now: clk.Now, Abandon: &rule})
	ack, err := e.Create(ctx, engine.CreateMatch{Game: "CHESS"}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id := ack.MatchID
	for _, cmd := range []match.Command{
		match.Join{PlayerID: "ann", Name: "Ann"}, match.Join{PlayerID: "bot", Name: "Arbiter bot", Bot: true}, match.Leave{PlayerID: "ann"},
	} {
		if _, err := e.Handle(ctx, id, cmd, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := e.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	deadline := snap.State.Deadline(snap.Rules)
	clk.add(deadline.Sub(clk.Now()))
	if _, err := e.Handle(ctx, id, match.Timeout{Deadline: deadline}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	stream, evs, at := honestAbandonment(t, store, id)
	early := slices.Clone(evs)
	early[at("Forfeited")].Time = early[at("SeatLeft")].Time.Add(time.Duration(match.DefaultAbandon.ForfeitAfterMs) * time.Millisecond)
	rehash(early)
	if r := replay.VerifyEvents(registry(), stream, early); r.OK() || r.Problems[0].Check != replay.CheckLifecycle {
		t.Errorf("a forfeit at the human wait against the bot: %+v", r.Problems)
	}
}

// rehash numbers and chains a forged stream again, as a forger with the store would.
func rehash(evs []eventstore.Event) {
	for i := range evs {
		evs[i].Version = int64(i) + 1
		if i > 0 {
			evs[i].PrevHash = evs[i-1].Hash
		}
		evs[i].Hash = eventstore.Hash(evs[i].PrevHash, evs[i])
	}
}

// honestAbandonment reads a match that ended by abandonment, checks that verify accepts it
// as stored, and returns its stream, its events and where the first event of a type is,
// for a test to forge from.
func honestAbandonment(t *testing.T, store eventstore.Store, id string) (string, []eventstore.Event, func(typ string) int) {
	t.Helper()
	stream := matchstream.Name(id)
	evs, err := store.ReadStream(context.Background(), stream, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := replay.VerifyEvents(registry(), stream, evs); !r.OK() || r.Result == nil || r.Result.Reason != "abandonment" {
		t.Fatalf("the honest stream: %+v %+v", r.Problems, r.Result)
	}
	return stream, evs, func(typ string) int {
		return slices.IndexFunc(evs, func(ev eventstore.Event) bool { return ev.Type == typ })
	}
}
