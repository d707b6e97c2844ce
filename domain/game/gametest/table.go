package gametest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
)

// Noon is when every table's clock starts, and the Setup time of SetupIsDeterministic.
var Noon = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// Table is one match of a game played through the engine on the in-memory store, its
// time moved only by the test, every seat taken by Player(seat). The suite plays its
// matches at tables; a game's own tests use one for what only a whole match shows (a
// flag that falls, a forged stream the verifier must refuse).
type Table struct {
	T      testing.TB
	Ctx    context.Context
	Store  *memstore.Store
	Games  *game.Registry
	Engine *engine.Engine
	Rules  game.Rules
	ID     string // the match's ID
	// Creator is the registered player who created a staked match ("" for another): the
	// engine has it prove a wallet that covers the stake.
	Creator string
	now     time.Time
}

// NewTable creates a match of rules with opts, its randomness drawn from seed, and seats
// every player, at Noon. A staked match is created, as the engine demands, by a registered
// player whose wallet covers the stake (Creator); the seats are still Player(seat)'s.
func NewTable(t testing.TB, rules game.Rules, opts game.Options, seed uint64) *Table {
	t.Helper()
	tb := &Table{T: t, Ctx: context.Background(), Store: memstore.New(), Games: game.NewRegistry(rules), Rules: rules, now: Noon}
	var key [32]byte
	copy(key[:], fmt.Sprintf("gametest %d", seed))
	tb.Engine = engine.New(engine.Config{Store: tb.Store, Games: tb.Games, Random: rand.NewChaCha8(key),
		Now: func() time.Time { return tb.now }})
	create := engine.CreateMatch{Game: rules.Info().ID, Options: opts}
	if stake, err := match.Stake(opts); err == nil && stake > 0 {
		p, _, err := tb.Engine.RegisterPlayer(tb.Ctx, "gametest creator", "")
		if err != nil {
			t.Fatalf("register the creator of a staked match: %v", err)
		}
		create.By, tb.Creator = p.ID, p.ID
	}
	ack, err := tb.Engine.Create(tb.Ctx, create, engine.Meta{})
	if err != nil {
		t.Fatalf("create a match with %v: %v", opts, err)
	}
	tb.ID = ack.MatchID
	plan, err := rules.Plan(opts)
	if err != nil {
		t.Fatal(err)
	}
	stake, ceiling := match.SeatFunds(rules, opts)
	for seat := range plan.Seats {
		join := match.Join{PlayerID: Player(seat), Name: Player(seat)}
		if match.Funded(rules, opts) {
			// A match that moves coins seats players through holds on their wallets:
			// the table funds each seat as if its player's balance covered it all.
			join.Funds = &match.Funds{Hold: fmt.Sprintf("gametest-hold-%d", seat), Amount: stake + ceiling}
		}
		tb.Must(join)
	}
	return tb
}

// Player is the player who sits at seat.
func Player(seat int) string { return fmt.Sprintf("player-%d", seat) }

// Now is the table's time.
func (tb *Table) Now() time.Time { return tb.now }

// After sets the table's time to d after Noon.
func (tb *Table) After(d time.Duration) { tb.now = Noon.Add(d) }

// Wait moves the table's time on by d.
func (tb *Table) Wait(d time.Duration) { tb.now = tb.now.Add(d) }

// Snapshot is the match now, and its game's status.
func (tb *Table) Snapshot() (match.State, game.Status) {
	tb.T.Helper()
	snap, err := tb.Engine.Match(tb.Ctx, tb.ID)
	if err != nil {
		tb.T.Fatal(err)
	}
	return snap.State, snap.State.GameStatus(tb.Rules)
}

// Do submits a command.
func (tb *Table) Do(cmd match.Command) error {
	_, err := tb.Engine.Handle(tb.Ctx, tb.ID, cmd, engine.Meta{})
	return err
}

// Must submits a command that must be accepted.
func (tb *Table) Must(cmd match.Command) {
	tb.T.Helper()
	if err := tb.Do(cmd); err != nil {
		tb.T.Fatalf("%T %+v: %v", cmd, cmd, err)
	}
}

// Act has seat do something, and fails the test when it is refused.
func (tb *Table) Act(seat int, do any) {
	tb.T.Helper()
	tb.Must(match.Act{PlayerID: Player(seat), Do: do})
}

// TimeOut lets nobody act: it moves the time just past each deadline the game
// announces and submits the timeout, as the engine's scheduler does, until the match is
// over or the game announces no deadline.
func (tb *Table) TimeOut() match.State {
	tb.T.Helper()
	ms, st := tb.Snapshot()
	for ms.Status == match.Live && !st.Deadline.IsZero() {
		tb.passDeadline(st.Deadline)
		tb.Timeout(st.Deadline)
		ms, st = tb.Snapshot()
	}
	return ms
}

// passDeadline moves the time just past deadline, unless it is later already: the
// table's time never goes back.
func (tb *Table) passDeadline(deadline time.Time) {
	if past := deadline.Add(time.Millisecond); tb.now.Before(past) {
		tb.now = past
	}
}

// Timeout submits the timeout of deadline as the engine's scheduler does, and fails the
// test when it is refused.
func (tb *Table) Timeout(deadline time.Time) {
	tb.T.Helper()
	if _, err := tb.Engine.Handle(tb.Ctx, tb.ID, match.Timeout{Deadline: deadline}, engine.Meta{Actor: "system"}); err != nil {
		tb.T.Fatalf("the timeout of %s: %v", deadline, err)
	}
}

// Play has the seats to act play act's choices until the match is over, and returns how
// many actions it took; it fails the test after maxActions.
func (tb *Table) Play(rng *rand.Rand, act func(rng *rand.Rand, st game.State, seat int) any, maxActions int) int {
	tb.T.Helper()
	ms, st := tb.Snapshot()
	n := 0
	for ; ms.Status == match.Live; n++ {
		if n == maxActions {
			tb.T.Fatalf("the match has not ended after %d actions", n)
		}
		seat := st.ToAct[0]
		tb.Act(seat, act(rng, ms.GameState, seat))
		ms, st = tb.Snapshot()
	}
	return n
}

// Events is the match's stream as stored.
func (tb *Table) Events() []eventstore.Event {
	tb.T.Helper()
	evs, err := tb.Store.ReadStream(tb.Ctx, matchstream.Name(tb.ID), 0, 0)
	if err != nil {
		tb.T.Fatal(err)
	}
	return evs
}

// Verify fails the test unless replay.Verify finds the match's stream clean.
func (tb *Table) Verify() replay.Report {
	tb.T.Helper()
	report, err := replay.Verify(tb.Ctx, tb.Store, tb.Games, tb.ID)
	if err != nil || !report.OK() {
		tb.T.Fatalf("verify: %v %v", err, report.Err())
	}
	return report
}

// VerifyEvents verifies a stream of the table's match (forged by the test).
func (tb *Table) VerifyEvents(evs []eventstore.Event) replay.Report {
	return replay.VerifyEvents(tb.Games, matchstream.Name(tb.ID), evs)
}

// Nth is the index in evs of the nth event of type typ, counted from 1, or -1.
func Nth(evs []eventstore.Event, typ string, nth int) int {
	for i, ev := range evs {
		if ev.Type == typ {
			if nth--; nth == 0 {
				return i
			}
		}
	}
	return -1
}

// Forge returns a copy of the stream where the nth event of type typ (counted from 1)
// has field set to value, its chain hashed again from there: a forger who knows how to
// hash, whom only the rules can catch.
func Forge(t testing.TB, evs []eventstore.Event, typ string, nth int, field string, value any) []eventstore.Event {
	t.Helper()
	i := Nth(evs, typ, nth)
	if i < 0 {
		t.Fatalf("no %s number %d", typ, nth)
	}
	var fields map[string]any
	if err := json.Unmarshal(evs[i].Payload, &fields); err != nil {
		t.Fatal(err)
	}
	fields[field] = value
	payload, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	out := slices.Clone(evs)
	out[i].Payload = payload
	return Rehash(out, i)
}

// Rehash hashes the chain of evs again from index i on, in place, and returns evs.
func Rehash(evs []eventstore.Event, i int) []eventstore.Event {
	for j := max(i, 1); j < len(evs); j++ {
		evs[j].PrevHash = evs[j-1].Hash
		evs[j].Hash = eventstore.Hash(evs[j].PrevHash, evs[j])
	}
	if i == 0 && len(evs) > 0 {
		evs[0].Hash = eventstore.Hash(evs[0].PrevHash, evs[0])
		return Rehash(evs, 1)
	}
	return evs
}
