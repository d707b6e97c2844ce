// Package solwaris is the game Solwaris (API name SOLWARIS): an arena duel where each side's
// hero spends action points on spells and movement points on steps until the other side
// has no hero standing. The ground is package arena's, the classes and spells package
// grimoire's; this package is the match: its phases (grimoire choice, placement, the
// initiative auction, play), its events, its views per viewer and its audit. It is pure:
// time arrives in each action, and every random outcome (the arena when none is chosen,
// automatic placements, the auction's designated side, bonus squares, damage rolls) is
// drawn from a key derived from the match's seed, recorded for the server alone at Setup.
// The state is built for N fighters in teams, summons with their own turns and hidden
// entities, though part 1 plays duels of two heroes.
package solwaris

import (
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// ID is the game's API name.
const ID = "SOLWARIS"

// The clocks and figures the rules fix.
const (
	GrimoireTime  = 60 * time.Second // to choose a class and its variants
	PlacementTime = 25 * time.Second // to choose a start cell
	BidTime       = 5 * time.Second  // to overbid the initiative
	TurnTime      = 40 * time.Second // a hero's turn
	SummonTime    = grimoire.SummonTurnSeconds * time.Second
	BidStep       = 100 // coins each bid adds to the initiative's price
	MaxTurns      = 40  // rounds before the fight is drawn (or decided by HP share if staked)
	// MaxBid is the most the auction may charge one seat, the ceiling of its purse: ten
	// overbids.
	MaxBid = 1000
	// BonusesPerTurn is how many terrain bonuses lie on the arena during a hero's turn.
	BonusesPerTurn = 2
)

// The options of a match. The stake is the match's (match.StakeOption): the game learns it
// in Setup.Stake.
const (
	MapOption = "map" // an arena ID (arena.Maps); without it the arena is drawn from the seed
)

// The phases, as Status names them.
const (
	PhaseGrimoire  = "grimoire"
	PhasePlacement = "placement"
	PhaseAuction   = "auction"
	PhasePlay      = "play"
	PhaseOver      = "over"
)

// Rules is Solwaris. Catalog is the classes it plays, nil for the embedded ones (what
// the game serves); another is for a test hosting classes the data does not hold yet.
type Rules struct {
	Catalog *grimoire.Catalog
}

// catalog is the classes r plays.
func (r Rules) catalog() *grimoire.Catalog {
	if r.Catalog == nil {
		return grimoire.Embedded()
	}
	return r.Catalog
}

var (
	_ game.Rules       = Rules{}
	_ game.Sighted     = Rules{}
	_ game.Auditor     = Rules{}
	_ game.Viewed      = Rules{}
	_ game.Charging    = Rules{}
	_ game.Boarded     = Rules{}
	_ game.RatingKeyed = Rules{}
	_ game.Covering    = Rules{}
)

// Covering: a team's traps, and the casts that lay them, are covert (game.Covert): each
// team has a hidden stream beside the match's.
func (Rules) Covering(game.Plan) bool { return true }

// Info names the game.
func (Rules) Info() game.Info { return game.Info{ID: ID, Name: "Solwaris", RulesVersion: "1"} }

// Plan: two seats, each its own team (2v2 comes with the next part).
func (Rules) Plan(opts game.Options) (game.Plan, error) {
	if _, err := mapOf(opts); err != nil {
		return game.Plan{}, err
	}
	return game.Plan{Seats: 2, Teams: []int{0, 1}}, nil
}

// mapOf checks the options and returns the arena they name, nil to draw it from the seed.
func mapOf(opts game.Options) (*arena.Map, error) {
	for k := range opts {
		if k != MapOption && k != "stake" { // the stake is the match's option (match.StakeOption)
			return nil, game.Reject(game.BadInput, "Solwaris takes no option %q: its options are map and stake", k)
		}
	}
	id, ok := opts[MapOption]
	if !ok {
		return nil, nil
	}
	m, err := arena.ByID(id)
	if err != nil {
		ids := make([]string, 0, len(arena.Maps()))
		for _, m := range arena.Maps() {
			ids = append(ids, m.ID)
		}
		return nil, &game.Error{Code: game.BadInput, Reason: "option map is " + id + ": no such arena (arenas: " + strings.Join(ids, ", ") + ")", Err: err}
	}
	return m, nil
}

// MaxCharge is the ceiling of a seat's purse: the auction never charges more.
func (Rules) MaxCharge(game.Options) int64 { return MaxBid }

// Charged is what the auction charged each seat: the last bidder pays the price reached.
func (Rules) Charged(st game.State) []int64 {
	s, _ := st.(State)
	out := make([]int64, len(s.Teams))
	if s.Auction.Closed && s.Auction.Payer >= 0 {
		out[s.Auction.Payer] = s.Auction.Price
	}
	return out
}

// Setup opens the match: the arena (the option's, or drawn from the seed), the grimoire
// phase, and the key every later random outcome is drawn from, for the server alone.
func (r Rules) Setup(g game.Setup) ([]game.Emitted, error) {
	m, err := mapOf(g.Options)
	if err != nil {
		return nil, err
	}
	key := keyOf(g.Fairness, g.Seed)
	if m == nil {
		maps := arena.Maps()
		m = maps[mapDraw(g.Fairness, key, len(maps))]
	}
	purses := make([]int64, g.Plan.Seats)
	copy(purses, g.Purses)
	open := Opened{Map: m.ID, Teams: g.Plan.Teams, Stake: g.Stake, Deadline: g.At.Add(GrimoireTime)}
	keyed := Keyed{Key: hexKey(key), Purses: purses, Fairness: int(g.Fairness)}
	return []game.Emitted{{Event: keyed, Visibility: r.Sight(keyed)}, {Event: open, Visibility: r.Sight(open)}}, nil
}

// Status says who acts in each phase, until when, and the outcome.
func (Rules) Status(st game.State) game.Status {
	s, _ := st.(State)
	out := game.Status{Phase: s.Phase, Deadline: s.Deadline}
	switch s.Phase {
	case PhaseGrimoire:
		for seat := range s.Teams {
			if !s.Chosen[seat] {
				out.ToAct = append(out.ToAct, seat)
			}
		}
	case PhasePlacement:
		for seat := range s.Teams {
			if s.Placed[seat] == "" {
				out.ToAct = append(out.ToAct, seat)
			}
		}
	case PhaseAuction:
		out.ToAct = s.seatsOf(s.Auction.ToBid)
	case PhasePlay:
		if f := s.acting(); f != nil {
			out.ToAct = []int{f.Seat}
		}
	case PhaseOver:
		out.Deadline = time.Time{}
		out.Over = true
		out.Outcome = game.Outcome{Winners: append([]int{}, s.Winners...), Reason: s.Reason}
	}
	return out
}

// Events is the codec of the game's events.
func (Rules) Events() *game.Codec {
	c := game.NewCodec()
	game.Register[Keyed](c, 1)
	game.Register[Opened](c, 1)
	game.Register[GrimoireChosen](c, 1)
	game.Register[GrimoiresLocked](c, 1)
	game.Register[PlacementChosen](c, 1)
	game.Register[FightersPlaced](c, 1)
	game.Register[BidPlaced](c, 1)
	game.Register[AuctionClosed](c, 1)
	game.Register[TurnStarted](c, 1)
	game.Register[BonusesSpawned](c, 1)
	game.Register[FighterMoved](c, 1)
	game.Register[BonusTaken](c, 1)
	game.Register[TrapTriggered](c, 1)
	game.Register[TurnEnded](c, 1)
	game.Register[FightEnded](c, 1)
	registerCombat(c)
	return c
}

// RewardTurn is the turn an abandoned duel must have reached for the one who stays to
// keep its rewards (coins, rating, XP, loot): before it the duel is too short to count.
const RewardTurn = 4

// AbandonCounts implements game.Rewarding: an abandoned duel counts from turn RewardTurn.
func (Rules) AbandonCounts(st game.State) bool {
	s, _ := st.(State)
	return s.Turn >= RewardTurn
}

// StartRating is where every rating of Solwaris starts, the game's and each class's.
const StartRating = 1000

// InitialRating implements game.RatingStarting.
func (Rules) InitialRating(string) float64 { return StartRating }

// RatingKeys: a result counts under the game and under the class the seat played, class
// against class (the rules rate each class apart); under the game alone when the match
// ended before the grimoires were locked.
func (Rules) RatingKeys(st game.State, seat int) []string {
	s, _ := st.(State)
	if seat < len(s.Fighters) && s.Fighters[seat].Hero() {
		return []string{ID, ID + "/" + s.Fighters[seat].Class}
	}
	return []string{ID}
}
