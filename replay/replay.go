// Package replay reads match streams back from the event store, and appends nothing: it
// rebuilds the state of any match at any version, under the rules the match pinned in its
// first event, and it verifies a match: its hash chain, its versions, and that every
// recorded fact follows from the ones before it under those rules (see Verify).
package replay

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// Reader is the part of an event store that replay reads.
type Reader interface {
	matchstream.Reader
	ReadAll(ctx context.Context, after int64, limit int) ([]eventstore.Event, error)
}

// pageSize is how many events are read from the store at a time.
const pageSize = 1000

// Snapshot is a match as it stood at one version.
type Snapshot struct {
	MatchID  string
	Rules    game.Rules // the rules the match pinned
	State    match.State
	Version  int64 // the version folded up to
	Head     int64 // the stream's last version
	Position int64 // global position of the event at Version
	Events   []eventstore.Event
}

// State returns the state of a match after version at, or its latest state when at is 0.
// An unknown match is a NOT_FOUND *game.Error; a version past the end of the stream is a
// BAD_USER_INPUT one that says how far the stream goes.
func State(ctx context.Context, store Reader, games *game.Registry, matchID string, at int64) (Snapshot, error) {
	if at < 0 {
		return Snapshot{}, game.Reject(game.BadInput, "version %d: versions start at 1 (0 means the latest)", at)
	}
	evs, err := readMatch(ctx, store, games, matchID)
	if err != nil {
		return Snapshot{}, err
	}
	if len(evs) == 0 {
		return Snapshot{}, game.Reject(game.NotFound, "no match %q in this store", matchID)
	}
	return StateOf(games, matchID, evs, at)
}

// StateOf is State over a match's events already read (from an export: see ReadExport),
// from version 1.
func StateOf(games *game.Registry, matchID string, evs []eventstore.Event, at int64) (Snapshot, error) {
	if at < 0 {
		return Snapshot{}, game.Reject(game.BadInput, "version %d: versions start at 1 (0 means the latest)", at)
	}
	if len(evs) == 0 {
		return Snapshot{}, game.Reject(game.NotFound, "match %q has no event", matchID)
	}
	public := matchstream.Name(matchID)
	var head int64
	for _, ev := range evs {
		if ev.Stream == public {
			head = ev.Version
		}
	}
	if at == 0 {
		at = head
	}
	if at > head {
		return Snapshot{}, game.Reject(game.BadInput, "match %s has versions 1 to %d; there is no version %d", matchID, head, at)
	}
	// Version at of the match's own stream, with the hidden events that came after it and
	// before the next (they were decided on it).
	n := slices.IndexFunc(evs, func(ev eventstore.Event) bool { return ev.Stream == public && ev.Version > at })
	if n < 0 {
		n = len(evs)
	}
	snap, err := Fold(games, evs[:n])
	if u := (*match.Unreplayable)(nil); errors.As(err, &u) {
		return Snapshot{}, fmt.Errorf("%w; `arbiter verify --match %s` lists every problem of the match", err, matchID)
	}
	if err != nil {
		return Snapshot{}, fmt.Errorf("replay: match %s: %w", matchID, err)
	}
	snap.MatchID, snap.Head = matchID, head
	return snap, nil
}

// Fold folds the events of one match, from version 1 of its own stream, under the rules
// its first event pinned: its own stream's events and its hidden streams' (see
// matchstream.Hidden), in the store's global order. Version is the match's own stream's.
func Fold(games *game.Registry, evs []eventstore.Event) (Snapshot, error) {
	if len(evs) == 0 {
		return Snapshot{}, fmt.Errorf("no event to fold")
	}
	snap := Snapshot{Events: evs}
	f := match.Folder{Games: games}
	id, _ := matchstream.Of(evs[0].Stream)
	var at matchstream.Cursor
	for _, ev := range evs {
		live, err := at.Next(id, ev)
		if err != nil {
			return Snapshot{}, err
		}
		snap.Position = ev.Position
		if !live {
			continue
		}
		rules, st, err := f.Apply(id, snap.Rules, snap.State, ev.Version-1, matchstream.Record(ev))
		if err != nil {
			return Snapshot{}, err
		}
		snap.Rules, snap.State, snap.Version = rules, st, at.Version
	}
	snap.Head = snap.Version
	return snap, nil
}

// readMatch reads every event of a match: its own stream's and, for a game that keeps
// them, its teams' hidden streams', in the store's global order (matchstream.ReadAll).
func readMatch(ctx context.Context, store Reader, games *game.Registry, matchID string) ([]eventstore.Event, error) {
	evs, err := matchstream.ReadAll(ctx, store, games, matchID, pageSize)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return evs, nil
}

// readStream reads a whole stream, page by page.
func readStream(ctx context.Context, store Reader, stream string) ([]eventstore.Event, error) {
	var (
		out   []eventstore.Event
		after int64
	)
	for {
		page, err := store.ReadStream(ctx, stream, after, pageSize)
		if err != nil {
			return nil, fmt.Errorf("replay: reading %s: %w", stream, err)
		}
		out = append(out, page...)
		if len(page) < pageSize {
			return out, nil
		}
		after = page[len(page)-1].Version
	}
}
