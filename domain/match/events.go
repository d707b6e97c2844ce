package match

import (
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

// The lifecycle's events. Game events sit between MatchStarted and MatchEnded in the
// same stream.

// MatchCreated is always a match's first event: it pins the game and its rules version.
type MatchCreated struct {
	Game           string       `json:"game"`
	RulesVersion   string       `json:"rulesVersion"`
	Options        game.Options `json:"options,omitempty"`
	Rated          bool         `json:"rated"`
	Seats          int          `json:"seats"`
	Teams          []int        `json:"teams"`
	CreatedBy      string       `json:"createdBy,omitempty"`
	RematchOf      string       `json:"rematchOf,omitempty"` // the finished match this one replays, seats turned
	Reserved       []string     `json:"reserved,omitempty"`  // by seat: the only player who may sit there
	Abandon        *Abandon     `json:"abandon,omitempty"`   // the rule for players who leave
	SeedCommitment string       `json:"seedCommitment"`      // hex SHA-256 of the seed, revealed at the end
	// Fairness is the procedure of the match's random outcomes (fairness.Version): 1 for
	// every match created since players bring entropy, absent (0, Legacy) before.
	Fairness int `json:"fairness,omitempty"`
}

// SeedDrawn holds the match's secret seed. It is server-only until SeedRevealed.
type SeedDrawn struct {
	Seed []byte `json:"seed"`
}

// SeatTaken says a player sits at a seat.
type SeatTaken struct {
	Seat     int    `json:"seat"`
	PlayerID string `json:"playerId"`
	Name     string `json:"name"`
	Bot      bool   `json:"bot,omitempty"` // the house bot (package bot) sits there
	// Entropy is what the seat brings to the match seed, in hex (fairness.MatchSeed), and
	// EntropyBy who drew it: "player", or "server" for a player who sent none (the house
	// bot's, too). Absent in a match of the Legacy procedure.
	Entropy   string `json:"entropy,omitempty"`
	EntropyBy string `json:"entropyBy,omitempty"`
}

// Who drew a seat's entropy (SeatTaken.EntropyBy).
const (
	EntropyByPlayer = "player"
	EntropyByServer = "server"
)

// MatchStarted opens play at At (the last join's time); the game's Setup events follow it.
type MatchStarted struct {
	At time.Time `json:"at,omitzero"`
}

// DrawOffered says a seat offers a draw to the others.
type DrawOffered struct {
	Seat int `json:"seat"`
}

// DrawAccepted says a seat accepts the pending offer.
type DrawAccepted struct {
	Seat int `json:"seat"`
}

// DrawDeclined says a seat declines the pending offer; Implicit when it did so by acting.
type DrawDeclined struct {
	Seat     int  `json:"seat"`
	Implicit bool `json:"implicit,omitempty"`
}

// Resigned says a seat resigned.
type Resigned struct {
	Seat int `json:"seat"`
}

// MatchEnded is the result. Winners is empty for a draw.
type MatchEnded struct {
	Winners []int  `json:"winners"`
	Reason  string `json:"reason"`
}

// SeedRevealed publishes the seed once the match is over, so anyone can check the shuffles
// against the commitment of MatchCreated.
type SeedRevealed struct {
	Seed []byte `json:"seed"`
	// MatchSeed is the seed the game drew from, derived from Seed and the seats' entropy
	// (State.GameSeed); absent under the Legacy procedure, where it is Seed.
	MatchSeed []byte `json:"matchSeed,omitempty"`
}

func (MatchCreated) EventType() string { return "MatchCreated" }
func (SeedDrawn) EventType() string    { return "SeedDrawn" }
func (SeatTaken) EventType() string    { return "SeatTaken" }
func (MatchStarted) EventType() string { return "MatchStarted" }
func (DrawOffered) EventType() string  { return "DrawOffered" }
func (DrawAccepted) EventType() string { return "DrawAccepted" }
func (DrawDeclined) EventType() string { return "DrawDeclined" }
func (Resigned) EventType() string     { return "Resigned" }
func (MatchEnded) EventType() string   { return "MatchEnded" }
func (SeedRevealed) EventType() string { return "SeedRevealed" }

// lifecycle decodes the events above.
var lifecycle = func() *game.Codec {
	c := game.NewCodec()
	game.Register[MatchCreated](c, 1)
	game.Register[SeedDrawn](c, 1)
	game.Register[SeatTaken](c, 1)
	game.Register[MatchStarted](c, 1)
	game.Register[DrawOffered](c, 1)
	game.Register[DrawAccepted](c, 1)
	game.Register[DrawDeclined](c, 1)
	game.Register[Resigned](c, 1)
	game.Register[MatchEnded](c, 1)
	game.Register[SeedRevealed](c, 1)
	game.Register[SeatLeft](c, 1)
	game.Register[SeatReturned](c, 1)
	game.Register[Forfeited](c, 1)
	game.Register[SeatVacated](c, 1)
	game.Register[SeatFunded](c, 1)
	return c
}()

// Decode reads a stored event of a match of the given game: a lifecycle event or one of
// the game's own.
func Decode(rules game.Rules, typ string, schema int, payload []byte) (game.Event, error) {
	if lifecycle.Knows(typ) {
		return lifecycle.Decode(typ, schema, payload)
	}
	return rules.Events().Decode(typ, schema, payload)
}

// IsLifecycle reports whether typ is a lifecycle event type rather than a game's.
func IsLifecycle(typ string) bool { return lifecycle.Knows(typ) }

// SchemaOf returns the current schema version of an event type of this match.
func SchemaOf(rules game.Rules, typ string) int {
	if lifecycle.Knows(typ) {
		return lifecycle.Schema(typ)
	}
	return rules.Events().Schema(typ)
}
