package solwaris

import (
	"fmt"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// View is a match of Solwaris as one viewer sees it. Before their reveal, a grimoire or
// a start cell is shown to its team alone; a trap, to its team alone until it triggers,
// and so are the AP its cast took; and what the view computes for the seat to act
// (reachable cells, legal targets) is computed from what the viewer sees, never around a
// trap it cannot see.
type View struct {
	Map      string
	Width    int
	Height   int
	Cells    []string // the arena's rows, top first: "." free, "#" or a letter an obstacle, "~" void, "A"/"B" a start zone
	Phase    string
	Deadline time.Time
	Turn     int // the round, from 1; 0 before play
	Acting   int // the fighter whose turn it is; -1 for none

	Grimoires []Grimoire // the viewer's team's before the lock, everyone's after
	Fighters  []FighterView
	Bonuses   []Bonus
	Traps     []TrapView // the viewer's team's, and those that triggered
	Auction   *AuctionView
	Purse     int64 // the viewer's own purse (its first seat's); 0 for a spectator

	// For the seat to act: the start cells it may take, the cells its fighter may walk
	// to, and, by spell, the cells it may aim at.
	PlacementCells []string
	Reachable      []Reach
	Targets        []SpellTargets

	Winners []int
	Reason  string

	grid *arena.Grid // the arena, for the plays' zones
	seat int         // the viewer's seat to act now, or -1
	// cat is the classes the match plays, for the plays: nil for the embedded ones (what
	// the server serves), so that a view holds no catalog data (the conformance suite
	// reads every string a view holds as shown), and two views of one state compare equal
	// (a stored state read back is checked so; a function never compares equal).
	cat  *grimoire.Catalog
	team int // the viewer's team, -1 for a spectator
	over bool
}

// FighterView is a fighter as the API shows it.
type FighterView struct {
	ID       int
	Seat     int
	Team     int
	Class    string
	Entity   string // a summon's entity; "" for a hero
	Hero     bool
	HP       int
	MaxHP    int
	AP       int
	MP       int
	Armour   int
	Cell     string // "" while the viewer may not know it
	Statuses []string
	Spells   []string
}

// TrapView is a trap the viewer may see.
type TrapView struct {
	Team  int
	Cell  string
	Until int
}

// AuctionView is the initiative auction.
type AuctionView struct {
	Designated int
	ToBid      int
	Leader     int // -1 for no bid
	Price      int64
	Closed     bool
}

// Reach is a cell the acting fighter may walk to, and its MP cost.
type Reach struct {
	Cell string
	Cost int
}

// SpellTargets are the cells a spell may be cast on now.
type SpellTargets struct {
	Spell string
	Cells []string
}

// View shows the match to p.
func (r Rules) View(st game.State, p game.Viewpoint) game.View {
	s, ok := st.(State)
	if !ok || s.Phase == "" {
		return nil
	}
	g := s.grid()
	all := p.Over || s.Phase == PhaseOver
	team := -1
	if len(p.Teams) > 0 {
		team = p.Teams[0]
	}
	v := &View{Map: s.Map, Width: g.Width(), Height: g.Height(), Cells: g.Rows(), Phase: s.Phase, Deadline: s.Deadline,
		Turn: s.Turn, Acting: s.Actor, Grimoires: []Grimoire{}, Fighters: []FighterView{}, Bonuses: slices.Clone(s.Bonuses),
		Traps: []TrapView{}, Winners: slices.Clone(s.Winners), Reason: s.Reason, grid: g, seat: -1, team: team, over: all, cat: s.cat}
	if v.Bonuses == nil {
		v.Bonuses = []Bonus{}
	}
	if len(p.Seats) > 0 && p.Seats[0] < len(s.Purses) {
		v.Purse = s.Purses[p.Seats[0]]
	}
	locked := len(s.Fighters) > 0
	for seat, gr := range s.Grimoires {
		if s.Chosen[seat] && gr.Class != "" && (locked || all || p.InTeam(s.Teams[seat])) {
			v.Grimoires = append(v.Grimoires, gr)
		}
	}
	revealed := s.Phase != PhaseGrimoire && s.Phase != PhasePlacement
	for i, f := range s.Fighters {
		fv := FighterView{ID: i, Seat: f.Seat, Team: f.Team, Class: f.Class, Entity: f.Entity, Hero: f.Hero(),
			HP: f.HP, MaxHP: f.MaxHP, AP: f.AP, MP: f.MP, Armour: f.Armour(), Statuses: statuses(f), Spells: slices.Clone(f.Spells)}
		if !all && !p.InTeam(f.Team) {
			// The other teams see its AP as if its hidden casts had not been: with the
			// grimoires public, the AP they took would name the trap spell and count it.
			fv.AP += f.ConcealedAP
		}
		switch {
		case f.OnArena && (revealed || all):
			fv.Cell = f.Cell.String()
		case s.Placed[f.Seat] != "" && (all || p.InTeam(f.Team)):
			fv.Cell = s.Placed[f.Seat]
		}
		v.Fighters = append(v.Fighters, fv)
	}
	for _, t := range s.Traps {
		if all || t.Sprung || p.InTeam(t.Team) {
			v.Traps = append(v.Traps, TrapView{Team: t.Team, Cell: t.Cell.String(), Until: t.Until})
		}
	}
	if s.Phase == PhaseAuction || s.Auction.Closed {
		a := s.Auction
		v.Auction = &AuctionView{Designated: a.Designated, ToBid: a.ToBid, Leader: a.Leader, Price: a.Price, Closed: a.Closed}
	}
	if all {
		return v
	}
	for _, seat := range r.Status(s).ToAct {
		if p.Holds(seat) {
			v.seat = seat
			break
		}
	}
	if v.seat < 0 {
		return v
	}
	switch s.Phase {
	case PhasePlacement:
		for _, c := range g.Zone(arena.Side(s.Teams[v.seat])) {
			if !slices.ContainsFunc(s.seatsOf(s.Teams[v.seat]), func(m int) bool { return s.Placed[m] == c.String() }) {
				v.PlacementCells = append(v.PlacementCells, c.String())
			}
		}
	case PhasePlay:
		f := s.Fighters[s.Actor]
		for _, st := range g.Reachable(f.Cell, f.MP, s.occupied(s.Actor)) {
			v.Reachable = append(v.Reachable, Reach{Cell: cellName(g, st.Cell), Cost: st.Cost})
		}
		v.Targets = s.targets(s.Actor)
	}
	return v
}

// Plays lists what the viewer's seat may do now, from what the view shows alone.
func (v *View) Plays() []game.Play {
	if v.seat < 0 || v.over {
		return nil
	}
	seat := v.seat
	var out []game.Play
	switch v.Phase {
	case PhaseGrimoire:
		for _, c := range v.catalog().Classes() {
			out = append(out, game.Play{Seat: seat, Kind: KindGrimoire, Do: ChooseGrimoire{Class: c.ID, Variants: []string{}}})
			var all []string
			for slot := 1; slot <= grimoire.Slots; slot++ {
				all = append(all, c.Spell(slot, true).ID)
			}
			all = append(all, c.Passive(true).ID)
			out = append(out, game.Play{Seat: seat, Kind: KindGrimoire, Do: ChooseGrimoire{Class: c.ID, Variants: all}})
		}
	case PhasePlacement:
		for _, c := range v.PlacementCells {
			out = append(out, game.Play{Seat: seat, Kind: KindPlace, Do: PlaceFighter{Cell: c}, Of: KindPlace})
		}
	case PhaseAuction:
		if v.Auction != nil && v.Auction.Price+BidStep <= v.Purse {
			out = append(out, game.Play{Seat: seat, Kind: KindBid, Do: Bid{}})
		}
		out = append(out, game.Play{Seat: seat, Kind: KindPass, Do: PassBid{}, Score: 1})
	case PhasePlay:
		out = append(out, game.Play{Seat: seat, Kind: KindEndTurn, Do: EndTurn{}, Score: 1})
		me := v.Fighters[v.Acting]
		from, _ := arena.ParseCell(me.Cell)
		var enemies []arena.Cell
		for _, f := range v.Fighters {
			if c, err := arena.ParseCell(f.Cell); err == nil && f.Team != me.Team && f.HP > 0 {
				enemies = append(enemies, c)
			}
		}
		cost := make(map[arena.Cell]int, len(v.Reachable))
		for _, r := range v.Reachable {
			c, _ := arena.ParseCell(r.Cell)
			cost[c] = r.Cost
		}
		for _, r := range v.Reachable {
			to, _ := arena.ParseCell(r.Cell)
			score := 0
			if nearest(to, enemies) < nearest(from, enemies) {
				score = 2
			}
			out = append(out, game.Play{Seat: seat, Kind: KindStep, Do: MoveFighter{Path: walkBack(v.grid, cost, to)}, Of: KindStep, Score: score})
		}
		g := v.grid
		for _, t := range v.Targets {
			sp, _ := v.catalog().SpellByID(t.Spell)
			for _, c := range t.Cells {
				to, _ := arena.ParseCell(c)
				out = append(out, game.Play{Seat: seat, Kind: KindSpell, Do: CastSpell{Spell: t.Spell, Cell: c}, Of: t.Spell,
					Score: castScore(g, sp, from, to, enemies)})
			}
		}
	}
	return out
}

// castScore hints how good a cast is for a player in a hurry: a blow that reaches an
// enemy the viewer sees first.
func castScore(g *arena.Grid, sp *grimoire.Spell, from, to arena.Cell, enemies []arena.Cell) int {
	if sp == nil {
		return 0
	}
	if nearest(to, enemies) > 2*sp.Zone.Size { // no zone reaches farther from its target
		return 0
	}
	area := g.Area(sp.Zone, from, to)
	for _, e := range sp.Effects {
		if e.Kind != grimoire.Damage {
			continue
		}
		for _, c := range enemies {
			if (e.To == grimoire.ToTarget && c == to) || (e.To != grimoire.ToTarget && e.To != grimoire.ToCaster && slices.Contains(area, c)) {
				return 3
			}
		}
	}
	return 0
}

// nearest is the distance from c to the nearest of cells.
func nearest(c arena.Cell, cells []arena.Cell) int {
	best := 1 << 30
	for _, e := range cells {
		best = min(best, arena.Distance(c, e))
	}
	return best
}

// statuses names what lasts on f: its states, boosts and resistances.
func statuses(f Fighter) []string {
	out := []string{}
	for _, l := range f.Lasting {
		if l.State != "" {
			out = append(out, l.State)
		} else {
			out = append(out, fmt.Sprintf("%s %+d", l.Kind, l.Amount))
		}
	}
	return out
}

// walkBack is a shortest walk to cell, read off the costs of the reachable cells: back
// from cell, each step to a neighbour that costs one MP less, down to the mover's.
func walkBack(g *arena.Grid, cost map[arena.Cell]int, cell arena.Cell) []string {
	path := make([]string, cost[cell])
	for c := cell; ; {
		path[cost[c]-1] = cellName(g, c)
		if cost[c] == 1 {
			return path
		}
		for _, d := range []arena.Dir{arena.North, arena.East, arena.South, arena.West} {
			if n := c.Step(d); cost[n] == cost[c]-1 {
				c = n
				break
			}
		}
	}
}

// catalog is the classes the match plays.
func (v *View) catalog() *grimoire.Catalog { return Rules{Catalog: v.cat}.catalog() }
