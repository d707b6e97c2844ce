package wallet_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/wallet"
)

// run decides each command in turn on s, folds what it decided, and fails on a refusal.
func run(t *testing.T, s wallet.State, cmds ...wallet.Command) wallet.State {
	t.Helper()
	for _, c := range cmds {
		evs, err := wallet.Decide(s, c)
		if err != nil {
			t.Fatalf("%#v: %v", c, err)
		}
		for _, e := range evs {
			s = wallet.Evolve(s, e)
		}
	}
	return s
}

func started(t *testing.T) wallet.State {
	return run(t, wallet.State{}, wallet.Grant{Amount: wallet.StartingGrant, Reason: wallet.ReasonStarting})
}

func TestStartingGrantIsGivenOnce(t *testing.T) {
	s := started(t)
	evs, err := wallet.Decide(s, wallet.Grant{Amount: wallet.StartingGrant, Reason: wallet.ReasonStarting})
	if err != nil || len(evs) != 0 {
		t.Fatalf("a second starting grant decided %v, %v; want nothing", evs, err)
	}
	if s.Balance != 1000 || !s.Granted {
		t.Fatalf("balance %d granted %v", s.Balance, s.Granted)
	}
}

func TestNoBalanceGoesBelowZero(t *testing.T) {
	s := started(t)
	for _, c := range []wallet.Command{
		wallet.HoldCoins{ID: "h1", Match: "m1", Amount: 1001},
		wallet.Spend{Amount: 1001, Reason: "hat"},
	} {
		evs, err := wallet.Decide(s, c)
		if game.CodeOf(err) != wallet.InsufficientFunds || !wallet.IsShort(err) || evs != nil {
			t.Fatalf("%#v decided %v, %v; want INSUFFICIENT_FUNDS and nothing", c, evs, err)
		}
	}
	s = run(t, s, wallet.HoldCoins{ID: "h1", Match: "m1", Amount: 600})
	if _, err := wallet.Decide(s, wallet.HoldCoins{ID: "h2", Match: "m2", Amount: 401}); !wallet.IsShort(err) {
		t.Fatalf("a hold above what is left after another hold: %v", err)
	}
	if s.Balance != 400 || s.Held() != 600 {
		t.Fatalf("balance %d held %d", s.Balance, s.Held())
	}
}

func TestBadAmountsAreRefused(t *testing.T) {
	s := started(t)
	for _, c := range []wallet.Command{
		wallet.HoldCoins{ID: "h", Match: "m", Amount: -1},
		wallet.Spend{Amount: 0, Reason: "x"},
		wallet.Grant{Amount: -5, Reason: "x"},
		wallet.HoldCoins{Match: "m", Amount: 1},
	} {
		if _, err := wallet.Decide(s, c); game.CodeOf(err) != game.BadInput {
			t.Errorf("%#v: %v, want BAD_USER_INPUT", c, err)
		}
	}
}

func TestOneOpenHoldPerMatch(t *testing.T) {
	s := run(t, started(t), wallet.HoldCoins{ID: "h1", Match: "m1", Amount: 200})
	evs, err := wallet.Decide(s, wallet.HoldCoins{ID: "h2", Match: "m1", Amount: 300})
	if err != nil || len(evs) != 0 {
		t.Fatalf("a second hold for the match decided %v, %v", evs, err)
	}
	if h, ok := s.OpenHold("m1"); !ok || h.ID != "h1" || h.Amount != 200 {
		t.Fatalf("open hold %+v %v", h, ok)
	}
	// Once released, the match may be held again, under a new ID only.
	s = run(t, s, wallet.Release{Hold: "h1", Reason: "join refused"})
	if _, err := wallet.Decide(s, wallet.HoldCoins{ID: "h1", Match: "m1", Amount: 200}); game.CodeOf(err) != game.Conflict {
		t.Fatalf("a closed hold's ID used again: %v", err)
	}
	s = run(t, s, wallet.HoldCoins{ID: "h3", Match: "m1", Amount: 200})
	if s.Balance != 800 {
		t.Fatalf("balance %d", s.Balance)
	}
}

func TestSettlementMovesCoinsOnceAndThenIsANoOp(t *testing.T) {
	s := run(t, started(t), wallet.HoldCoins{ID: "h1", Match: "m1", Amount: 500}, wallet.Settle{Hold: "h1", Charged: 200, Won: 200})
	if s.Balance != 1000+200-200 || len(s.Holds) != 0 {
		t.Fatalf("after a draw-like settlement: balance %d holds %v", s.Balance, s.Holds)
	}
	for _, c := range []wallet.Command{wallet.Settle{Hold: "h1", Won: 900}, wallet.Release{Hold: "h1"}, wallet.Settle{Hold: "nope"}} {
		if evs, err := wallet.Decide(s, c); err != nil || len(evs) != 0 {
			t.Fatalf("%#v on a closed hold decided %v, %v", c, evs, err)
		}
	}
	s = run(t, s, wallet.HoldCoins{ID: "h2", Match: "m2", Amount: 300}, wallet.Settle{Hold: "h2", Charged: 300})
	if s.Balance != 700 {
		t.Fatalf("after losing a stake of 300: %d", s.Balance)
	}
	if _, err := wallet.Decide(run(t, s, wallet.HoldCoins{ID: "h3", Match: "m3", Amount: 100}), wallet.Settle{Hold: "h3", Charged: 101}); game.CodeOf(err) != game.BadInput {
		t.Fatalf("a charge above the hold: %v", err)
	}
}

func TestEntriesSumToTheBalance(t *testing.T) {
	var s wallet.State
	var sum int64
	for _, c := range []wallet.Command{
		wallet.Grant{Amount: wallet.StartingGrant, Reason: wallet.ReasonStarting},
		wallet.HoldCoins{ID: "h1", Match: "m1", Amount: 400},
		wallet.Settle{Hold: "h1", Charged: 100, Won: 200},
		wallet.HoldCoins{ID: "h2", Match: "m2", Amount: 50},
		wallet.Release{Hold: "h2", Reason: "seat vacated"},
		wallet.Spend{Amount: 30, Reason: "hat", Ref: "beret"},
	} {
		evs, err := wallet.Decide(s, c)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			s = wallet.Evolve(s, e)
			sum += wallet.EntryOf(e).Amount
		}
	}
	if s.Balance != 1070 || sum != s.Balance {
		t.Fatalf("balance %d, entries sum to %d; want 1070 both", s.Balance, sum)
	}
}

func TestEventsRoundTrip(t *testing.T) {
	seat := 1
	for _, e := range []game.Event{
		wallet.CoinsGranted{Amount: 1, Reason: "r"}, wallet.CoinsHeld{Hold: "h", Match: "m", Amount: 2, Seat: &seat},
		wallet.HoldReleased{Match: "m", Hold: "h", Amount: 2, Reason: "r"}, wallet.HoldSettled{Match: "m", Hold: "h", Held: 3, Charged: 1, Won: 2},
		wallet.CoinsSpent{Amount: 1, Reason: "r", Ref: "x"},
		wallet.RulingCorrected{Player: "p", Match: "m", Dispute: "m.1", Amount: -4, Reason: "voided"},
	} {
		b, err := game.Encode(e)
		if err != nil {
			t.Fatal(err)
		}
		d, err := wallet.Events.Decode(e.EventType(), 1, b)
		if err != nil {
			t.Fatal(err)
		}
		if wallet.EntryOf(d) != wallet.EntryOf(e) {
			t.Fatalf("%T: %+v != %+v", e, d, e)
		}
	}
}

func TestAuditCatchesWhatTheDeciderRefuses(t *testing.T) {
	s := run(t, started(t), wallet.HoldCoins{ID: "h1", Match: "m1", Amount: 300})
	for _, c := range []struct {
		id string
		e  game.Event
	}{
		{"x", wallet.CoinsGranted{Amount: 1000, Reason: wallet.ReasonStarting}},
		{"h2", wallet.CoinsHeld{Hold: "h2", Match: "m2", Amount: 701}},
		{"h3", wallet.CoinsHeld{Hold: "h3", Match: "m1", Amount: 1}},
		{"h4", wallet.CoinsHeld{Hold: "h5", Match: "m4", Amount: 1}},
		{"settle:h1", wallet.HoldSettled{Match: "m1", Hold: "h1", Held: 250, Charged: 0, Won: 0}},
		{"settle:hx", wallet.HoldSettled{Match: "m1", Hold: "hx", Held: 300}},
		{"release:h1", wallet.HoldReleased{Match: "m1", Hold: "h1", Amount: 400, Reason: "r"}},
		{"s", wallet.CoinsSpent{Amount: 701, Reason: "hat"}},
	} {
		if err := wallet.Audit(s, c.id, c.e); err == nil {
			t.Errorf("%s %+v passed the audit", c.id, c.e)
		}
	}
	for _, c := range []struct {
		id string
		e  game.Event
	}{
		{"settle:h1", wallet.HoldSettled{Match: "m1", Hold: "h1", Held: 300, Charged: 300}},
		{"release:h1", wallet.HoldReleased{Match: "m1", Hold: "h1", Amount: 300, Reason: "r"}},
		{"h2", wallet.CoinsHeld{Hold: "h2", Match: "m2", Amount: 700}},
	} {
		if err := wallet.Audit(s, c.id, c.e); err != nil {
			t.Errorf("%s %+v: %v", c.id, c.e, err)
		}
	}
}

// A ruling's correction moves a wallet once per dispute, may leave the balance below zero
// (a winner who spent what a void takes back), and then every hold and spending is refused
// until the balance is positive again.
func TestARulingCorrectsAWalletOnceAndMayLeaveItOwing(t *testing.T) {
	s := run(t, started(t), wallet.Spend{Amount: 900, Reason: "hat"})
	void := wallet.Correct{Player: "ann", Match: "m1", Dispute: "m1.1", Amount: -200, Reason: "voided"}
	s = run(t, s, void)
	if s.Balance != -100 {
		t.Fatalf("balance %d after a correction of -200 from 100", s.Balance)
	}
	for _, again := range []wallet.Command{void, wallet.Correct{Player: "ann", Match: "m1", Dispute: "m1.2", Amount: 0, Reason: "ruling"}} {
		if evs, err := wallet.Decide(s, again); err != nil || len(evs) != 0 {
			t.Fatalf("%#v decided %v, %v; want nothing", again, evs, err)
		}
	}
	if _, err := wallet.Decide(s, wallet.Correct{Player: "ann", Dispute: "m1.1", Amount: 5}); game.CodeOf(err) != game.BadInput {
		t.Fatalf("a correction without its match: %v", err)
	}
	for _, c := range []wallet.Command{wallet.HoldCoins{ID: "h1", Match: "m2", Amount: 1}, wallet.Spend{Amount: 1, Reason: "hat"}} {
		if _, err := wallet.Decide(s, c); !wallet.IsShort(err) {
			t.Fatalf("%#v with a balance of -100: %v, want INSUFFICIENT_FUNDS", c, err)
		}
	}
	s = run(t, s, wallet.Correct{Player: "ann", Match: "m1", Dispute: "m1.2", Amount: 200, Reason: "ruling"})
	if s.Balance != 100 {
		t.Fatalf("balance %d after a second dispute's correction", s.Balance)
	}
	evs, _ := wallet.Decide(wallet.State{}, void)
	if len(evs) != 1 || wallet.Audit(wallet.State{}, wallet.CorrectionID("m1.1", "ann"), evs[0]) != nil || wallet.Audit(wallet.State{}, "other", evs[0]) == nil {
		t.Fatalf("audit of a correction under its ID and under another: %v", evs)
	}
}
