package game

import (
	"fmt"
	"sort"
)

// Registry maps a game's ID to its rules. It is filled once, at wiring time under cmd/,
// and read concurrently afterwards.
type Registry struct {
	games map[string]Rules
}

// NewRegistry returns a registry of the given games.
func NewRegistry(games ...Rules) *Registry {
	r := &Registry{games: map[string]Rules{}}
	for _, g := range games {
		id := g.Info().ID
		if _, dup := r.games[id]; dup {
			panic("game: registered twice: " + id)
		}
		r.games[id] = g
	}
	return r
}

// Get returns the rules of a game, or a NOT_FOUND rejection.
func (r *Registry) Get(id string) (Rules, error) {
	g, ok := r.games[id]
	if !ok {
		return nil, &Error{Code: NotFound, Reason: fmt.Sprintf("no game %q is hosted here (known: %v)", id, r.IDs())}
	}
	return g, nil
}

// IDs lists the hosted games, sorted.
func (r *Registry) IDs() []string {
	ids := make([]string, 0, len(r.games))
	for id := range r.games {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Pinned is implemented by a game whose rules changed since some of its matches were
// recorded, and that still plays those: Under is the rules as they were under an older
// rules version (Info().RulesVersion says which), ok false for a version it does not
// know. A match is folded and verified with the rules it pinned at its creation, so that
// a change of the rules never changes what an old match was.
type Pinned interface {
	Under(version string) (Rules, bool)
	// Versions lists the older versions Under plays, oldest first: what an operator is
	// told this build has when a match pinned another.
	Versions() []string
}

// RulesOf returns rules as they were under version: rules themselves when it is their
// version, else what a Pinned game plays under it; ok false when rules play no such
// version. It is the one answer to "which rules does a match that pinned version fold
// with", for the fold and for whatever restores a folded match.
func RulesOf(rules Rules, version string) (Rules, bool) {
	if rules.Info().RulesVersion == version {
		return rules, true
	}
	if p, ok := rules.(Pinned); ok {
		return p.Under(version)
	}
	return nil, false
}
