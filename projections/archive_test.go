package projections

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// A finished match loses its game state once it has been over for the archive delay, by
// the time of the events applied after it; everything else of its view, and the model's
// digest, stay the same. A live match keeps its board.
func TestFinishedMatchesAreArchived(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	reg := game.NewRegistry(classic.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: reg, Now: clock})
	newMatch := func() string {
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: classic.ID}, engine.Meta{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"white", "black"} {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		return ack.MatchID
	}
	play := func(id string, moves ...string) {
		for i, mv := range moves {
			if _, err := eng.Handle(ctx, id, match.Act{PlayerID: []string{"white", "black"}[i%2], Do: game.Move{Notation: mv}}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	mated := newMatch()
	play(mated, "f3", "e5", "g4", "Qh4#")
	now = now.Add(time.Hour)
	live := newMatch()
	play(live, "e4")

	evs, err := store.ReadAll(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	keep, soon, late := NewMatches(reg), NewMatches(reg, ArchiveAfter(time.Minute)), NewMatches(reg, ArchiveAfter(2*time.Hour))
	for _, m := range []*Matches{keep, soon, late} {
		for _, ev := range evs {
			if err := m.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	if v := soon.Get(mated); !v.Archived || v.State.GameState != nil || v.State.Result == nil || v.State.Result.Reason != "checkmate" || v.Version != keep.Get(mated).Version {
		t.Fatalf("the mate an hour later, archived after a minute: %+v", v)
	}
	if v := late.Get(mated); v.Archived || v.State.GameState == nil {
		t.Fatalf("the mate an hour later, archived after two hours: archived=%v", v.Archived)
	}
	if v := soon.Get(live); v.Archived || v.State.GameState == nil {
		t.Fatalf("a live match was archived")
	}
	if a, b, c := keep.Digest(), soon.Digest(), late.Digest(); a != b || a != c {
		t.Fatalf("digests differ: %s / %s / %s", a, b, c)
	}
	// Rebuilt page by page, the same.
	paged := NewMatches(reg, ArchiveAfter(time.Minute))
	if err := Rebuild(ctx, store, nil, paged); err != nil {
		t.Fatal(err)
	}
	if !paged.Get(mated).Archived || paged.Digest() != keep.Digest() {
		t.Fatalf("paged rebuild: archived=%v, %s", paged.Get(mated).Archived, paged.Digest())
	}
}

// A finished match is archived when its delay has passed by the clock, even when no
// event comes after its end: Archive is given the time (RunArchiver gives it the clock's),
// and says when the next match is due.
func TestFinishedMatchIsArchivedWithoutAnotherEvent(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	reg := game.NewRegistry(classic.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: reg, Now: func() time.Time { return now }})
	ack, err := eng.Create(ctx, engine.CreateMatch{Game: classic.ID}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []match.Command{match.Join{PlayerID: "white", Name: "white"}, match.Join{PlayerID: "black", Name: "black"}, match.Resign{PlayerID: "black"}} {
		if _, err := eng.Handle(ctx, ack.MatchID, c, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := store.ReadAll(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMatches(reg, ArchiveAfter(time.Minute))
	for _, ev := range evs {
		if err := m.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	ended := m.Get(ack.MatchID).UpdatedAt
	if next := m.Archive(ended.Add(time.Minute - time.Nanosecond)); m.Get(ack.MatchID).Archived || !next.Equal(ended.Add(time.Minute)) {
		t.Fatalf("just before its delay: archived=%v, next due %v (want %v)", m.Get(ack.MatchID).Archived, next, ended.Add(time.Minute))
	}
	if next := m.Archive(ended.Add(time.Minute)); !m.Get(ack.MatchID).Archived || !next.IsZero() {
		t.Fatalf("at its delay: archived=%v, next due %v", m.Get(ack.MatchID).Archived, next)
	}
	if never := NewMatches(reg); !never.Archive(ended.Add(time.Hour)).IsZero() {
		t.Fatal("a model that never archives has a match due")
	}
}
