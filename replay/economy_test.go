package replay_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/hats"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/replay"
)

// appendTo stores evs on stream, each under id+its index, as the engine would.
func appendTo(t *testing.T, store eventstore.Store, stream, id string, evs ...game.Event) {
	t.Helper()
	ctx := context.Background()
	cur, err := store.ReadStream(ctx, stream, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range evs {
		payload, err := game.Encode(e)
		if err != nil {
			t.Fatal(err)
		}
		p := eventstore.Proposed{ID: id + string(rune('a'+i)), Type: e.EventType(), SchemaVersion: 1, Payload: payload, CommandID: "c", Actor: "system", Visibility: visibility.Server, Time: time.Now()}
		if _, err := store.Append(ctx, stream, int64(len(cur)+i), p); err != nil {
			t.Fatal(err)
		}
	}
}

// Verify checks the economy's grants and spendings against their rules and each hat
// worn against the hats bought before it.
func TestVerifyChecksTheEconomy(t *testing.T) {
	store := memstore.New()
	start := wallet.CoinsGranted{Amount: wallet.StartingGrant, Reason: wallet.ReasonStarting}
	appendTo(t, store, wallet.Stream("ann"), "ann", start,
		wallet.CoinsGranted{Amount: 50, Reason: "daily bonus", Ref: "2026-12-01"},
		wallet.CoinsSpent{Amount: 150, Reason: hats.ReasonHat, Ref: "beret"})
	appendTo(t, store, hats.Stream("ann"), "annp", hats.HatWorn{Hat: "beret"}, hats.HatWorn{Hat: ""})
	r, err := replay.VerifyWallets(context.Background(), store, game.NewRegistry())
	if err != nil || !r.OK() || r.Wallets != 1 || r.Profiles != 1 {
		t.Fatalf("a clean economy: %+v %v", r, err)
	}
	appendTo(t, store, wallet.Stream("bob"), "bob", start,
		wallet.CoinsGranted{Amount: 50, Reason: "daily bonus", Ref: "2026-12-01"},
		wallet.CoinsGranted{Amount: 50, Reason: "daily bonus", Ref: "2026-12-01"},
		wallet.CoinsGranted{Amount: 500, Reason: "daily challenge", Ref: "2026-12-01:unfair-win-1"},
		wallet.CoinsSpent{Amount: 1, Reason: hats.ReasonHat, Ref: "golden-crown"})
	appendTo(t, store, hats.Stream("bob"), "bobp", hats.HatWorn{Hat: "beret"})
	r, _ = replay.VerifyWallets(context.Background(), store, game.NewRegistry())
	want := []string{"daily bonus \"2026-12-01\" a second time", "daily challenge \"2026-12-01:unfair-win-1\" for 500 coins, not 50",
		"hat \"golden-crown\" for 1 coins, not 1500", "profile-bob version 1: wearing \"beret\""}
	if len(r.Problems) != len(want) {
		t.Fatalf("problems: %q", r.Problems)
	}
	for i, w := range want {
		if !strings.Contains(r.Problems[i], w) {
			t.Errorf("problem %d: %q, want it to say %q", i, r.Problems[i], w)
		}
	}
}
