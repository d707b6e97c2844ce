package wallet

import (
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
)

// A ruling on a disputed match (package dispute) that voids or changes its result after
// its holds were settled moves coins again: each seat gets what the new result pays less
// what the old one paid. A void gives every seat back what it staked (and what the game
// charged it): the loser is refunded, the winner gives back what it won. That is a
// correction of a closed hold, so it is an event of its own, once per ruling and wallet.

// RulingCorrected moves Amount coins (negative: out of the wallet) as a ruling on Match's
// Dispute says. It is the one event that may leave a balance below zero: a winner who
// spent what a void takes back owes it, and can hold or spend nothing until its balance
// is positive again (a hold or a spending above the balance is refused).
type RulingCorrected struct {
	Player  string `json:"player"` // the wallet's: event IDs are unique across streams
	Match   string `json:"match"`
	Dispute string `json:"dispute"`
	Amount  int64  `json:"amount"`
	Reason  string `json:"reason"` // "voided", or "ruling" for a changed result
}

func (RulingCorrected) EventType() string { return "RulingCorrected" }

// Correct applies a ruling's correction to the wallet; a ruling applied before, or a
// correction of nothing, decides nothing.
type Correct struct {
	Player  string
	Match   string
	Dispute string
	Amount  int64
	Reason  string
}

func (Correct) command() {}

func decideCorrect(s State, c Correct) ([]game.Event, error) {
	if c.Player == "" || c.Match == "" || c.Dispute == "" {
		return nil, game.Reject(game.BadInput, "a correction needs its player, its match and its dispute")
	}
	if c.Amount == 0 || slices.Contains(s.Corrected, c.Dispute) {
		return nil, nil
	}
	return []game.Event{RulingCorrected(c)}, nil
}

// CorrectionID is the event ID of a ruling's correction of a player's wallet: once per
// ruling and wallet.
func CorrectionID(dispute, player string) string { return "ruling:" + dispute + ":" + player }
