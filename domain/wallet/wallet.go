// Package wallet is a player's coins as a pure decider: a ledger of events on the player's
// own stream (wallet-<playerID>), a balance that nothing takes below zero, and holds that
// keep coins aside for a match until the match's own events say where they go (see
// docs/architecture.md, "Facts that span a match and a player: escrow and settlement").
//
// Decide(state, command) gives the events a command causes, or a *game.Error that records
// nothing; Evolve(state, event) folds one event. A settlement or release of a hold that is
// no longer open decides nothing, so a process that takes the same step twice, after a
// crash or on two nodes, changes nothing the second time.
package wallet

import (
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
)

// StartingGrant is what a new player receives once: ten times the auction's step of 100
// coins, so that a newcomer can stake or bid several times before winning anything, and
// small enough that a coin still means something against the economy's daily bonus.
const StartingGrant int64 = 1000

// ReasonStarting is the reason of the starting grant.
const ReasonStarting = "starting grant"

// InsufficientFunds is the rejection code of a hold or spending above the balance.
const InsufficientFunds game.Code = "INSUFFICIENT_FUNDS"

// ShortError is the cause of an InsufficientFunds rejection: what was asked, and the
// balance that is short of it. It is the player's own balance: the error goes to them alone.
type ShortError struct {
	Asked, Balance int64
}

func (e *ShortError) Error() string {
	return fmt.Sprintf("%d coins asked, %d available", e.Asked, e.Balance)
}

// Short returns the rejection of asking more than balance.
func Short(asked, balance int64, what string) error {
	return &game.Error{Code: InsufficientFunds, Reason: fmt.Sprintf("%s needs %d coins and your balance is %d", what, asked, balance), Err: &ShortError{Asked: asked, Balance: balance}}
}

// IsShort reports whether err is a refusal for a short balance.
func IsShort(err error) bool {
	var s *ShortError
	return errors.As(err, &s)
}

// Hold is coins kept aside for a match.
type Hold struct {
	ID     string // the hold's ID: the ID of the event that opened it
	Match  string
	Amount int64
	Seat   *int // the seat the hold was taken for, nil for the first free one
}

// State is a wallet folded from its events. It is a value: Evolve does not change the
// state it is given.
type State struct {
	Balance int64  // coins available
	Granted bool   // the starting grant was given
	Holds   []Hold // open holds, in the order they were opened
	Closed  []string
	// Corrected lists the disputes whose ruling corrected this wallet (RulingCorrected).
	Corrected []string
}

// Held is the total of the open holds.
func (s State) Held() int64 {
	var n int64
	for _, h := range s.Holds {
		n += h.Amount
	}
	return n
}

// OpenHold returns the open hold of a match.
func (s State) OpenHold(matchID string) (Hold, bool) {
	for _, h := range s.Holds {
		if h.Match == matchID {
			return h, true
		}
	}
	return Hold{}, false
}

// HoldByID returns an open hold by its ID.
func (s State) HoldByID(id string) (Hold, bool) {
	for _, h := range s.Holds {
		if h.ID == id {
			return h, true
		}
	}
	return Hold{}, false
}

// The commands.
type (
	// Grant credits coins; the starting grant (ReasonStarting) is given once.
	Grant struct {
		Amount int64
		Reason string
		Ref    string
	}
	// HoldCoins keeps Amount aside for a match, under the hold ID the caller derives.
	// A wallet keeps one open hold per match: asking again decides nothing (see OpenHold).
	HoldCoins struct {
		ID     string
		Match  string
		Amount int64
		Seat   *int
	}
	// Release gives an open hold back whole.
	Release struct {
		Hold   string
		Reason string
	}
	// Settle closes an open hold as its match ended: Charged leaves the wallet, Won enters it.
	Settle struct {
		Hold    string
		Charged int64
		Won     int64
	}
	// Spend debits coins from the balance (the economy's purchases).
	Spend struct {
		Amount int64
		Reason string
		Ref    string
	}
)

// Command is a request to a wallet.
type Command interface{ command() }

func (Grant) command()     {}
func (HoldCoins) command() {}
func (Release) command()   {}
func (Settle) command()    {}
func (Spend) command()     {}

// Decide checks a command against the wallet and returns the events it causes: none when
// it is already done (a second starting grant, a hold for a match already held, a
// settlement or release of a hold no longer open), or a *game.Error that records nothing.
func Decide(s State, cmd Command) ([]game.Event, error) {
	switch c := cmd.(type) {
	case Grant:
		if c.Amount <= 0 {
			return nil, game.Reject(game.BadInput, "a grant must be of a positive number of coins, not %d", c.Amount)
		}
		if c.Reason == ReasonStarting && s.Granted {
			return nil, nil
		}
		return []game.Event{CoinsGranted{Amount: c.Amount, Reason: c.Reason, Ref: c.Ref}}, nil
	case HoldCoins:
		switch {
		case c.ID == "" || c.Match == "":
			return nil, game.Reject(game.BadInput, "a hold needs its ID and its match")
		case c.Amount < 0:
			return nil, game.Reject(game.BadInput, "a hold of %d coins: it must not be negative", c.Amount)
		}
		if _, open := s.OpenHold(c.Match); open {
			return nil, nil
		}
		if slices.Contains(s.Closed, c.ID) {
			return nil, game.Reject(game.Conflict, "hold %s was closed already: a new hold needs a new ID", c.ID)
		}
		if c.Amount > s.Balance {
			return nil, Short(c.Amount, s.Balance, "this match")
		}
		return []game.Event{CoinsHeld{Hold: c.ID, Match: c.Match, Amount: c.Amount, Seat: c.Seat}}, nil
	case Release:
		h, open := s.HoldByID(c.Hold)
		if !open {
			return nil, nil
		}
		return []game.Event{HoldReleased{Match: h.Match, Hold: h.ID, Amount: h.Amount, Reason: c.Reason}}, nil
	case Settle:
		h, open := s.HoldByID(c.Hold)
		if !open {
			return nil, nil
		}
		if c.Charged < 0 || c.Won < 0 || c.Charged > h.Amount {
			return nil, game.Reject(game.BadInput, "a settlement of hold %s (%d coins) cannot charge %d and pay %d", h.ID, h.Amount, c.Charged, c.Won)
		}
		return []game.Event{HoldSettled{Match: h.Match, Hold: h.ID, Held: h.Amount, Charged: c.Charged, Won: c.Won}}, nil
	case Spend:
		switch {
		case c.Amount <= 0:
			return nil, game.Reject(game.BadInput, "a spending must be of a positive number of coins, not %d", c.Amount)
		case c.Amount > s.Balance:
			return nil, Short(c.Amount, s.Balance, c.Reason)
		}
		return []game.Event{CoinsSpent{Amount: c.Amount, Reason: c.Reason, Ref: c.Ref}}, nil
	case Correct:
		return decideCorrect(s, c)
	}
	return nil, game.Reject(game.BadInput, "unknown wallet command %T", cmd)
}

// Evolve folds one event into the wallet.
func Evolve(s State, e game.Event) State {
	switch e := e.(type) {
	case CoinsGranted:
		s.Balance += e.Amount
		if e.Reason == ReasonStarting {
			s.Granted = true
		}
	case CoinsHeld:
		s.Balance -= e.Amount
		s.Holds = append(slices.Clone(s.Holds), Hold{ID: e.Hold, Match: e.Match, Amount: e.Amount, Seat: e.Seat})
	case HoldReleased:
		s = s.close(e.Hold)
		s.Balance += e.Amount
	case HoldSettled:
		s = s.close(e.Hold)
		s.Balance += e.Held - e.Charged + e.Won
	case CoinsSpent:
		s.Balance -= e.Amount
	case RulingCorrected:
		s.Balance += e.Amount
		s.Corrected = append(slices.Clone(s.Corrected), e.Dispute)
	}
	return s
}

// close removes an open hold.
func (s State) close(id string) State {
	s.Holds = slices.DeleteFunc(slices.Clone(s.Holds), func(h Hold) bool { return h.ID == id })
	s.Closed = append(slices.Clone(s.Closed), id)
	return s
}
