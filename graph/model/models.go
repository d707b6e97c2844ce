// Package model holds the Go types behind the GraphQL schema: those written by hand here
// (bound by gqlgen's autobind) and those generated into models_gen.go.
package model

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/projections"
)

// Match is a match as one caller sees it. The fields the schema resolves on demand
// (state, board, events, moves, seats) are computed from View.
type Match struct {
	ID             string
	Game           Game
	RulesVersion   string
	Status         MatchStatus
	Rated          bool
	Options        []*Option
	Version        int
	Turn           *int
	ToAct          []int
	Choices        []string
	Phase          *string
	DrawOfferBy    *int
	Result         *Result
	SeedCommitment string
	Seed           *string
	Fairness       *Fairness
	CreatedAt      time.Time
	RematchOf      *string
	Clock          *Clock

	View     *projections.MatchView `json:"-"`
	ViewerID string                 `json:"-"` // the caller's player ID, "" for a spectator
	// Review is a reviewer of disputes looking (reviewMatch): every hidden fact once the
	// match is over (projections.Viewer.Reviewing).
	Review bool `json:"-"`
	// Shared, when set, keeps what the field resolvers compute from View (which never
	// changes) for every caller this Match is handed to: matchUpdates shares one Match per
	// viewer class and version, so its state, board and moves are computed once, not per caller.
	Shared *Shared `json:"-"`
	// Seen keeps the game's state as this Match's caller sees it once computed, for every
	// field that reads it (board, moves, hand, cards, state): matchModel sets it.
	Seen *Seen `json:"-"`
}

// Seen is a game's view for one caller (projections.Viewer.View), computed once.
type Seen struct {
	once  sync.Once
	view  game.View
	rules game.Rules
	err   error
}

// View returns the view and rules computed by f, calling f once.
func (s *Seen) View(f func() (game.View, game.Rules, error)) (game.View, game.Rules, error) {
	s.once.Do(func() { s.view, s.rules, s.err = f() })
	return s.view, s.rules, s.err
}

// Shared holds the fields of a Match computed once for all its callers.
type Shared struct {
	boardOnce, movesOnce, stateOnce sync.Once
	board                           *game.Board
	boardErr                        error
	moves                           []string
	movesErr                        error
	state                           GameState
	stateErr                        error
}

// State returns the game state computed by f, calling f once.
func (s *Shared) State(f func() (GameState, error)) (GameState, error) {
	s.stateOnce.Do(func() { s.state, s.stateErr = f() })
	return s.state, s.stateErr
}

// Board returns the board computed by f, calling f once.
func (s *Shared) Board(f func() (*game.Board, error)) (*game.Board, error) {
	s.boardOnce.Do(func() { s.board, s.boardErr = f() })
	return s.board, s.boardErr
}

// Moves returns the moves computed by f, calling f once. Callers must not change them.
func (s *Shared) Moves(f func() ([]string, error)) ([]string, error) {
	s.movesOnce.Do(func() { s.moves, s.movesErr = f() })
	return s.moves, s.movesErr
}

// Player is a registered player.
type Player struct {
	ID   string
	Name string
}

// JSON is a raw JSON value.
type JSON json.RawMessage

// MarshalGQL writes the value as it is.
func (j JSON) MarshalGQL(w io.Writer) {
	if len(j) == 0 {
		_, _ = io.WriteString(w, "null")
		return
	}
	_, _ = w.Write(j)
}

// UnmarshalGQL accepts any input value.
func (j *JSON) UnmarshalGQL(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("JSON: %w", err)
	}
	*j = b
	return nil
}

// GameState is a game's state as one viewer may see it: a member of the union GameState.
type GameState interface{}
