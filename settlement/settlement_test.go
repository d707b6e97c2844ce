package settlement_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/replay"
	"github.com/arbiter-games/arbiter/settlement"
)

// crashing is a store that dies before any append to a match stream while crash is set:
// what a node that stops between a wallet's hold and the match's join leaves behind.
type crashing struct {
	eventstore.Store
	crash atomic.Bool
}

var errCrashed = errors.New("the node stopped")

func (c *crashing) Append(ctx context.Context, stream string, expected int64, evs ...eventstore.Proposed) (eventstore.AppendResult, error) {
	if c.crash.Load() && strings.HasPrefix(stream, "match-") {
		return eventstore.AppendResult{}, errCrashed
	}
	return c.Store.Append(ctx, stream, expected, evs...)
}

func openStore(t *testing.T) eventstore.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "arbiter.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newEngine(store eventstore.Store) *engine.Engine {
	return engine.New(engine.Config{Store: store, Games: game.NewRegistry(classic.Rules{})})
}

// boot is a node starting on store: a fresh engine and process, rebuilt from the store.
func boot(t *testing.T, store eventstore.Store) (*engine.Engine, *settlement.Process) {
	t.Helper()
	e := newEngine(store)
	p := settlement.New(e, slog.Default(), settlement.Grace(0))
	if err := projections.Rebuild(context.Background(), store, nil, p); err != nil {
		t.Fatal(err)
	}
	return e, p
}

// step feeds the process what the store holds beyond its checkpoint, then takes its steps.
func step(t *testing.T, store eventstore.Store, p *settlement.Process) int {
	t.Helper()
	ctx := context.Background()
	evs, err := store.ReadAll(ctx, p.Checkpoint(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if err := p.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	n := p.Step(ctx)
	evs, _ = store.ReadAll(ctx, p.Checkpoint(), 0)
	for _, ev := range evs {
		if err := p.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

func register(t *testing.T, e *engine.Engine, name string) engine.Player {
	t.Helper()
	p, _, err := e.RegisterPlayer(context.Background(), name, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func balance(t *testing.T, e *engine.Engine, p engine.Player) (int64, int) {
	t.Helper()
	w, err := e.Wallet(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	return w.State.Balance, len(w.State.Holds)
}

func stakedMatch(t *testing.T, e *engine.Engine, by engine.Player) string {
	t.Helper()
	ack, err := e.Create(context.Background(), engine.CreateMatch{Game: classic.ID, By: by.ID, Options: game.Options{match.StakeOption: "300"}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	return ack.MatchID
}

func join(e *engine.Engine, id string, p engine.Player) error {
	_, err := e.Handle(context.Background(), id, match.Join{PlayerID: p.ID, Name: p.Name}, engine.Meta{Actor: "player:" + p.ID, CommandID: "join-" + id})
	return err
}

func head(t *testing.T, store eventstore.Store) int64 {
	n, err := store.HeadPosition(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestACrashBetweenTheHoldAndTheJoinIsCompletedAfterARestart(t *testing.T) {
	store := &crashing{Store: openStore(t)}
	e := newEngine(store)
	ann, bob := register(t, e, "Ann"), register(t, e, "Bob")
	id := stakedMatch(t, e, ann)
	if err := join(e, id, ann); err != nil {
		t.Fatal(err)
	}
	store.crash.Store(true)
	if err := join(e, id, bob); !errors.Is(err, errCrashed) {
		t.Fatalf("the join through a stopping node: %v", err)
	}
	store.crash.Store(false)
	if b, holds := balance(t, e, bob); b != 700 || holds != 1 {
		t.Fatalf("after the crash: balance %d, %d open hold(s)", b, holds)
	}

	e2, p := boot(t, store)
	if n := step(t, store, p); n != 1 {
		t.Fatalf("the restarted process took %d steps, want the one join", n)
	}
	snap, err := e2.Match(context.Background(), id)
	if err != nil || snap.State.Status != match.Live || snap.State.SeatOf(bob.ID) != 1 {
		t.Fatalf("after the restart: %s, bob at %d (%v)", snap.State.Status, snap.State.SeatOf(bob.ID), err)
	}
	// The client sends its join again under its command ID: the first outcome, once.
	at := head(t, store)
	if err := join(e2, id, bob); err != nil {
		t.Fatal(err)
	}
	_, p2 := boot(t, store)
	if n := step(t, store, p2); n != 0 || head(t, store) != at {
		t.Fatalf("after a second restart and a retried join: %d steps, %d new events", n, head(t, store)-at)
	}
	if b, holds := balance(t, e2, bob); b != 700 || holds != 1 {
		t.Fatalf("bob: balance %d, %d open hold(s)", b, holds)
	}
}

func TestAJoinRefusedAfterACrashReleasesItsHold(t *testing.T) {
	store := &crashing{Store: openStore(t)}
	e := newEngine(store)
	ann, bob, cid := register(t, e, "Ann"), register(t, e, "Bob"), register(t, e, "Cid")
	id := stakedMatch(t, e, ann)
	if err := join(e, id, ann); err != nil {
		t.Fatal(err)
	}
	store.crash.Store(true)
	if err := join(e, id, bob); !errors.Is(err, errCrashed) {
		t.Fatal(err)
	}
	store.crash.Store(false)
	if err := join(e, id, cid); err != nil { // the last seat goes to another player meanwhile
		t.Fatal(err)
	}
	_, p := boot(t, store)
	if n := step(t, store, p); n != 1 {
		t.Fatalf("%d steps", n)
	}
	if b, holds := balance(t, e, bob); b != 1000 || holds != 0 {
		t.Fatalf("bob after his refused join: balance %d, %d open hold(s)", b, holds)
	}
}

// live is a staked match that Ann and Bob play, on a fresh store.
func live(t *testing.T) (eventstore.Store, *engine.Engine, string, engine.Player, engine.Player) {
	t.Helper()
	store := openStore(t)
	e := newEngine(store)
	ann, bob := register(t, e, "Ann"), register(t, e, "Bob")
	id := stakedMatch(t, e, ann)
	for _, p := range []engine.Player{ann, bob} {
		if err := join(e, id, p); err != nil {
			t.Fatal(err)
		}
	}
	return store, e, id, ann, bob
}

func TestACrashBetweenTheEndAndTheSettlementPaysOnce(t *testing.T) {
	ctx := context.Background()
	store, e, id, ann, bob := live(t)
	// No process runs: the node stopped right after MatchEnded.
	if _, err := e.Handle(ctx, id, match.Resign{PlayerID: ann.ID}, engine.Meta{Actor: "player:" + ann.ID}); err != nil {
		t.Fatal(err)
	}
	if b, _ := balance(t, e, bob); b != 700 {
		t.Fatalf("bob before the settlement: %d", b)
	}
	_, p := boot(t, store)
	if n := step(t, store, p); n != 2 {
		t.Fatalf("the restarted process took %d steps, want two settlements", n)
	}
	check := func(when string) {
		t.Helper()
		if a, holds := balance(t, e, ann); a != 700 || holds != 0 {
			t.Fatalf("%s: ann %d with %d hold(s), want 700", when, a, holds)
		}
		if b, holds := balance(t, e, bob); b != 1300 || holds != 0 {
			t.Fatalf("%s: bob %d with %d hold(s), want 1300", when, b, holds)
		}
	}
	check("settled")
	at := head(t, store)
	// The same steps again: by a second restarted process, and by hand.
	_, p2 := boot(t, store)
	if n := step(t, store, p2); n != 0 {
		t.Fatalf("a second restart took %d steps", n)
	}
	snap, _ := e.Match(ctx, id)
	for seat, s := range match.Settlement(snap.Rules, snap.State) {
		if err := e.SettleHold(ctx, snap.State.Seats[seat].PlayerID, s.Hold, s.Charged, s.Won); err != nil {
			t.Fatal(err)
		}
	}
	if head(t, store) != at {
		t.Fatalf("settling again wrote %d event(s)", head(t, store)-at)
	}
	check("settled twice")
}

func TestOneSeatSettledBeforeTheCrashTheOtherAfter(t *testing.T) {
	ctx := context.Background()
	store, e, id, ann, bob := live(t)
	// A draw by agreement: nothing moves but the holds come back.
	for _, c := range []match.Command{match.OfferDraw{PlayerID: ann.ID}, match.AcceptDraw{PlayerID: bob.ID}} {
		if _, err := e.Handle(ctx, id, c, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	snap, _ := e.Match(ctx, id)
	first := match.Settlement(snap.Rules, snap.State)[0]
	if err := e.SettleHold(ctx, ann.ID, first.Hold, first.Charged, first.Won); err != nil {
		t.Fatal(err)
	}
	_, p := boot(t, store)
	if n := step(t, store, p); n != 1 {
		t.Fatalf("%d steps, want bob's settlement alone", n)
	}
	for _, pl := range []engine.Player{ann, bob} {
		if b, holds := balance(t, e, pl); b != 1000 || holds != 0 {
			t.Fatalf("%s after a draw: %d, %d hold(s)", pl.Name, b, holds)
		}
	}
}

func TestAVacatedSeatIsReleased(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	e, p := boot(t, store)
	ann, bob := register(t, e, "Ann"), register(t, e, "Bob")
	id := stakedMatch(t, e, ann)
	if err := join(e, id, bob); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Handle(ctx, id, match.Unseat{PlayerID: bob.ID}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	if n := step(t, store, p); n != 1 {
		t.Fatalf("%d steps", n)
	}
	if b, holds := balance(t, e, bob); b != 1000 || holds != 0 {
		t.Fatalf("bob after leaving: %d, %d hold(s)", b, holds)
	}
}

// verify re-derives the store's wallets.
func verify(t *testing.T, store eventstore.Store) replay.WalletReport {
	t.Helper()
	r, err := replay.VerifyWallets(context.Background(), store, game.NewRegistry(classic.Rules{}))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestVerifyRederivesTheWalletsAndTheirSettlements(t *testing.T) {
	ctx := context.Background()
	store, e, id, ann, bob := live(t)
	if r := verify(t, store); !r.OK() || r.Wallets != 2 || r.Holds != 2 || r.Matches != 1 || len(r.Pending) != 0 {
		t.Fatalf("a live staked match: %+v", r)
	}
	if _, err := e.Handle(ctx, id, match.Resign{PlayerID: bob.ID}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	if r := verify(t, store); !r.OK() || len(r.Pending) != 2 {
		t.Fatalf("a finished match not settled yet: %+v", r)
	}
	// A settlement that pays Ann more than the result says is caught.
	snap, _ := e.Match(ctx, id)
	s := match.Settlement(snap.Rules, snap.State)
	if s[0].Won != 300 || s[1].Charged != 300 {
		t.Fatalf("settlement %+v", s)
	}
	if err := e.SettleHold(ctx, ann.ID, s[0].Hold, 0, 1000); err != nil {
		t.Fatal(err)
	}
	if err := e.SettleHold(ctx, bob.ID, s[1].Hold, s[1].Charged, s[1].Won); err != nil {
		t.Fatal(err)
	}
	r := verify(t, store)
	if r.OK() || len(r.Problems) != 2 || !strings.Contains(r.Problems[0], "paying 1000; the result says 0 and 300") || !strings.Contains(r.Problems[1], "coins were made or lost") {
		t.Fatalf("a forged settlement: %+v", r)
	}
}

func TestVerifyPassesWhatTheProcessSettled(t *testing.T) {
	ctx := context.Background()
	store, e, id, ann, _ := live(t)
	if _, err := e.Handle(ctx, id, match.Resign{PlayerID: ann.ID}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	_, p := boot(t, store)
	step(t, store, p)
	if r := verify(t, store); !r.OK() || len(r.Pending) != 0 || r.Holds != 2 {
		t.Fatalf("after the process: %+v", r)
	}
}
