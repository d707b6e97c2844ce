package projections

import (
	"context"
	"reflect"
	"strings"
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
	newMatch := func() string { return seatedChess(t, eng, nil) }
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
	keep, soon, late := NewMatches(reg), NewMatches(reg, ArchiveAfter(time.Minute, store)), NewMatches(reg, ArchiveAfter(2*time.Hour, store))
	for _, m := range []*Matches{keep, soon, late} {
		for _, ev := range evs {
			if err := m.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	get := func(m *Matches, id string) *MatchView {
		t.Helper()
		v, err := m.Get(ctx, id)
		if err != nil || v == nil {
			t.Fatalf("%s: %v, %v", id, v, err)
		}
		return v
	}
	// The archived view, folded from the store, is the kept one without its board.
	want := *get(keep, mated)
	want.State.GameState, want.Archived = nil, true
	if v := get(soon, mated); !reflect.DeepEqual(*v, want) || v.State.Result == nil || v.State.Result.Reason != "checkmate" {
		t.Fatalf("the mate an hour later, archived after a minute:\n%+v\nwant\n%+v", v, want)
	}
	if v := get(late, mated); v.Archived || v.State.GameState == nil {
		t.Fatalf("the mate an hour later, archived after two hours: archived=%v", v.Archived)
	}
	if v := get(soon, live); v.Archived || v.State.GameState == nil {
		t.Fatalf("a live match was archived")
	}
	if by, n := soon.Count(); n != 1 || by[match.Finished] != 1 || by[match.Live] != 1 {
		t.Fatalf("counted %v, %d archived", by, n)
	}
	// Listings hold the archived match where the kept model does, its view the archived one.
	for _, f := range []Filter{{}, {Status: match.Finished}, {Player: "black"}, {Game: classic.ID, Limit: 1}, {Status: match.Live}, {Player: "nobody"}, {Game: "go"}} {
		kept, err := keep.List(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := soon.List(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(kept) {
			t.Fatalf("%+v: %d matches, want %d", f, len(got), len(kept))
		}
		for i := range got {
			if got[i].ID != kept[i].ID || got[i].Archived != (got[i].ID == mated) {
				t.Fatalf("%+v: match %d is %s (archived %v), want %s", f, i, got[i].ID, got[i].Archived, kept[i].ID)
			}
		}
	}
	if a, b, c := keep.Digest(), soon.Digest(), late.Digest(); a != b || a != c {
		t.Fatalf("digests differ: %s / %s / %s", a, b, c)
	}
	// Rebuilt page by page, the same.
	paged := NewMatches(reg, ArchiveAfter(time.Minute, store))
	if err := Rebuild(ctx, store, nil, paged); err != nil {
		t.Fatal(err)
	}
	if v := get(paged, mated); !reflect.DeepEqual(*v, want) || paged.Digest() != keep.Digest() {
		t.Fatalf("paged rebuild: archived=%v, %s", v.Archived, paged.Digest())
	}
	// An event of an archived match is refused, and changes nothing.
	late2 := evs[len(evs)-1]
	late2.Stream, late2.Position, late2.Version = "match-"+mated, late2.Position+1, get(keep, mated).Version+1
	if err := soon.Apply(late2); err == nil || !strings.Contains(err.Error(), "archived") {
		t.Fatalf("an event after the archive: %v", err)
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
	m := NewMatches(reg, ArchiveAfter(time.Minute, store))
	archived := func() bool {
		v, err := m.Get(ctx, ack.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		return v.Archived
	}
	for _, ev := range evs {
		if err := m.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	v, err := m.Get(ctx, ack.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	ended := v.UpdatedAt
	if next := m.Archive(ended.Add(time.Minute - time.Nanosecond)); archived() || !next.Equal(ended.Add(time.Minute)) {
		t.Fatalf("just before its delay: archived=%v, next due %v (want %v)", archived(), next, ended.Add(time.Minute))
	}
	if next := m.Archive(ended.Add(time.Minute)); !archived() || !next.IsZero() {
		t.Fatalf("at its delay: archived=%v, next due %v", archived(), next)
	}
	if never := NewMatches(reg); !never.Archive(ended.Add(time.Hour)).IsZero() {
		t.Fatal("a model that never archives has a match due")
	}
}

// seatedChess creates a chess match with the options opts and seats white and black.
func seatedChess(t *testing.T, eng *engine.Engine, opts game.Options) string {
	t.Helper()
	ctx := context.Background()
	ack, err := eng.Create(ctx, engine.CreateMatch{Game: classic.ID, Options: opts}, engine.Meta{})
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

// A finished match with a spectator delay longer than ArchiveAfter stays in memory until
// the delay is over: until then a spectator's lobby lists it as its delayed view shows it
// (graph/lobby.go, Filter.May), which an archived row, finished and nothing more, could
// not. A match without a delay behind it in the queue is archived with it, once it is due.
func TestADelayedMatchIsArchivedOnceItsDelayIsOver(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	now := start
	reg := game.NewRegistry(classic.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: reg, Now: func() time.Time { return now }})
	m := NewMatches(reg, ArchiveAfter(time.Minute, store))
	ended := func(opts game.Options) string {
		id := seatedChess(t, eng, opts)
		if _, err := eng.Handle(ctx, id, match.Resign{PlayerID: "black"}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
		return id
	}
	delayed := ended(game.Options{match.SpectatorDelayOption: "600"})
	plain := ended(nil)
	evs, err := store.ReadAll(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if err := m.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	archived := func(id string) bool {
		t.Helper()
		v, err := m.Get(ctx, id)
		if err != nil || v == nil {
			t.Fatalf("%s: %v, %v", id, v, err)
		}
		return v.Archived
	}
	finished := func() []string {
		views, err := m.List(ctx, Filter{Status: match.Finished, May: func(v *MatchView) bool { return v.State.Status == match.Finished }})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, v := range views {
			ids = append(ids, v.ID)
		}
		return ids
	}
	for _, at := range []time.Duration{2 * time.Minute, 10*time.Minute - time.Second} {
		m.Archive(start.Add(at))
		if archived(delayed) || archived(plain) {
			t.Fatalf("%v after the end of a match delayed by 10 minutes: archived %v, the undelayed one behind it %v", at, archived(delayed), archived(plain))
		}
	}
	if got := finished(); len(got) != 2 {
		t.Fatalf("the lobby lists %v as finished, want both matches", got)
	}
	if next := m.Archive(start.Add(10 * time.Minute)); !next.IsZero() || !archived(delayed) || !archived(plain) {
		t.Fatalf("10 minutes after the end: archived %v and %v, next %v", archived(delayed), archived(plain), next)
	}
	if got := finished(); len(got) != 2 {
		t.Fatalf("the lobby lists %v as finished once archived, want both matches", got)
	}
}
