package projections

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
)

// MatchView is one match as the read side knows it.
type MatchView struct {
	ID        string
	Rules     game.Rules
	State     match.State
	Version   int64
	Position  int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Matches is the live state of every match: boards, moves, seats, and the lobby.
type Matches struct {
	folder engine.Folder
	checkpoint
	byID map[string]*MatchView
}

// NewMatches returns an empty model for the games of reg.
func NewMatches(reg *game.Registry) *Matches {
	return &Matches{folder: engine.Folder{Games: reg}, byID: map[string]*MatchView{}}
}

// Name implements Projection.
func (m *Matches) Name() string { return "matches" }

// Apply implements Projection.
func (m *Matches) Apply(ev eventstore.Event) error {
	defer m.mu.Unlock()
	if !m.admit(ev) {
		return nil
	}
	id, ok := strings.CutPrefix(ev.Stream, "match-")
	if !ok {
		return nil
	}
	v, err := m.fold(id, m.byID[id], []eventstore.Event{ev})
	if err != nil {
		return err
	}
	m.byID[id] = v
	return nil
}

// Record is what a game's export needs to know of the match around it.
func (v *MatchView) Record() game.Record { return v.State.Record(v.Rules, v.ID, v.CreatedAt) }

// Get returns a match's view, or nil.
func (m *Matches) Get(id string) *MatchView {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.byID[id]
}

// Filter selects matches of the lobby.
type Filter struct {
	Status match.Status // "" for any
	Game   string       // "" for any
	Limit  int          // <= 0 for no limit
}

// List returns matches, newest first.
func (m *Matches) List(f Filter) []*MatchView {
	m.mu.RLock()
	out := make([]*MatchView, 0, len(m.byID))
	for _, v := range m.byID {
		if (f.Status == "" || v.State.Status == f.Status) && (f.Game == "" || v.State.Game == f.Game) {
			out = append(out, v)
		}
	}
	m.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.After(out[j].CreatedAt)
		}
		return out[i].ID < out[j].ID
	})
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out
}

// Digest implements Projection: every match's ID, version, status, result and board.
func (m *Matches) Digest() string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	ids := make([]string, 0, len(m.byID))
	for id := range m.byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	h := sha256.New()
	for _, id := range ids {
		v := m.byID[id]
		fmt.Fprintf(h, "%s %d %s %v", id, v.Version, v.State.Status, v.State.Result)
		if b, ok := v.Rules.(game.Boarded); ok {
			fmt.Fprintf(h, " %s", b.Board(v.State.GameState).FEN)
		}
		fmt.Fprintln(h)
	}
	return fmt.Sprintf("%d matches, checkpoint %d, sha256 %s", len(ids), m.pos, hex.EncodeToString(h.Sum(nil))[:16])
}
