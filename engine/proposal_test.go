package engine

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// keepingStore fails appends on demand and keeps what they proposed: a store whose
// writer still holds the request of a caller that gave up (groupcommit's Submit returns
// on a canceled context while the request stays queued).
type keepingStore struct {
	eventstore.Store
	fail bool
	kept []eventstore.Proposed
}

func (k *keepingStore) Append(ctx context.Context, stream string, expected int64, events ...eventstore.Proposed) (eventstore.AppendResult, error) {
	if k.fail {
		k.kept = events
		return eventstore.AppendResult{}, errors.New("the caller gave up")
	}
	return k.Store.Append(ctx, stream, expected, events...)
}

// A match entry encodes each command's events into memory it reuses (proposal), but not
// after a failed append: the store may still read that memory, and a command waiting for
// the entry's lock would otherwise write its own events over the ones the store holds.
func TestAFailedAppendsMemoryIsNotReused(t *testing.T) {
	store := &keepingStore{Store: memstore.New()}
	e := New(Config{Store: store, Games: game.NewRegistry(classic.Rules{})})
	ctx := context.Background()
	ack, err := e.Create(ctx, CreateMatch{Game: classic.ID}, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id := ack.MatchID
	for _, p := range []string{"white", "black"} {
		if _, err := e.Handle(ctx, id, match.Join{PlayerID: p, Name: p}, Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Handle(ctx, id, match.Act{PlayerID: "white", Do: game.Move{Notation: "e2e4"}}, Meta{}); err != nil {
		t.Fatal(err)
	}
	en := e.lookup(id) // the entry the next command decides on
	if en.scratch.payloads == nil {
		t.Fatal("a landed move left no memory to reuse: the test no longer tests anything")
	}
	store.fail = true
	if _, err := e.Handle(ctx, id, match.Act{PlayerID: "black", Do: game.Move{Notation: "e7e5"}}, Meta{}); err == nil {
		t.Fatal("the append did not fail")
	}
	kept := bytes.Clone(store.kept[0].Payload)
	if en.scratch.events != nil || en.scratch.payloads != nil {
		t.Fatalf("after a failed append the entry still holds the memory the store was given")
	}
	// A command that was waiting for the entry proposes into fresh memory.
	if _, err := e.propose(&en.scratch, classic.Rules{}, "match-x", game.PublicEvents(classic.MovePlayed{Seat: 1, UCI: "d7d5", SAN: "d5", FEN: "x"}), Meta{}, commandPrint{basis: -1}, 0, store.kept[0].Time); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(store.kept[0].Payload, kept) {
		t.Fatalf("the payload the store holds changed from %s to %s", kept, store.kept[0].Payload)
	}
}
