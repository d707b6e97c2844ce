package dispute

import "github.com/arbiter-games/arbiter/domain/game"

// The events of a match's dispute stream (dispute-<matchID>). They are stored server-only:
// the API shows a dispute to the players of its match and to reviewers alone.

// Facts is what a dispute needs to know of its finished match, read by the engine from
// the match's stream when the first dispute is opened and recorded with it, so that the
// stream decides alone from then on.
type Facts struct {
	Game    string   `json:"game"`
	Players []string `json:"players"` // by seat
	Teams   []int    `json:"teams"`   // by seat
	Rated   bool     `json:"rated"`
	Stake   int64    `json:"stake,omitempty"`
	Result  Result   `json:"result"`  // the result the match recorded
	Version int64    `json:"version"` // the match's last version when the dispute was opened
}

// Result is a match's result as a ruling sees it: the winning seats (none for a draw) and
// the reason; Void for no result at all (a voided match moves no rating and no coin).
type Result struct {
	Winners []int  `json:"winners"`
	Reason  string `json:"reason"`
	Void    bool   `json:"void,omitempty"`
}

// Ref cites one event already recorded in the match, by its version and type: a
// disconnection, a clock stamp, a draw offer.
type Ref struct {
	Version int64  `json:"version"`
	Type    string `json:"type"`
}

// Opened opens a dispute: a player of the match says why the result is wrong. Facts is set
// on the stream's first event only.
type Opened struct {
	Dispute string `json:"dispute"`
	Match   string `json:"match"`
	By      string `json:"by"`
	Seat    int    `json:"seat"`
	Reason  string `json:"reason"`
	Cites   []Ref  `json:"cites,omitempty"`
	Facts   *Facts `json:"facts,omitempty"`
}

// StatementAdded is a player's statement in an open dispute, citing match events.
type StatementAdded struct {
	Dispute string `json:"dispute"`
	By      string `json:"by"`
	Seat    int    `json:"seat"`
	Text    string `json:"text"`
	Cites   []Ref  `json:"cites,omitempty"`
}

// Ruled closes a dispute with a reviewer's ruling. Before is the match's result as it
// stood (the recorded one, or an earlier ruling's), After the result from now on: the
// same for an upheld result. The read side moves ratings and coins from Before to After.
type Ruled struct {
	Dispute  string `json:"dispute"`
	Match    string `json:"match"`
	Reviewer string `json:"reviewer"`
	Ruling   Ruling `json:"ruling"`
	Note     string `json:"note,omitempty"`
	Before   Result `json:"before"`
	After    Result `json:"after"`
}

func (Opened) EventType() string         { return "DisputeOpened" }
func (StatementAdded) EventType() string { return "DisputeStatementAdded" }
func (Ruled) EventType() string          { return "DisputeRuled" }

// Events decodes a dispute stream.
var Events = func() *game.Codec {
	c := game.NewCodec()
	game.Register[Opened](c, 1)
	game.Register[StatementAdded](c, 1)
	game.Register[Ruled](c, 1)
	return c
}()

// Stream is the name of a match's dispute stream.
func Stream(matchID string) string { return "dispute-" + matchID }

// ReasonVoided is the reason of a voided result, and of the coins a void gives back.
const ReasonVoided = "voided"

// ReasonRuling is the reason of a result a ruling changed.
const ReasonRuling = "ruling"
