package engine_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/engine"
)

// Two nodes claim a player's daily bonus at once, day after day: the store keeps one
// bonus a day, and of the two answers one says the bonus was granted and the other 0
// (the API's claimDailyBonus { granted }), however the race goes.
func TestTwoClaimsAtOnceAnswerTheBonusOnce(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	var day atomic.Int64
	clock := func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC).AddDate(0, 0, int(day.Load())) }
	nodes := []*engine.Engine{
		engine.New(engine.Config{Store: store, Games: game.NewRegistry(classic.Rules{}), Now: clock}),
		engine.New(engine.Config{Store: store, Games: game.NewRegistry(classic.Rules{}), Now: clock}),
	}
	ann := register(t, nodes[0], "Ann")
	const days = 20
	for d := range days {
		day.Store(int64(d))
		granted := make([]int64, len(nodes))
		errs := make([]error, len(nodes))
		var wg sync.WaitGroup
		for i, n := range nodes {
			wg.Go(func() { _, granted[i], _, errs[i] = n.ClaimDailyBonus(ctx, ann.ID) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		if granted[0]+granted[1] != daily.Bonus {
			t.Fatalf("day %d: the two claims answered %v granted, want %d once", d, granted, daily.Bonus)
		}
	}
	w, err := nodes[1].ReadWallet(ctx, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	if w.State.Balance != wallet.StartingGrant+days*daily.Bonus || len(w.Entries) != 1+days {
		t.Fatalf("after %d days of two claims: %+v", days, w)
	}
}
