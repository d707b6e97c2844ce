package solwaris

import (
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// The events of a match, in the order a match records them. Cells are named as
// arena.Cell.String writes them ("c7"); fighters by their index in the match (the heroes
// first, by seat; each summon after them, in the order it came). Who may see each one is
// Rules.Sight: only the key (the server's), a grimoire or a start cell chosen before the
// reveal (its team's) and a trap's laying (its team's) are secret.
type (
	// Keyed holds the key every random outcome of the match is drawn from, and each
	// seat's purse: the server's alone until the seed is revealed at the end.
	Keyed struct {
		Key    string  `json:"key"`
		Purses []int64 `json:"purses"`
		// Fairness is the procedure the key draws by (fairness.Version; see rand.go):
		// absent, Legacy, in a match recorded before V1.
		Fairness int `json:"fairness,omitempty"`
	}
	// Opened opens the match on its arena; the grimoire phase runs until Deadline.
	Opened struct {
		Map      string    `json:"map"`
		Teams    []int     `json:"teams"`
		Stake    int64     `json:"stake,omitempty"`
		Deadline time.Time `json:"deadline"`
	}
	// GrimoireChosen is a seat's class and variants, seen by its team until both are
	// locked.
	GrimoireChosen struct {
		Seat     int      `json:"seat"`
		Team     int      `json:"team"`
		Class    string   `json:"class,omitempty"`
		Variants []string `json:"variants,omitempty"`
	}
	// GrimoiresLocked reveals every seat's grimoire and brings the heroes into the match;
	// Auto lists the seats given the default grimoire at the deadline. Placement runs
	// until Deadline.
	GrimoiresLocked struct {
		Grimoires []Grimoire `json:"grimoires"`
		Auto      []int      `json:"auto,omitempty"`
		Deadline  time.Time  `json:"deadline"`
	}
	// PlacementChosen is a seat's start cell, seen by its team until every fighter is
	// placed.
	PlacementChosen struct {
		Seat int    `json:"seat"`
		Team int    `json:"team"`
		Cell string `json:"cell,omitempty"`
	}
	// FightersPlaced reveals every start cell (Auto: placed by the game at the deadline,
	// drawn from the seed) and opens the auction: the seed designates the team to play
	// first, and the other team may buy the initiative until Deadline.
	FightersPlaced struct {
		Cells      []Placement `json:"cells"`
		Designated int         `json:"designated"`
		Deadline   time.Time   `json:"deadline"`
		Drawn      Drawn       `json:"drawn"`
	}
	// BidPlaced raises the initiative's price to Price for Seat's team; the other team
	// may overbid until Deadline.
	BidPlaced struct {
		Seat     int       `json:"seat"`
		Price    int64     `json:"price"`
		Deadline time.Time `json:"deadline"`
	}
	// AuctionClosed gives the first turn to Team; Payer (-1: nobody) pays Price.
	AuctionClosed struct {
		Team    int   `json:"team"`
		Payer   int   `json:"payer"`
		Price   int64 `json:"price"`
		Timeout bool  `json:"timeout,omitempty"`
	}
	// BonusesSpawned replaces the terrain bonuses at the start of a hero's turn.
	BonusesSpawned struct {
		Bonuses []Bonus `json:"bonuses"`
		Drawn   Drawn   `json:"drawn"`
	}
	// TurnStarted gives Fighter its turn, with its AP and MP, until Deadline; Turn is the
	// round, from 1.
	TurnStarted struct {
		Fighter  int       `json:"fighter"`
		Turn     int       `json:"turn"`
		AP       int       `json:"ap"`
		MP       int       `json:"mp"`
		Deadline time.Time `json:"deadline"`
	}
	// FighterMoved walks Fighter along Path, for one MP a step.
	FighterMoved struct {
		Fighter int      `json:"fighter"`
		Path    []string `json:"path"`
	}
	// BonusTaken gives a bonus to the fighter who came onto its cell.
	BonusTaken struct {
		Fighter int    `json:"fighter"`
		Kind    string `json:"kind"`
		Cell    string `json:"cell"`
	}
	// TrapTriggered springs a hidden trap on the fighter that entered its zone: the
	// fighter's movement ends there.
	TrapTriggered struct {
		Trap    string `json:"trap"` // the trap's ID (TrapLaid's)
		Fighter int    `json:"fighter"`
		Cell    string `json:"cell"`
	}
	// TurnEnded ends Fighter's turn, by its choice or at the deadline.
	TurnEnded struct {
		Fighter int  `json:"fighter"`
		Timeout bool `json:"timeout,omitempty"`
	}
	// FightEnded ends the fight; Winners is empty for a draw.
	FightEnded struct {
		Winners []int  `json:"winners"`
		Reason  string `json:"reason"`
	}
)

// Grimoire is a seat's class and the variants it took, by slot, the passive's last.
type Grimoire struct {
	Seat     int      `json:"seat"`
	Class    string   `json:"class"`
	Variants []string `json:"variants"`
}

// Placement is a seat's start cell.
type Placement struct {
	Seat int    `json:"seat"`
	Cell string `json:"cell"`
	Auto bool   `json:"auto,omitempty"`
}

// Bonus is a terrain bonus lying on a cell.
type Bonus struct {
	Kind string `json:"kind"`
	Cell string `json:"cell"`
}

func (Keyed) EventType() string           { return "SolwarisKeyed" }
func (Opened) EventType() string          { return "SolwarisOpened" }
func (GrimoireChosen) EventType() string  { return "GrimoireChosen" }
func (GrimoiresLocked) EventType() string { return "GrimoiresLocked" }
func (PlacementChosen) EventType() string { return "PlacementChosen" }
func (FightersPlaced) EventType() string  { return "FightersPlaced" }
func (BidPlaced) EventType() string       { return "BidPlaced" }
func (AuctionClosed) EventType() string   { return "AuctionClosed" }
func (BonusesSpawned) EventType() string  { return "BonusesSpawned" }
func (TurnStarted) EventType() string     { return "TurnStarted" }
func (FighterMoved) EventType() string    { return "FighterMoved" }
func (BonusTaken) EventType() string      { return "BonusTaken" }
func (TrapTriggered) EventType() string   { return "TrapTriggered" }
func (TurnEnded) EventType() string       { return "TurnEnded" }
func (FightEnded) EventType() string      { return "FightEnded" }

// Shadow is what the other team learns of a grimoire chosen: that the seat has chosen.
func (e GrimoireChosen) Shadow() game.Event { return GrimoireChosen{Seat: e.Seat, Team: e.Team} }

// Shadow is what the other team learns of a start cell chosen: that the seat has placed.
func (e PlacementChosen) Shadow() game.Event { return PlacementChosen{Seat: e.Seat, Team: e.Team} }

// Sight: the key is the server's; a choice made before its reveal is its team's (a
// teammate in 2v2 sees it, the other team and spectators see its shadow); the rest is
// public.
func (Rules) Sight(e game.Event) visibility.Visibility {
	switch e := e.(type) {
	case Keyed:
		return visibility.Server
	case GrimoireChosen:
		return visibility.Team(e.Team)
	case PlacementChosen:
		return visibility.Team(e.Team)
	case TrapLaid:
		return visibility.Team(e.Team)
	case SpellCast:
		if e.Hidden {
			return visibility.Team(e.Team)
		}
	}
	return visibility.Public
}
