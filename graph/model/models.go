// Package model holds the Go types behind the GraphQL schema: those written by hand here
// (bound by gqlgen's autobind) and those generated into models_gen.go.
package model

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/arbiter-games/arbiter/projections"
)

// Match is a match as one caller sees it. The fields the schema resolves on demand
// (board, events, moves, seats) are computed from View.
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
	CreatedAt      time.Time
	RematchOf      *string
	Clock          *Clock

	View     *projections.MatchView `json:"-"`
	ViewerID string                 `json:"-"` // the caller's player ID, "" for a spectator
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
