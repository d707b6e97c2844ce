package solwaris

import (
	"slices"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/combat"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// State is a match of Solwaris. It holds every secret (the key, the choices not yet
// revealed, every trap): views show each viewer its part.
type State struct {
	Key      []byte           // the key random outcomes are drawn from (Keyed)
	Fairness fairness.Version // the procedure they are drawn by (Keyed)
	Purses   []int64          // by seat: the most the auction may charge it
	Map      string
	Teams    []int // by seat
	Stake    int64

	Phase    string
	Deadline time.Time
	Version  int // public game events folded: each decision draws from its own stream
	// Hidden counts the covert events folded (game.Covert), apart from Version: were they
	// counted in it, every random outcome after a trap laid would differ from what it is
	// without the trap, and the other team would see that something was hidden.
	Hidden int

	Chosen    []bool     // by seat: its grimoire is chosen
	Grimoires []Grimoire // by seat, once chosen
	Placed    []string   // by seat: its start cell, once chosen

	Fighters []Fighter // heroes by seat first, then summons as they come
	Auction  Auction
	First    int   // the team that plays first
	Order    []int // fighters by turn order in a round
	Actor    int   // the fighter whose turn it is (index in Fighters), -1 for none
	Turn     int   // the round, from 1
	Bonuses  []Bonus
	Traps    []Trap

	Winners []int
	Reason  string

	ground *arena.Grid       // a test's own arena, drawn as a picture; nil: the map's
	cat    *grimoire.Catalog // the classes of the Rules folding it (Evolve sets it); nil: the embedded ones
}

// catalog is the classes the match plays.
func (s *State) catalog() *grimoire.Catalog { return Rules{Catalog: s.cat}.catalog() }

// Fighter is anything that stands on the arena with HP: a hero, a summon that plays its
// own turns, an inert entity (a banner).
type Fighter struct {
	Seat     int
	Team     int
	Class    string // the class of the hero, or of the summoner
	Entity   string // the summon's entity ID; "" for a hero
	Summoner int    // the fighter that summoned it; -1 for a hero
	Inert    bool   // plays no turn, picks up nothing
	Spells   []string
	Passive  string

	HP, MaxHP      int
	BaseAP, BaseMP int
	AP, MP         int
	APResist       int
	MPResist       int
	Cell           arena.Cell
	OnArena        bool // placed, and not yet fallen
	APLost, MPLost int  // removed since the start of its last turn (capped at combat.MaxLoss)
	// APDue, MPDue are the points removed out of its turn, taken from its next turn's AP
	// and MP; a bonus picked up out of its turn (pushed onto it) lowers them, below 0
	// for a gain its next turn starts with.
	APDue, MPDue int

	Stocks        []combat.Stock // armour, the soonest to end first
	Lasting       []Lasting      // boosts, resistances, states
	PassiveBoost  int            // the damage bonus of an "always" passive
	PassiveResist int            // the resistance of an "always" passive
	Casts         []Cast         // the casts of its current turn
	// ConcealedAP is the AP its current turn spent on casts hidden from the other teams
	// (a trap laid): their view of its AP leaves it out.
	ConcealedAP int
	Cooldowns   []Cooldown
}

// Armour is the armour points f holds.
func (f Fighter) Armour() int { return combat.Armour(f.Stocks) }

// Hero reports whether f is a hero (summons do not count for the end of the fight).
func (f Fighter) Hero() bool { return f.Summoner < 0 }

// Standing reports whether f is on the arena with HP left.
func (f Fighter) Standing() bool { return f.OnArena && f.HP > 0 }

// Auction is the initiative auction: the designated team, the team to answer, the last
// bidder and the price.
type Auction struct {
	Designated int
	ToBid      int   // the team that may overbid now
	Leader     int   // the team of the last bid, -1 for none
	Bidder     int   // the seat of the last bid, -1 for none
	Price      int64 // the price reached
	Closed     bool
	Payer      int // the seat that pays, -1 for nobody
}

// Trap is a hidden trap: its team, its cell and zone, and the round it vanishes.
type Trap struct {
	ID      string // opaque: names the trap in TrapTriggered without telling how many there are
	Team    int
	Layer   int // the fighter that laid it
	Cell    arena.Cell
	Zone    grimoire.Zone
	Until   int
	Sprung  bool
	Effects []grimoire.Effect // what it does to the entities in its zone when it triggers
}

// grid is the match's arena.
func (s *State) grid() *arena.Grid {
	if s.ground != nil {
		return s.ground
	}
	m, err := arena.ByID(s.Map)
	if err != nil {
		panic("solwaris: a match on an unknown arena " + s.Map)
	}
	return m.Grid
}

// acting is the fighter whose turn it is, or nil.
func (s *State) acting() *Fighter {
	if s.Phase != PhasePlay || s.Actor < 0 || s.Actor >= len(s.Fighters) {
		return nil
	}
	return &s.Fighters[s.Actor]
}

// seatsOf lists the seats of team t.
func (s *State) seatsOf(t int) []int {
	var out []int
	for seat, team := range s.Teams {
		if team == t {
			out = append(out, seat)
		}
	}
	return out
}

// teams lists the teams, ascending.
func (s *State) teams() []int {
	out := slices.Clone(s.Teams)
	slices.Sort(out)
	return slices.Compact(out)
}

// occupied lists the cells entities stand on, but for fighter except.
func (s *State) occupied(except int) []arena.Cell {
	var out []arena.Cell
	for i, f := range s.Fighters {
		if i != except && f.Standing() {
			out = append(out, f.Cell)
		}
	}
	return out
}

// at is the standing fighter on c, or -1.
func (s *State) at(c arena.Cell) int {
	for i, f := range s.Fighters {
		if f.Standing() && f.Cell == c {
			return i
		}
	}
	return -1
}

// clone copies everything Evolve changes in place, so that the state it was given stays
// as it was.
func (s State) clone() State {
	s.Chosen = slices.Clone(s.Chosen)
	s.Grimoires = slices.Clone(s.Grimoires)
	s.Placed = slices.Clone(s.Placed)
	s.Fighters = slices.Clone(s.Fighters)
	s.Order = slices.Clone(s.Order)
	s.Bonuses = slices.Clone(s.Bonuses)
	s.Traps = slices.Clone(s.Traps)
	return s
}

// turnOrder is the order of a round: the heroes, the teams alternating from first (never
// two allies in a row), each followed by the summons of it that play a turn.
func (s *State) turnOrder(first int) []int {
	teams := s.teams()
	k := slices.Index(teams, first)
	teams = append(teams[k:], teams[:k]...)
	byTeam := map[int][]int{}
	for i, f := range s.Fighters {
		if f.Hero() {
			byTeam[f.Team] = append(byTeam[f.Team], i)
		}
	}
	var out []int
	for n := 0; ; n++ {
		added := false
		for _, t := range teams {
			if n < len(byTeam[t]) {
				h := byTeam[t][n]
				out = append(out, h)
				out = append(out, s.summonsOf(h)...)
				added = true
			}
		}
		if !added {
			return out
		}
	}
}

// summonsOf lists the summons of fighter h that play turns (fallen or not: the order skips those fallen), in the order they came.
func (s *State) summonsOf(h int) []int {
	var out []int
	for i, f := range s.Fighters {
		if f.Summoner == h && !f.Inert {
			out = append(out, i)
		}
	}
	return out
}

// cellNames caches, by grid, every cell's name (row by row): the views and the legal
// targets name hundreds of cells per request, and a name never changes.
var cellNames sync.Map // *arena.Grid -> []string

// cellName is c's name on g (c must be on g).
func cellName(g *arena.Grid, c arena.Cell) string { return gridNames(g)[c.Y*g.Width()+c.X] }

// gridNames is every cell's name on g, row by row.
func gridNames(g *arena.Grid) []string {
	v, ok := cellNames.Load(g)
	if !ok {
		names := make([]string, g.Width()*g.Height())
		for y := range g.Height() {
			for x := range g.Width() {
				names[y*g.Width()+x] = arena.Cell{X: x, Y: y}.String()
			}
		}
		v, _ = cellNames.LoadOrStore(g, names)
	}
	return v.([]string)
}
