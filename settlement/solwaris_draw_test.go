package settlement_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire/grimoiretest"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/replay"
	"github.com/arbiter-games/arbiter/settlement"
)

// A staked Solwaris duel that ends in a double knock-out, on a real SQLite store: one
// effect brings both heroes to 0 HP, neither side has a hero standing, and the fight is a
// draw (« Le camp qui n'a plus de héros debout perd »: both have none). It settles as
// every draw does (match.Settlement): no stake moves, each hold of 200 is released
// whole, and the auction's bid alone is paid, by its bidder: the match's lines on the two
// wallets add up to minus the bid, nothing lost or made. No class of part 1 can strike its
// own hero, so the Guerrier's Whirlwind is given, for the test, a range of 12 and a
// square zone of 6 cells each way that strikes everyone in it for 5000: cast on g7, it
// reaches the Guerrier on d1 and the Arcaniste on k12.
func TestAStakedSolwarisDoubleKnockOutSettlesAsADraw(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	rules := solwaris.Rules{Catalog: grimoiretest.Spell(t, "tourbillon", map[string]any{
		"minRange": 0, "maxRange": 12, "sight": false, "zone": map[string]any{"kind": "square", "size": 6},
		"effects": []any{map[string]any{"kind": "damage", "to": "all", "min": 5000, "max": 5000, "element": "earth"}},
	})}
	d := newDuel(t, store, rules, game.Options{solwaris.MapOption: "caveau", match.StakeOption: "200"})
	for seat := range 2 {
		if _, holds := balance(t, d.e, d.at(seat)); holds != 1 {
			t.Fatalf("seat %d joined with %d holds, want its purse held", seat, holds)
		}
	}
	bidder := d.opened()
	if bidder != 0 { // the Arcaniste plays first: it ends its turn, and its Élémentaire has none
		d.act(1, solwaris.EndTurn{})
	}
	_, s := d.state()
	if f := s.Fighters[s.Actor]; f.Seat != 0 || !f.Hero() {
		t.Fatalf("fighter %d to act: %+v", s.Actor, f)
	}
	d.act(0, solwaris.CastSpell{Spell: "tourbillon", Cell: "g7"})
	m, s := d.state()
	if s.Phase != solwaris.PhaseOver || s.Winners == nil || len(s.Winners) != 0 || s.Reason != "no hero standing" {
		t.Fatalf("after the whirlwind: phase %s, winners %v, reason %q", s.Phase, s.Winners, s.Reason)
	}
	if m.Status != match.Finished || m.Result == nil || len(m.Result.Winners) != 0 {
		t.Fatalf("the match: %s, result %+v", m.Status, m.Result)
	}

	p := settlement.New(d.e, slog.Default(), settlement.Grace(0))
	if err := projections.Rebuild(ctx, store, nil, p); err != nil {
		t.Fatal(err)
	}
	step(t, store, p)
	// Each wallet's lines of this match: the hold, its release or settlement. The others
	// are the starting grant and the daily challenges the match completed, which the
	// economy pays whatever the result (which ones depends on the player and the day).
	var total int64
	for seat := range 2 {
		want := int64(0)
		if seat == bidder {
			want = -solwaris.BidStep
		}
		w, err := d.e.ReadWallet(ctx, d.at(seat).ID)
		if err != nil {
			t.Fatal(err)
		}
		var moved int64
		for _, en := range w.Entries {
			switch {
			case en.Match == d.id:
				moved += en.Amount
			case en.Reason != wallet.ReasonStarting && en.Reason != daily.ReasonChallenge:
				t.Errorf("seat %d: a line of %d for %q, not of the match", seat, en.Amount, en.Reason)
			}
		}
		if moved != want || len(w.State.Holds) != 0 {
			t.Errorf("seat %d (the bidder is seat %d): the match moved %d and left %d holds, want %d and none", seat, bidder, moved, len(w.State.Holds), want)
		}
		total += moved
	}
	if total != -solwaris.BidStep {
		t.Errorf("the match moved %d coins in all, the bid is %d: coins were lost or made", total, solwaris.BidStep)
	}
	if n := step(t, store, p); n != 0 {
		t.Errorf("a second step took %d steps", n)
	}
	games := game.NewRegistry(rules)
	if v, err := replay.Verify(ctx, store, games, d.id); err != nil || !v.OK() {
		t.Fatalf("the duel's audit: %+v, %v", v.Problems, err)
	}
	if r, err := replay.VerifyWallets(ctx, store, games); err != nil || !r.OK() || len(r.Pending) != 0 {
		t.Fatalf("the wallets' audit: %+v, %v", r, err)
	}
}
