package engine_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
)

// faultyStore fails on demand: reads before anything is written, or appends after they
// were written (the commit landed, the answer was lost).
type faultyStore struct {
	eventstore.Store
	failReads        atomic.Bool
	failAfterWriting atomic.Bool
}

var errDisk = errors.New("sqlite: INSERT INTO events VALUES (?): disk I/O error")

func (f *faultyStore) ReadStream(ctx context.Context, stream string, after int64, limit int) ([]eventstore.Event, error) {
	if f.failReads.Load() {
		return nil, errDisk
	}
	return f.Store.ReadStream(ctx, stream, after, limit)
}

func (f *faultyStore) Append(ctx context.Context, stream string, expected int64, events ...eventstore.Proposed) (eventstore.AppendResult, error) {
	res, err := f.Store.Append(ctx, stream, expected, events...)
	if err == nil && f.failAfterWriting.Load() {
		return eventstore.AppendResult{}, errDisk
	}
	return res, err
}

// A failure before anything is written is ErrUnavailable; a failed append is
// ErrOutcomeUnknown, and the same command sent again under its command ID answers the
// outcome without playing it twice.
func TestFailuresSayWhetherTheCommandWasApplied(t *testing.T) {
	store := &faultyStore{Store: openStore(t)}
	e := newEngine(store)
	ctx := context.Background()
	id := seated(t, e)

	store.failAfterWriting.Store(true)
	_, err := e.Handle(ctx, id, move("white", "e4"), as("white", "k1"))
	if !errors.Is(err, engine.ErrOutcomeUnknown) || errors.Is(err, engine.ErrUnavailable) {
		t.Fatalf("an append that failed after writing: %v, want ErrOutcomeUnknown", err)
	}
	store.failAfterWriting.Store(false)
	again, err := e.Handle(ctx, id, move("white", "e4"), as("white", "k1"))
	if err != nil || !again.Duplicate {
		t.Fatalf("the same move sent again: %+v, %v; want its first outcome", again, err)
	}

	store.failReads.Store(true) // a cold cache: the engine must read before deciding
	_, err = newEngine(store).Handle(ctx, id, move("black", "e5"), as("black", "k2"))
	if !errors.Is(err, engine.ErrUnavailable) || errors.Is(err, engine.ErrOutcomeUnknown) {
		t.Fatalf("a read that failed before deciding: %v, want ErrUnavailable", err)
	}
	if _, err := newEngine(store).Match(ctx, id); !errors.Is(err, engine.ErrUnavailable) {
		t.Fatalf("reading a match from a failing store: %v, want ErrUnavailable", err)
	}
	store.failReads.Store(false)
	snap, err := e.Match(ctx, id)
	if err != nil || snap.Version != again.LastVersion {
		t.Fatalf("after the failures the match is at %d (%v), want %d", snap.Version, err, again.LastVersion)
	}
}

// A registration with a command ID, sent again, returns the same player and token; the
// command ID is not stored; another name under it is CONFLICT; a short one is refused.
func TestRegistrationIsIdempotent(t *testing.T) {
	store := &faultyStore{Store: openStore(t)}
	e := newEngine(store)
	ctx := context.Background()
	key := "6f1c2a9e-8d4b-4e57-a0c3-5b7e9f2d1a68"

	store.failAfterWriting.Store(true)
	if _, _, err := e.RegisterPlayer(ctx, "Ada", key); !errors.Is(err, engine.ErrOutcomeUnknown) {
		t.Fatalf("a registration whose answer was lost: %v, want ErrOutcomeUnknown", err)
	}
	store.failAfterWriting.Store(false)
	p, token, err := e.RegisterPlayer(ctx, "Ada", key)
	if err != nil {
		t.Fatal(err)
	}
	q, again, err := newEngine(store).RegisterPlayer(ctx, "Ada", key)
	if err != nil || q != p || again != token {
		t.Fatalf("sent again: %+v %q %v; first %+v %q", q, again, err, p, token)
	}
	if got, err := e.Authenticate(ctx, token); err != nil || got.ID != p.ID {
		t.Fatalf("the token: %+v, %v", got, err)
	}
	evs, err := store.ReadAll(ctx, 0, 0)
	if err != nil || len(evs) != 1 {
		t.Fatalf("%d events after registering one player twice (%v)", len(evs), err)
	}
	if raw := evs[0].CommandID + evs[0].ID + string(evs[0].Payload); strings.Contains(raw, key) || strings.Contains(raw, token[len(p.ID)+1:]) {
		t.Fatalf("the registration key or the token is stored: %+v", evs[0])
	}
	if _, _, err := e.RegisterPlayer(ctx, "Bob", key); game.CodeOf(err) != game.Conflict {
		t.Fatalf("another name under the same key: %v, want CONFLICT", err)
	}
	if _, _, err := e.RegisterPlayer(ctx, "Ada", "short-key"); game.CodeOf(err) != game.BadInput {
		t.Fatalf("a guessable key: %v, want BAD_USER_INPUT", err)
	}
}
