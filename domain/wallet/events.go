package wallet

import "github.com/arbiter-games/arbiter/domain/game"

// The events of a wallet stream. Each is private to its player (stored server-only; the
// API shows a wallet to its owner alone).

// CoinsGranted credits coins: the starting grant, a daily bonus, a reward.
type CoinsGranted struct {
	Amount int64  `json:"amount"`
	Reason string `json:"reason"`
	Ref    string `json:"ref,omitempty"` // what it is for: the day of a daily bonus, a challenge
}

// CoinsHeld keeps coins aside for a match. Hold is the hold's ID, the ID of this event;
// Seat the seat asked for, so that a join interrupted by a crash is sent again the same.
type CoinsHeld struct {
	Hold   string `json:"hold"`
	Match  string `json:"match"`
	Amount int64  `json:"amount"`
	Seat   *int   `json:"seat,omitempty"`
}

// HoldReleased gives a hold back whole: the join was refused, the seat vacated.
type HoldReleased struct {
	Match  string `json:"match"`
	Hold   string `json:"hold"`
	Amount int64  `json:"amount"`
	Reason string `json:"reason"`
}

// HoldSettled closes a hold as its match ended: the wallet gets back Held - Charged + Won.
type HoldSettled struct {
	Match   string `json:"match"`
	Hold    string `json:"hold"`
	Held    int64  `json:"held"`
	Charged int64  `json:"charged"`
	Won     int64  `json:"won"`
}

// CoinsSpent debits coins for something bought (the economy's).
type CoinsSpent struct {
	Amount int64  `json:"amount"`
	Reason string `json:"reason"`
	Ref    string `json:"ref,omitempty"`
}

func (CoinsGranted) EventType() string { return "CoinsGranted" }
func (CoinsHeld) EventType() string    { return "CoinsHeld" }
func (HoldReleased) EventType() string { return "HoldReleased" }
func (HoldSettled) EventType() string  { return "HoldSettled" }
func (CoinsSpent) EventType() string   { return "CoinsSpent" }

// Events decodes a wallet stream.
var Events = func() *game.Codec {
	c := game.NewCodec()
	game.Register[CoinsGranted](c, 1)
	game.Register[CoinsHeld](c, 1)
	game.Register[HoldReleased](c, 1)
	game.Register[HoldSettled](c, 1)
	game.Register[CoinsSpent](c, 1)
	game.Register[RulingCorrected](c, 1)
	return c
}()

// Entry is one line of a wallet's statement: how an event moved the balance (negative for
// coins that left it, or went into a hold), why, and for which match.
type Entry struct {
	Amount int64
	Reason string
	Match  string
	Ref    string // what a grant or spending is for: a day, a challenge, a hat
}

// The reasons of the entries that have none of their own.
const (
	ReasonHeld    = "held"
	ReasonSettled = "settled"
)

// EntryOf is the statement line of an event.
func EntryOf(e game.Event) Entry {
	switch e := e.(type) {
	case CoinsGranted:
		return Entry{Amount: e.Amount, Reason: e.Reason, Ref: e.Ref}
	case CoinsHeld:
		return Entry{Amount: -e.Amount, Reason: ReasonHeld, Match: e.Match}
	case HoldReleased:
		return Entry{Amount: e.Amount, Reason: e.Reason, Match: e.Match}
	case HoldSettled:
		return Entry{Amount: e.Held - e.Charged + e.Won, Reason: ReasonSettled, Match: e.Match}
	case CoinsSpent:
		return Entry{Amount: -e.Amount, Reason: e.Reason, Ref: e.Ref}
	case RulingCorrected:
		return Entry{Amount: e.Amount, Reason: e.Reason, Match: e.Match, Ref: e.Dispute}
	}
	return Entry{}
}

// Stream is the name of a player's wallet stream.
func Stream(playerID string) string { return "wallet-" + playerID }
