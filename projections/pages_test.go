package projections

import (
	"context"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/replay/playout"
)

// TestApplyPage checks that folding a page of matches in parallel gives the model, the
// checkpoint and the error that applying its events one at a time gives.
func TestApplyPage(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	reg := game.NewRegistry(classic.Rules{})
	if _, err := playout.Fill(ctx, engine.New(engine.Config{Store: store, Games: reg}), playout.Config{Matches: 6, Plies: 30, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	all, err := store.ReadAll(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	oneByOne := func(evs []eventstore.Event) (*Matches, int64, error) {
		m := NewMatches(reg)
		for _, ev := range evs {
			if err := m.Apply(ev); err != nil {
				return m, ev.Position, err
			}
		}
		return m, 0, nil
	}
	paged := func(evs []eventstore.Event, size int) (*Matches, int64, error) {
		m := NewMatches(reg)
		for len(evs) > 0 {
			n := min(size, len(evs))
			if at, err := m.applyPage(evs[:n]); err != nil {
				return m, at, err
			}
			evs = evs[n:]
		}
		return m, 0, nil
	}
	// A page that repeats events already applied, and a stream with a missing event (its
	// match is set aside, the same whatever the paging).
	repeated := append(append([]eventstore.Event(nil), all[:100]...), all[50:]...)
	// Fill plays its matches concurrently, so which stream holds position 200 varies:
	// drop the first event from there on that is neither its match's first nor its last.
	gap := 200
	for !strings.HasPrefix(all[gap].Stream, "match-") || all[gap].Version == 1 || !followed(all, gap) {
		gap++
	}
	broken := append(append([]eventstore.Event(nil), all[:gap]...), all[gap+1:]...)
	for name, evs := range map[string][]eventstore.Event{"played": all, "repeated": repeated, "broken": broken} {
		want, wantAt, wantErr := oneByOne(evs)
		for _, size := range []int{1, 7, 4096} {
			got, at, err := paged(evs, size)
			if got.Digest() != want.Digest() || at != wantAt || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Errorf("%s in pages of %d: %s, error at %d %v; one by one: %s, error at %d %v", name, size, got.Digest(), at, err, want.Digest(), wantAt, wantErr)
			}
		}
		if aside := want.SetAside(); name == "broken" && (len(aside) != 1 || aside[0].Match != strings.TrimPrefix(all[gap].Stream, "match-")) {
			t.Errorf("a stream with a missing event is not the one match set aside: %v", aside)
		}
	}
}

// followed reports whether a later event of the same stream comes after evs[i].
func followed(evs []eventstore.Event, i int) bool {
	for _, ev := range evs[i+1:] {
		if ev.Stream == evs[i].Stream {
			return true
		}
	}
	return false
}
