package projections

import (
	"context"
	"errors"
	"fmt"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/snapshot"
)

// WriteSnapshot writes the models' stored forms into a new snapshot of dir (package
// snapshot), each at its own checkpoint with the store's hash of the event there, and
// returns its path. Each model is held only while it encodes itself.
func WriteSnapshot(ctx context.Context, store eventstore.Store, dir string, ms ...Stored) (string, error) {
	var s snapshot.Snapshot
	for _, m := range ms {
		pos, data, err := m.Save()
		if err != nil {
			return "", fmt.Errorf("projections: saving %s: %w", m.Name(), err)
		}
		hash, err := globalHashAt(ctx, store, pos)
		if err != nil {
			return "", err
		}
		s.Models = append(s.Models, snapshot.Model{Name: m.Name(), Format: m.Format(), Position: pos, GlobalHash: hash, Data: data})
	}
	return snapshot.Write(dir, s)
}

// globalHashAt is the store's GlobalHash of the event at pos, "" for position 0 and for a
// position the store does not have.
func globalHashAt(ctx context.Context, store eventstore.Store, pos int64) (string, error) {
	if pos == 0 {
		return "", nil
	}
	evs, err := store.ReadAll(ctx, pos-1, 1)
	if err != nil {
		return "", fmt.Errorf("projections: reading the event at %d: %w", pos, err)
	}
	if len(evs) == 0 || evs[0].Position != pos {
		return "", nil
	}
	return evs[0].GlobalHash, nil
}

// Refused is why a snapshot was not used: the read side then starts from an older one, or
// folds from zero.
type Refused struct {
	Path   string
	Reason string
}

func (r *Refused) Error() string { return fmt.Sprintf("snapshot %s refused: %s", r.Path, r.Reason) }

// LoadSnapshot restores empty models from the newest snapshot of dir that fits the store
// and this build, and returns its path ("" when none was used) and why each newer one
// was refused. A snapshot is refused when it is damaged, when a model's stored form is of
// another format or missing, when a model's position is past the store's head, when the
// store's hash at a model's position is not the snapshot's (another store, or one
// rewritten), or when a model cannot read its part (a game's rules this build does not
// play, a form this build cannot decode). Each refused snapshot leaves the next older one
// to try, and the fold from zero only when none is left.
//
// models returns the empty models to restore. It is called once, and again after each
// snapshot the models began to read and then refused (they are no longer empty): on
// return, the models it last returned are those of the snapshot used, or empty.
func LoadSnapshot(ctx context.Context, store eventstore.Store, dir string, models func() []Stored) (used string, refused []*Refused, err error) {
	paths, err := snapshot.List(dir)
	if err != nil {
		return "", []*Refused{{Path: dir, Reason: err.Error()}}, nil
	}
	ms, dirty := models(), false
	defer func() {
		if dirty && used == "" && err == nil {
			models() // empty again, for the fold from zero
		}
	}()
	for _, path := range paths {
		s, reason := check(ctx, store, path, ms)
		if reason != "" {
			refused = append(refused, &Refused{Path: path, Reason: reason})
			continue
		}
		if dirty {
			ms, dirty = models(), false
		}
		if reason := restore(ctx, store, s, ms); reason != "" {
			if ctx.Err() != nil {
				return "", refused, ctx.Err()
			}
			refused, dirty = append(refused, &Refused{Path: path, Reason: reason}), true
			continue
		}
		return path, refused, nil
	}
	return "", refused, nil
}

// restore reads each model's part of s into ms, and says why one could not, "" when all
// did.
func restore(ctx context.Context, store eventstore.Store, s snapshot.Snapshot, ms []Stored) string {
	for _, m := range ms {
		part, _ := s.Find(m.Name())
		if err := m.Restore(ctx, store, part.Position, part.Data); err != nil {
			return fmt.Sprintf("%s cannot read its part: %v", m.Name(), err)
		}
	}
	return ""
}

// check reads the snapshot at path and says why the store and these models cannot use
// it, "" when they can.
func check(ctx context.Context, store eventstore.Store, path string, ms []Stored) (snapshot.Snapshot, string) {
	s, err := snapshot.Read(path)
	if d := (*snapshot.Damaged)(nil); errors.As(err, &d) {
		return s, d.Reason
	}
	if err != nil {
		return s, err.Error()
	}
	head, err := store.HeadPosition(ctx)
	if err != nil {
		return s, fmt.Sprintf("the store's head cannot be read: %v", err)
	}
	for _, m := range ms {
		part, ok := s.Find(m.Name())
		switch {
		case !ok:
			return s, fmt.Sprintf("it holds no %s", m.Name())
		case part.Format != m.Format():
			return s, fmt.Sprintf("its %s are of format %d, this build reads %d", m.Name(), part.Format, m.Format())
		case part.Position > head:
			return s, fmt.Sprintf("its %s are at position %d, past the store's head %d (a store cut short, or another one)", m.Name(), part.Position, head)
		}
		hash, err := globalHashAt(ctx, store, part.Position)
		if err != nil {
			return s, err.Error()
		}
		if hash != part.GlobalHash {
			return s, fmt.Sprintf("the store's hash at position %d is not the snapshot's (another store, or one rewritten since)", part.Position)
		}
	}
	return s, ""
}
