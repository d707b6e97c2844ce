package engine_test

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkGrantOnALongLedger measures one wallet command (catch up, decide, durable
// append) on a wallet of 1,000 entries in SQLite: each command folds the wallet from its
// events since its cached fold, so a long ledger costs no more than a short one.
func BenchmarkGrantOnALongLedger(b *testing.B) {
	ctx := context.Background()
	e := newEngine(openStore(b))
	p, _, err := e.RegisterPlayer(ctx, "Ann", "")
	if err != nil {
		b.Fatal(err)
	}
	for i := range 1000 {
		if _, err := e.GrantCoins(ctx, p.ID, 1, "bonus", fmt.Sprint("setup-", i)); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; b.Loop(); i++ {
		if _, err := e.GrantCoins(ctx, p.ID, 1, "bonus", fmt.Sprint("run-", i)); err != nil {
			b.Fatal(err)
		}
	}
}
