package projections

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Stored is a read model that a snapshot of the read side can hold (package snapshot):
// it writes itself down at its checkpoint, and an empty one reads that back and goes on
// from there, ignoring the events at or below the position as it always does.
type Stored interface {
	Projection
	// Format is the version of the model's stored form: a snapshot of another is refused.
	Format() int
	// Save returns the model's stored form and the checkpoint it holds, taken under the
	// model's read lock (the writer waits for the encoding, not for the file).
	Save() (pos int64, data []byte, err error)
	// Restore makes an empty model what Save wrote at pos. What the form leaves out (the
	// game state of a live match whose game cannot be written down) is folded again from
	// the match's own events in store. On an error the model is left as it was.
	Restore(ctx context.Context, store eventstore.Store, pos int64, data []byte) error
}

// encode writes v with encoding/gob: the stored forms are this package's own exported
// types, which gob writes without a schema of their own to keep.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(v); err != nil {
		return nil, fmt.Errorf("projections: encoding a stored form: %w", err)
	}
	return b.Bytes(), nil
}

// decode reads what encode wrote into v.
func decode(data []byte, v any) error {
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(v); err != nil {
		return fmt.Errorf("projections: decoding a stored form: %w", err)
	}
	return nil
}

// UnknownRules is the error of a stored form that holds a match of a game, or of a rules
// version of it (game.Pinned), that this build does not play: the snapshot is refused and
// the read side folds from zero, which sets such a match aside as it always did.
type UnknownRules struct {
	Game, Version string
}

func (e *UnknownRules) Error() string {
	return fmt.Sprintf("the snapshot holds a match of %s under rules %q, which this build does not play", e.Game, e.Version)
}

// pinnedRules returns the rules of game id under version, as a match that pinned them
// folds (match.Folder.Rules, both through game.RulesOf).
func pinnedRules(reg *game.Registry, id, version string) (game.Rules, error) {
	rules, err := reg.Get(id)
	if err != nil {
		return nil, &UnknownRules{Game: id, Version: version}
	}
	if pinned, ok := game.RulesOf(rules, version); ok {
		return pinned, nil
	}
	return nil, &UnknownRules{Game: id, Version: version}
}

// currentRules returns the rules of game id today, as Ratings and the seated models read
// them.
func currentRules(reg *game.Registry, id string) (game.Rules, error) {
	rules, err := reg.Get(id)
	if err != nil {
		return nil, &UnknownRules{Game: id, Version: "(any)"}
	}
	return rules, nil
}

// storedState is a game state written down by its rules (game.Snapshotting), or nothing
// when they cannot: the state is then folded again from the match's events.
func storedState(rules game.Rules, st game.State) (data []byte, ok bool) {
	s, can := rules.(game.Snapshotting)
	if !can || st == nil {
		return nil, false
	}
	b, err := s.EncodeState(st)
	if err != nil {
		return nil, false
	}
	return b, true
}

// restoredState reads a game state storedState wrote; ok false when the rules cannot
// (another format, no codec any more), and the state must be folded again.
func restoredState(rules game.Rules, data []byte) (game.State, bool) {
	st, err := decodeState(rules, data)
	return st, err == nil
}

// errNoCodec is decodeState's error for rules that no longer write their states down.
var errNoCodec = errors.New("projections: the game's rules have no stored form (game.Snapshotting)")

// decodeState is restoredState with the reason a form does not read back.
func decodeState(rules game.Rules, data []byte) (game.State, error) {
	s, can := rules.(game.Snapshotting)
	if !can {
		return nil, errNoCodec
	}
	return s.DecodeState(data)
}
