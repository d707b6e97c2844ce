package settlement_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/settlement"
)

// A process written down with open holds and funded seats, read back into a new one, is
// the same process, and goes on alike: the match's end and its settlement fold into both.
func TestAStoredProcessReadsBackAndGoesOnAlike(t *testing.T) {
	ctx := context.Background()
	store, e, id, ann, _ := live(t)
	_, p := boot(t, store)
	pos, data, err := p.Save()
	if err != nil {
		t.Fatal(err)
	}
	q := settlement.New(newEngine(store), slog.Default(), settlement.Grace(0))
	if err := q.Restore(ctx, store, pos, data); err != nil {
		t.Fatal(err)
	}
	if a, b := p.Digest(), q.Digest(); a == "" || a != b || q.Checkpoint() != p.Checkpoint() {
		t.Fatalf("read back:\n%s\nwritten (two holds open):\n%s", b, a)
	}
	if _, err := e.Handle(ctx, id, match.Resign{PlayerID: ann.ID}, engine.Meta{Actor: "player:" + ann.ID}); err != nil {
		t.Fatal(err)
	}
	if n := step(t, store, p); n == 0 {
		t.Fatal("nothing to settle after the end")
	}
	if err := projections.Rebuild(ctx, store, nil, q); err != nil { // from its checkpoint on
		t.Fatal(err)
	}
	if a, b := p.Digest(), q.Digest(); a != b {
		t.Fatalf("after the end, the read-back process:\n%s\nthe first:\n%s", b, a)
	}
}
