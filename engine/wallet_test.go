package engine_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/matchstream"
)

func register(t *testing.T, e *engine.Engine, name string) engine.Player {
	t.Helper()
	p, _, err := e.RegisterPlayer(context.Background(), name, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func staked(t *testing.T, e *engine.Engine, by engine.Player, stake int) string {
	t.Helper()
	ack, err := e.Create(context.Background(), engine.CreateMatch{Game: classic.ID, By: by.ID, Options: game.Options{match.StakeOption: fmt.Sprint(stake)}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	return ack.MatchID
}

func join(e *engine.Engine, matchID string, p engine.Player) (engine.Ack, error) {
	return e.Handle(context.Background(), matchID, match.Join{PlayerID: p.ID, Name: p.Name}, engine.Meta{Actor: "player:" + p.ID})
}

func balance(t *testing.T, e *engine.Engine, p engine.Player) wallet.State {
	t.Helper()
	w, err := e.Wallet(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	return w.State
}

func TestANewPlayerIsGrantedOnce(t *testing.T) {
	store := openStore(t)
	e := newEngine(store)
	ann := register(t, e, "Ann")
	for range 2 {
		if w, err := e.Wallet(context.Background(), ann.ID); err != nil || w.State.Balance != wallet.StartingGrant || len(w.Entries) != 1 {
			t.Fatalf("wallet %+v, %v: want one grant of %d", w, err, wallet.StartingGrant)
		}
	}
	if _, err := e.Wallet(context.Background(), "nobody"); game.CodeOf(err) != game.NotFound {
		t.Fatalf("the wallet of no player: %v", err)
	}
}

func TestAStakedJoinHoldsThenSeats(t *testing.T) {
	store := openStore(t)
	e := newEngine(store)
	ann, bob := register(t, e, "Ann"), register(t, e, "Bob")
	id := staked(t, e, ann, 300)
	for _, p := range []engine.Player{ann, bob} {
		if _, err := join(e, id, p); err != nil {
			t.Fatal(err)
		}
		w := balance(t, e, p)
		if h, ok := w.OpenHold(id); w.Balance != 700 || !ok || h.Amount != 300 {
			t.Fatalf("%s: balance %d, hold %+v %v", p.Name, w.Balance, h, ok)
		}
	}
	snap, err := e.Match(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.Status != match.Live || snap.State.Funds[0] != 300 || snap.State.Funds[1] != 300 || snap.State.Holds[0] == "" {
		t.Fatalf("status %s funds %v holds %v", snap.State.Status, snap.State.Funds, snap.State.Holds)
	}
	// A join sent again by a seated player answers the first, and holds nothing more.
	if ack, err := join(e, id, ann); err != nil || !ack.Duplicate {
		t.Fatalf("joining again: %+v, %v", ack, err)
	}
	if w := balance(t, e, ann); w.Balance != 700 || len(w.Holds) != 1 {
		t.Fatalf("after joining again: %+v", w)
	}
}

func TestAShortBalanceIsRefusedAndWritesNothing(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	e := newEngine(store)
	ann, bob := register(t, e, "Ann"), register(t, e, "Bob")
	if _, err := e.Create(ctx, engine.CreateMatch{Game: classic.ID, By: ann.ID, Options: game.Options{match.StakeOption: "1001"}}, engine.Meta{}); game.CodeOf(err) != wallet.InsufficientFunds {
		t.Fatalf("a stake above the creator's balance: %v", err)
	}
	for _, bad := range []string{"-5", "lots"} {
		if _, err := e.Create(ctx, engine.CreateMatch{Game: classic.ID, By: ann.ID, Options: game.Options{match.StakeOption: bad}}, engine.Meta{}); game.CodeOf(err) != game.BadInput {
			t.Fatalf("stake %q: %v", bad, err)
		}
	}
	if _, err := e.Create(ctx, engine.CreateMatch{Game: classic.ID, Options: game.Options{match.StakeOption: "10"}}, engine.Meta{}); game.CodeOf(err) != game.Unauthenticated {
		t.Fatalf("an anonymous stake: %v", err)
	}
	first, second := staked(t, e, ann, 600), staked(t, e, ann, 600)
	if _, err := join(e, first, bob); err != nil {
		t.Fatal(err)
	}
	before, _ := store.HeadPosition(ctx)
	_, err := join(e, second, bob)
	if game.CodeOf(err) != wallet.InsufficientFunds || !wallet.IsShort(err) {
		t.Fatalf("a join above the balance: %v", err)
	}
	if after, _ := store.HeadPosition(ctx); after != before {
		t.Fatalf("the refused join wrote %d event(s)", after-before)
	}
}

func TestARefusedJoinReleasesItsHold(t *testing.T) {
	store := openStore(t)
	e := newEngine(store)
	ann, bob := register(t, e, "Ann"), register(t, e, "Bob")
	id := staked(t, e, ann, 200)
	if _, err := join(e, id, ann); err != nil {
		t.Fatal(err)
	}
	seat := 0
	_, err := e.Handle(context.Background(), id, match.Join{PlayerID: bob.ID, Name: bob.Name, Seat: &seat}, engine.Meta{Actor: "player:" + bob.ID})
	if game.CodeOf(err) != game.Conflict {
		t.Fatalf("joining a taken seat: %v", err)
	}
	w, err := e.Wallet(context.Background(), bob.ID)
	if err != nil {
		t.Fatal(err)
	}
	if w.State.Balance != 1000 || len(w.State.Holds) != 0 || len(w.Entries) != 3 {
		t.Fatalf("after a refused join: balance %d holds %v entries %+v", w.State.Balance, w.State.Holds, w.Entries)
	}
	// The house bot never plays for coins.
	if _, err := e.Handle(context.Background(), id, match.Join{PlayerID: "bot", Name: "Bot", Bot: true}, engine.Meta{}); game.CodeOf(err) != game.BadInput {
		t.Fatalf("a bot in a staked match: %v", err)
	}
}

// Two nodes join two staked matches for one player at once; the player can afford one.
// Whatever the interleaving, exactly one join stands and the balance never goes below
// zero: each hold is appended at the wallet's version, and the loser of the race decides
// again on the balance the winner left.
func TestTwoRacingJoinsCannotOverdraw(t *testing.T) {
	store := openStore(t)
	nodes := []*engine.Engine{newEngine(store), newEngine(store)}
	host := register(t, nodes[0], "Host")
	for round := range 8 {
		carl := register(t, nodes[0], fmt.Sprintf("Carl%d", round))
		ids := []string{staked(t, nodes[0], host, 600), staked(t, nodes[0], host, 600)}
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() { _, errs[i] = join(nodes[i], ids[i], carl) })
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case game.CodeOf(err) != wallet.InsufficientFunds:
				t.Fatalf("round %d: %v", round, err)
			}
		}
		w := balance(t, nodes[0], carl)
		if won != 1 || w.Balance != 400 || len(w.Holds) != 1 {
			t.Fatalf("round %d: %d joins stood, balance %d, holds %v", round, won, w.Balance, w.Holds)
		}
		seated := 0
		for _, id := range ids {
			evs, _ := store.ReadStream(context.Background(), matchstream.Name(id), 0, 0)
			for _, ev := range evs {
				if ev.Type == "SeatTaken" {
					seated++
				}
			}
		}
		if seated != 1 {
			t.Fatalf("round %d: carl sits in %d matches", round, seated)
		}
	}
}

func TestGrantsAndSpendingsAreOncePerKey(t *testing.T) {
	ctx := context.Background()
	e := newEngine(openStore(t))
	ann := register(t, e, "Ann")
	for range 2 {
		if w, err := e.GrantCoins(ctx, ann.ID, 50, "daily bonus", "daily-2026-12-01"); err != nil || w.Balance != 1050 {
			t.Fatalf("the daily bonus: %d, %v", w.Balance, err)
		}
	}
	for range 2 {
		if w, err := e.SpendCoins(ctx, ann.ID, 300, "hat", "beret", "buy-beret"); err != nil || w.Balance != 750 {
			t.Fatalf("a hat: %d, %v", w.Balance, err)
		}
	}
	if _, err := e.SpendCoins(ctx, ann.ID, 751, "hat", "crown", "buy-crown"); game.CodeOf(err) != wallet.InsufficientFunds {
		t.Fatalf("a hat above the balance: %v", err)
	}
	if _, err := e.GrantCoins(ctx, ann.ID, 50, "daily bonus", ""); game.CodeOf(err) != game.BadInput {
		t.Fatalf("a grant without a key: %v", err)
	}
	if w := balance(t, e, ann); w.Balance != 750 {
		t.Fatalf("balance %d", w.Balance)
	}
}

// A player who leaves an open staked match and joins it again before the settlement
// process has released the first hold sits again, funded by a new hold.
func TestLeavingAndJoiningAgainTakesANewHold(t *testing.T) {
	ctx := context.Background()
	e := newEngine(openStore(t))
	ann, bob := register(t, e, "Ann"), register(t, e, "Bob")
	id := staked(t, e, ann, 300)
	if _, err := join(e, id, bob); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Handle(ctx, id, match.Unseat{PlayerID: bob.ID}, engine.Meta{Actor: "player:" + bob.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := join(e, id, bob); err != nil {
		t.Fatal(err)
	}
	snap, err := e.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	w := balance(t, e, bob)
	h, ok := w.OpenHold(id)
	if seat := snap.State.SeatOf(bob.ID); seat < 0 || !ok || snap.State.Holds[seat] != h.ID || w.Balance != 700 || len(w.Closed) != 1 {
		t.Fatalf("bob at seat %d, holds %v, wallet %+v", seat, snap.State.Holds, w)
	}
}
