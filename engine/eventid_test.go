package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
)

// basisOf reads the first 8 bytes of an event ID in the UUID form: the basis of a
// decision's IDs (engine's eventID).
func basisOf(t *testing.T, id string) int64 {
	t.Helper()
	if len(id) != 36 {
		t.Fatalf("event ID %q is not in the UUID form", id)
	}
	b, err := strconv.ParseUint(id[0:8]+id[9:13]+id[14:18], 16, 64)
	if err != nil {
		t.Fatalf("event ID %q: %v", id, err)
	}
	return int64(b)
}

// checkIDBases checks the IDs of every event of match id, in its own stream and in the
// hidden streams of teams, against the state each was decided on: a decision's IDs begin
// with the time of the last public event before it (the one its append expected, or the
// basis a covert event names). It returns the match's own events.
func checkIDBases(t *testing.T, store eventstore.Store, id string, teams ...int) []eventstore.Event {
	t.Helper()
	ctx := context.Background()
	public, err := store.ReadStream(ctx, matchstream.Name(id), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The events of one decision follow one another under one command ID; the first
	// decision (the creation) has no basis, and its IDs the form they always had.
	basis := int64(0)
	for i, ev := range public[1:] {
		if ev.CommandID != public[i].CommandID {
			basis = public[i].Time.UnixMicro()
		}
		if basis == 0 {
			continue
		}
		if got := basisOf(t, ev.ID); got != basis {
			t.Fatalf("%s at version %d has ID %s, based on %d; want %d, the time of version %d", ev.Type, ev.Version, ev.ID, got, basis, public[i].Version)
		}
	}
	for _, team := range teams {
		hidden, err := store.ReadStream(ctx, matchstream.Hidden(id, team), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range hidden {
			v, ok := matchstream.BasisOf(ev.Payload)
			if !ok || v < 1 || v > int64(len(public)) {
				t.Fatalf("covert %s at version %d names no basis in the match's %d events", ev.Type, ev.Version, len(public))
			}
			if got, want := basisOf(t, ev.ID), public[v-1].Time.UnixMicro(); got != want {
				t.Fatalf("covert %s decided on version %d has ID %s, based on %d; want %d", ev.Type, v, ev.ID, got, want)
			}
		}
	}
	return public
}

// ticking is a clock that moves on a millisecond at each reading: every decision of a
// test has its own time, so a basis taken from the wrong event shows.
func ticking(start time.Time) func() time.Time {
	var n atomic.Int64
	return func() time.Time { return start.Add(time.Duration(n.Add(1)) * time.Millisecond) }
}

// A match's event IDs begin with the time of the event each decision was based on, so
// that they arrive in order at the end of the store's index of IDs.
func TestEventIDsBeginWithTheirBasis(t *testing.T) {
	store := openStore(t)
	e := engine.New(engine.Config{Store: store, Games: game.NewRegistry(classic.Rules{}), Now: ticking(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))})
	id := seated(t, e)
	ctx := context.Background()
	for i, m := range []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"} {
		if _, err := e.Handle(ctx, id, move([]string{"white", "black"}[i%2], m), engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Handle(ctx, id, match.Resign{PlayerID: "white"}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	evs := checkIDBases(t, store, id)
	if len(evs) < 12 {
		t.Fatalf("the match holds %d events", len(evs))
	}
}

// recordingStore is a store that keeps the IDs of every append proposed to it, landed
// or not.
type recordingStore struct {
	eventstore.Store
	mu      sync.Mutex
	appends [][]string
}

func (r *recordingStore) Append(ctx context.Context, stream string, expected int64, events ...eventstore.Proposed) (eventstore.AppendResult, error) {
	ids := make([]string, len(events))
	for i, ev := range events {
		ids[i] = ev.ID
	}
	r.mu.Lock()
	r.appends = append(r.appends, ids)
	r.mu.Unlock()
	return r.Store.Append(ctx, stream, expected, events...)
}

// last returns the IDs of the last append proposed.
func (r *recordingStore) last() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.appends[len(r.appends)-1]
}

// Two nodes that decide the same command from the same state make the same IDs, whatever
// their clocks read: node B, whose cache stands where node A's stood, decides a command A
// appended, and the store takes B's append for a retry of A's.
func TestEventIDsAreTheSameOnEveryNode(t *testing.T) {
	store := &recordingStore{Store: openStore(t)}
	reg := game.NewRegistry(classic.Rules{})
	a := engine.New(engine.Config{Store: store, Games: reg, Now: ticking(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))})
	b := engine.New(engine.Config{Store: store, Games: reg, Now: ticking(time.Date(2026, 12, 1, 13, 0, 0, 0, time.UTC))})
	id := seated(t, a)
	ctx := context.Background()
	for i, m := range []string{"e4", "e5", "Nf3"} {
		if _, err := b.Match(ctx, id); err != nil { // B's cache stands where A's does
			t.Fatal(err)
		}
		meta := engine.Meta{CommandID: "move-" + strconv.Itoa(i), Actor: "player:" + []string{"white", "black"}[i%2]}
		cmd := move([]string{"white", "black"}[i%2], m)
		first, err := a.Handle(ctx, id, cmd, meta)
		if err != nil || first.Duplicate {
			t.Fatalf("%s on node A: %+v %v", m, first, err)
		}
		ids := slices.Clone(store.last())
		again, err := b.Handle(ctx, id, cmd, meta)
		if err != nil || !again.Duplicate || again.LastVersion != first.LastVersion || again.LastPosition != first.LastPosition {
			t.Fatalf("%s again on node B: %+v %v; want %+v as a duplicate", m, again, err, first)
		}
		if got := store.last(); !slices.Equal(got, ids) {
			t.Fatalf("%s: node B proposed %v, node A %v", m, got, ids)
		}
	}
	checkIDBases(t, store, id)
}

// A match stored before session 15, whose event IDs have no basis, still tells a retry
// of its commands from another command sent under the same command ID: the archived
// scholar's mate (testdata/corpus) is loaded into a store as it was exported, and its
// last move is sent again.
func TestIDsStoredWithoutABasisTellRetriesApart(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "corpus", "chess-mate.fide-2023.1.f1.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	x, err := replay.ReadExport(f)
	if err != nil {
		t.Fatal(err)
	}
	store := openStore(t)
	ctx := context.Background()
	var mateBy, mateID string
	for _, l := range x.Lines {
		ev, err := l.Event()
		if err != nil {
			t.Fatal(err)
		}
		res, err := store.Append(ctx, ev.Stream, ev.Version-1, ev.Proposed)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := store.ReadStream(ctx, ev.Stream, res.FirstVersion-1, 1)
		if err != nil || len(stored) != 1 || stored[0].Hash != l.Hash {
			t.Fatalf("version %d stored as %+v (%v), not as archived (hash %s)", l.Version, stored, err, l.Hash)
		}
		if ev.Type == "MovePlayed" {
			mateBy, mateID = ev.Actor, ev.CommandID
		}
	}
	e := newEngine(store)
	player, _ := strings.CutPrefix(mateBy, "player:")
	seat := 0
	meta := engine.Meta{CommandID: mateID, Actor: mateBy}
	ack, err := e.Handle(ctx, x.Header.Match, match.Act{PlayerID: player, Seat: &seat, Do: game.Move{Notation: "h5f7"}}, meta)
	if err != nil || !ack.Duplicate || ack.LastVersion != x.Header.Version {
		t.Fatalf("the mate sent again: %+v %v; want a duplicate ending at version %d", ack, err, x.Header.Version)
	}
	_, err = e.Handle(ctx, x.Header.Match, match.Act{PlayerID: player, Seat: &seat, Do: game.Move{Notation: "h5f5"}}, meta)
	if game.CodeOf(err) != game.Conflict {
		t.Fatalf("another move under the mate's command ID: %v; want %s", err, game.Conflict)
	}
}
