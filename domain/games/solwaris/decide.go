package solwaris

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// decision is one action being decided: the state as its events so far leave it, the
// events, and the random stream of the decision.
type decision struct {
	r   Rules
	s   State
	at  time.Time
	rng source
	v0  int // the version the decision draws its stream from
	out []game.Emitted
}

// mark is where the next draw comes from.
func (d *decision) mark() Drawn { return Drawn{At: d.v0, From: d.rng.Drawn()} }

// emit records e and folds it, so that what follows is decided on the state it leaves.
func (d *decision) emit(e game.Event) {
	d.out = append(d.out, game.Emitted{Event: e, Visibility: d.r.Sight(e)})
	d.s = d.r.Evolve(d.s, e).(State)
}

const takes = "chooseGrimoire, placeFighter, bid, passBid, moveFighter, castSpell and endTurn"

// Decide checks one action of one seat and returns its events.
func (r Rules) Decide(st game.State, a game.Action) ([]game.Emitted, error) {
	s, _ := st.(State)
	if s.Phase == "" || s.Phase == PhaseOver {
		return nil, game.Reject(game.NotYourTurn, "the fight is over")
	}
	d := &decision{r: r, s: s, at: a.At, rng: stream(s, s.Version, 0), v0: s.Version}
	var err error
	if t, ok := a.Do.(game.Timeout); ok {
		if !t.Deadline.Equal(s.Deadline) {
			return nil, game.Reject(game.Conflict, "the deadline %s has passed already: the deadline now is %s", t.Deadline.Format(time.RFC3339), s.Deadline.Format(time.RFC3339))
		}
		d.timeout()
		return d.out, nil
	}
	late := !s.Deadline.IsZero() && !a.At.Before(s.Deadline)
	if late {
		// The deadline has passed though its timeout has not come yet: the timeout comes
		// first, as the scheduler would have submitted it now, then the action is decided
		// on what it leaves (a seat whose time ran out is no longer to act; the seat whose
		// turn the timeout starts is).
		d.timeout()
		if d.s.Phase == PhaseOver {
			return nil, game.Reject(game.NotYourTurn, "the fight ended at the deadline %s", s.Deadline.Format(time.RFC3339))
		}
	}
	switch do := a.Do.(type) {
	case ChooseGrimoire:
		err = d.choose(a.Seat, do)
	case PlaceFighter:
		err = d.place(a.Seat, do)
	case Bid:
		err = d.bid(a.Seat)
	case PassBid:
		err = d.pass(a.Seat)
	case MoveFighter:
		err = d.move(a.Seat, do)
	case CastSpell:
		err = d.cast(a.Seat, do)
	case EndTurn:
		err = d.endTurn(a.Seat)
	default:
		return nil, game.Unsupported("Solwaris", a.Do, takes)
	}
	if err != nil {
		var ge *game.Error
		if late && errors.As(err, &ge) {
			return nil, &game.Error{Code: ge.Code, Reason: fmt.Sprintf("the deadline %s has passed: %s", s.Deadline.Format(time.RFC3339), ge.Reason), Err: ge}
		}
		return nil, err
	}
	return d.out, nil
}

// inPhase refuses an action of another phase, or of a seat that is not to act in it.
func (d *decision) inPhase(seat int, phase, what string) error {
	if d.s.Phase != phase {
		return game.Reject(game.NotYourTurn, "%s is for the %s phase; the match is in the %s phase", what, phase, d.s.Phase)
	}
	if !slices.Contains(d.r.Status(d.s).ToAct, seat) {
		return game.Reject(game.NotYourTurn, "seat %d is not to act in the %s phase", seat, phase)
	}
	return nil
}

// choose records a seat's grimoire, and locks them all once every seat has chosen.
func (d *decision) choose(seat int, c ChooseGrimoire) error {
	if err := d.inPhase(seat, PhaseGrimoire, "choosing a grimoire"); err != nil {
		return err
	}
	g, err := d.r.catalog().Choose(c.Class, c.Variants)
	if err != nil {
		return &game.Error{Code: game.BadInput, Reason: err.Error(), Err: err}
	}
	vs := g.Variants()
	if len(vs) == 0 {
		vs = nil // as the event reads back
	}
	d.emit(GrimoireChosen{Seat: seat, Team: d.s.Teams[seat], Class: g.Class.ID, Variants: vs})
	if !slices.Contains(d.s.Chosen, false) {
		d.lock(nil)
	}
	return nil
}

// DefaultClass is the class of a seat that chose none by the deadline, with its originals.
func DefaultClass() string { return Rules{}.defaultClass() }

func (r Rules) defaultClass() string { return r.catalog().Classes()[0].ID }

// lock reveals the grimoires, the seats in auto given the default, and opens placement.
func (d *decision) lock(auto []int) {
	gs := make([]Grimoire, len(d.s.Teams))
	for seat := range gs {
		gs[seat] = Grimoire{Seat: seat, Class: d.r.defaultClass()}
		if d.s.Chosen[seat] {
			gs[seat] = d.s.Grimoires[seat]
		}
	}
	d.emit(GrimoiresLocked{Grimoires: gs, Auto: auto, Deadline: d.at.Add(PlacementTime)})
}

// place records a seat's start cell, and reveals them all once every seat has placed.
func (d *decision) place(seat int, p PlaceFighter) error {
	if err := d.inPhase(seat, PhasePlacement, "placing a fighter"); err != nil {
		return err
	}
	g := d.s.grid()
	c, err := g.ParseCell(p.Cell)
	if err != nil {
		return &game.Error{Code: game.BadInput, Reason: err.Error(), Err: err}
	}
	if side, ok := g.ZoneOf(c); !ok || int(side) != d.s.Teams[seat] {
		return game.Reject(game.IllegalMove, "%s is not in your start zone (%s)", p.Cell, cellList(g.Zone(arena.Side(d.s.Teams[seat]))))
	}
	for other, cell := range d.s.Placed {
		if cell == p.Cell && d.s.Teams[other] == d.s.Teams[seat] {
			return game.Reject(game.IllegalMove, "%s is taken by your teammate", p.Cell)
		}
	}
	d.emit(PlacementChosen{Seat: seat, Team: d.s.Teams[seat], Cell: p.Cell})
	if !slices.Contains(d.s.Placed, "") {
		d.reveal()
	}
	return nil
}

// reveal places the seats that have not placed on free cells of their zone drawn from the
// seed, shows every start cell, and opens the auction on a team the seed designates.
func (d *decision) reveal() {
	g := d.s.grid()
	drawn := d.mark()
	cells := make([]Placement, len(d.s.Teams))
	taken := map[string]bool{}
	for seat, c := range d.s.Placed {
		cells[seat] = Placement{Seat: seat, Cell: c}
		taken[c] = c != ""
	}
	for seat := range cells {
		if cells[seat].Cell != "" {
			continue
		}
		var free []arena.Cell
		for _, c := range g.Zone(arena.Side(d.s.Teams[seat])) {
			if !taken[c.String()] {
				free = append(free, c)
			}
		}
		c := free[d.rng.IntN(len(free))].String()
		cells[seat] = Placement{Seat: seat, Cell: c, Auto: true}
		taken[c] = true
	}
	teams := d.s.teams()
	d.emit(FightersPlaced{Cells: cells, Designated: teams[d.rng.IntN(len(teams))], Deadline: d.at.Add(BidTime), Drawn: drawn})
}

// bid raises the initiative's price for the bidder's team.
func (d *decision) bid(seat int) error {
	if err := d.inPhase(seat, PhaseAuction, "bidding"); err != nil {
		return err
	}
	price := d.s.Auction.Price + BidStep
	if purse := d.s.Purses[seat]; price > purse {
		return game.Reject(game.IllegalMove, "a bid of %d coins is above your purse of %d", price, purse)
	}
	d.emit(BidPlaced{Seat: seat, Price: price, Deadline: d.at.Add(BidTime)})
	return nil
}

// pass lets the standing bid (or designation) win.
func (d *decision) pass(seat int) error {
	if err := d.inPhase(seat, PhaseAuction, "passing the bid"); err != nil {
		return err
	}
	d.closeAuction(false)
	return nil
}

// closeAuction gives the first turn to the last bidder's team (paying the price), or to
// the designated team for free, and starts the first turn.
func (d *decision) closeAuction(timeout bool) {
	a := d.s.Auction
	e := AuctionClosed{Team: a.Designated, Payer: -1, Timeout: timeout}
	if a.Bidder >= 0 {
		e = AuctionClosed{Team: a.Leader, Payer: a.Bidder, Price: a.Price, Timeout: timeout}
	}
	d.emit(e)
	d.startTurn(d.s.Order[0], 1)
}

// startTurn gives fighter f its turn in round turn: on a hero's turn the bonuses are
// drawn anew first.
func (d *decision) startTurn(f, turn int) {
	fi := d.s.Fighters[f]
	if fi.Hero() {
		drawn := d.mark()
		d.emit(BonusesSpawned{Bonuses: d.drawBonuses(), Drawn: drawn})
	}
	limit := TurnTime
	if !fi.Hero() {
		limit = SummonTime
	}
	d.emit(TurnStarted{Fighter: f, Turn: turn, AP: max(fi.BaseAP-fi.APDue, 0), MP: max(fi.BaseMP-fi.MPDue, 0), Deadline: d.at.Add(limit)})
	if fi.Passive != "" {
		if p := passive(d.r.catalog(), fi); p != nil && p.Trigger == grimoire.TriggerTurnStart {
			for _, e := range p.Effects {
				d.apply(f, nil, e, fi.Cell, fi.Cell, nil)
			}
		}
	}
	g := d.s.grid()
	for _, b := range d.s.Fighters {
		if b.Summoner != f || !b.Standing() {
			continue
		}
		if c, err := d.r.catalog().ClassByID(b.Class); err == nil {
			if en, err := c.Summon(b.Entity); err == nil && en.Aura != nil {
				area := g.Area(en.Aura.Zone, b.Cell, b.Cell)
				for _, e := range en.Aura.Effects {
					d.apply(f, nil, e, b.Cell, b.Cell, area)
				}
			}
		}
	}
	d.checkEnd()
}

// passive is a hero's passive from the catalog, or nil.
func passive(cat *grimoire.Catalog, f Fighter) *grimoire.Passive {
	c, err := cat.ClassByID(f.Class)
	if err != nil {
		return nil
	}
	for _, variant := range []bool{false, true} {
		if p := c.Passive(variant); p.ID == f.Passive {
			return p
		}
	}
	return nil
}

// drawBonuses draws BonusesPerTurn different bonus kinds onto different free cells that
// nothing stands on: a cell is drawn among the playable ones until one is neither taken
// nor occupied (the draws are the decision's, so the verifier draws the same).
func (d *decision) drawBonuses() []Bonus {
	playable := d.s.grid().Playable()
	occupied := d.s.occupied(-1)
	kinds := d.rng.Perm(len(bonusKinds))
	out := make([]Bonus, 0, BonusesPerTurn)
	var taken []arena.Cell
	for i := 0; i < BonusesPerTurn && i < len(kinds); i++ {
		for try := 0; try < 4*len(playable); try++ {
			c := playable[d.rng.IntN(len(playable))]
			if !slices.Contains(occupied, c) && !slices.Contains(taken, c) {
				taken = append(taken, c)
				out = append(out, Bonus{Kind: bonusKinds[kinds[i]].ID, Cell: c.String()})
				break
			}
		}
	}
	return out
}

// actor is the fighter seat acts with, or a rejection.
func (d *decision) actor(seat int, what string) (int, error) {
	if err := d.inPhase(seat, PhasePlay, what); err != nil {
		return -1, err
	}
	return d.s.Actor, nil
}

// MaxPathSteps is the longest path a walk may be given: a step costs an MP, and no
// fighter holds more than maxPoints of them (the state's bound on any AP or MP figure). A
// longer path is refused before any of it is read, so that its length costs the server
// nothing.
const MaxPathSteps = maxPoints

// ErrPathTooLong is the refusal of a path of more than MaxPathSteps steps (errors.Is
// finds it through the game.Error).
var ErrPathTooLong = errors.New("solwaris: the path is longer than any walk")

// move walks the acting fighter along a path. A hidden trap on the way ends the walk
// where it triggers: an event, never a rejection, which would betray the trap.
func (d *decision) move(seat int, m MoveFighter) error {
	if len(m.Path) > MaxPathSteps {
		return &game.Error{Code: game.BadInput, Err: ErrPathTooLong, Reason: fmt.Sprintf(
			"a path of %d steps: at most %d, one MP a step and no fighter has more; send one cell a step, within the fighter's MP",
			len(m.Path), MaxPathSteps)}
	}
	f, err := d.actor(seat, "moving")
	if err != nil {
		return err
	}
	g := d.s.grid()
	path := make([]arena.Cell, len(m.Path))
	for i, name := range m.Path {
		c, err := g.ParseCell(name)
		if err != nil {
			return &game.Error{Code: game.BadInput, Reason: fmt.Sprintf("step %d: %v", i+1, err), Err: err}
		}
		path[i] = c
	}
	fi := d.s.Fighters[f]
	if err := g.ValidatePath(fi.Cell, path, d.s.occupied(f)); err != nil {
		code := game.IllegalMove
		if errors.Is(err, arena.ErrEmptyPath) {
			code = game.BadInput
		}
		return &game.Error{Code: code, Reason: err.Error(), Err: err}
	}
	if len(path) > fi.MP {
		return game.Reject(game.IllegalMove, "a path of %d steps needs %d MP; the fighter has %d", len(path), len(path), fi.MP)
	}
	d.walk(f, path)
	if d.s.Phase == PhasePlay && !d.s.Fighters[f].Standing() { // fallen in a trap: its turn is over
		d.emit(TurnEnded{Fighter: f})
		d.next()
	}
	return nil
}

// walk moves f along path, cut where it enters a trap's zone: the trap ends the walk.
func (d *decision) walk(f int, path []arena.Cell) {
	from := d.s.Fighters[f].Cell
	n, _ := d.s.untilTrap(from, path)
	path = path[:n]
	names := make([]string, len(path))
	for i, c := range path {
		names[i] = c.String()
	}
	d.emit(FighterMoved{Fighter: f, Path: names})
	d.arrive(f, from, names)
}

// arrive ends a move of f from cell from through cells, whatever moved it (a walk, a
// push, a pull, a swap, a teleport): f takes the bonuses lying on them, in order, then
// springs the trap whose zone its last step entered, if any. A move never goes on past
// a trap's zone: the walk and the push cut their path at it, a swap and a teleport land
// in one step. It reports whether a trap sprang.
func (d *decision) arrive(f int, from arena.Cell, cells []string) bool {
	d.pickUp(f, cells)
	if len(cells) == 0 || !d.s.Fighters[f].Standing() {
		return false
	}
	if len(cells) > 1 {
		from, _ = arena.ParseCell(cells[len(cells)-2])
	}
	c, _ := arena.ParseCell(cells[len(cells)-1])
	t := d.s.entered(from, c)
	if t < 0 {
		return false
	}
	d.spring(t, f, cells[len(cells)-1])
	return true
}

// pickUp gives f the bonuses lying on cells, in order, unless f is inert.
func (d *decision) pickUp(f int, cells []string) {
	if d.s.Fighters[f].Inert {
		return
	}
	for _, c := range cells {
		for _, b := range d.s.Bonuses {
			if b.Cell == c {
				d.emit(BonusTaken{Fighter: f, Kind: b.Kind, Cell: c})
			}
		}
	}
}

// entered is the index of an unsprung trap whose zone a move from cell from onto cell
// to enters (« quiconque entre dans sa zone »): the zone holds to and not from, so that a
// fighter standing in a zone when the trap was laid moves within it unharmed. -1: none.
func (s *State) entered(from, to arena.Cell) int {
	g := s.grid()
	for i, t := range s.Traps {
		if zone := g.Area(t.Zone, t.Cell, t.Cell); !t.Sprung && slices.Contains(zone, to) && !slices.Contains(zone, from) {
			return i
		}
	}
	return -1
}

// untilTrap is how much of path, walked or pushed from cell from, is travelled: up to
// and with the first step that enters a trap's zone (trapped), the whole path when none
// does.
func (s *State) untilTrap(from arena.Cell, path []arena.Cell) (n int, trapped bool) {
	for i, c := range path {
		if s.entered(from, c) >= 0 {
			return i + 1, true
		}
		from = c
	}
	return len(path), false
}

// endTurn ends the acting fighter's turn.
func (d *decision) endTurn(seat int) error {
	f, err := d.actor(seat, "ending a turn")
	if err != nil {
		return err
	}
	d.emit(TurnEnded{Fighter: f})
	d.next()
	return nil
}

// next starts the turn of the next standing fighter in the order, a new round after the
// last, or ends the fight after MaxTurns rounds.
func (d *decision) next() {
	s := &d.s
	i := slices.Index(s.Order, s.Actor)
	turn := s.Turn
	for range len(s.Order) + 1 {
		i++
		if i >= len(s.Order) {
			i, turn = 0, turn+1
		}
		if s.Fighters[s.Order[i]].Standing() {
			break
		}
	}
	if turn > MaxTurns {
		d.emit(d.s.turnsOut())
		return
	}
	d.startTurn(s.Order[i], turn)
}

// turnsOut ends a fight that lasted MaxTurns rounds: a draw, or in a staked match the
// team that kept the larger share of its heroes' HP wins.
func (s *State) turnsOut() FightEnded {
	if s.Stake <= 0 {
		return FightEnded{Winners: []int{}, Reason: fmt.Sprintf("%d turns", MaxTurns)}
	}
	best, bestTeam, tie := -1.0, -1, false
	for _, t := range s.teams() {
		hp, max := 0, 0
		for _, f := range s.Fighters {
			if f.Hero() && f.Team == t {
				hp, max = hp+f.HP, max+f.MaxHP
			}
		}
		share := float64(hp) / float64(max)
		switch {
		case share > best:
			best, bestTeam, tie = share, t, false
		case share == best:
			tie = true
		}
	}
	if tie {
		return FightEnded{Winners: []int{}, Reason: fmt.Sprintf("%d turns, equal shares of HP", MaxTurns)}
	}
	return FightEnded{Winners: s.seatsOf(bestTeam), Reason: fmt.Sprintf("%d turns, larger share of HP", MaxTurns)}
}

// timeout acts for whoever let the deadline pass.
func (d *decision) timeout() {
	switch d.s.Phase {
	case PhaseGrimoire:
		var auto []int
		for seat, ok := range d.s.Chosen {
			if !ok {
				auto = append(auto, seat)
			}
		}
		d.lock(auto)
	case PhasePlacement:
		d.reveal()
	case PhaseAuction:
		d.closeAuction(true)
	case PhasePlay:
		d.emit(TurnEnded{Fighter: d.s.Actor, Timeout: true})
		d.next()
	}
}

// checkEnd ends the fight when one team alone has a hero standing (or none has), and
// reports whether it is over. A fight ended already is not ended again: a trap sprung
// inside a spell's effect (a push, a pull, a swap, a teleport onto it) may end it before
// the effect's own check comes.
func (d *decision) checkEnd() bool {
	if d.s.Phase == PhaseOver {
		return true
	}
	var alive []int
	for _, t := range d.s.teams() {
		for _, f := range d.s.Fighters {
			if f.Team == t && f.Hero() && f.Standing() {
				alive = append(alive, t)
				break
			}
		}
	}
	switch len(alive) {
	case 0:
		d.emit(FightEnded{Winners: []int{}, Reason: "no hero standing"})
	case 1:
		d.emit(FightEnded{Winners: d.s.seatsOf(alive[0]), Reason: "no hero standing on the other side"})
	default:
		return false
	}
	return true
}

// cellList names cells, for a refusal's reason.
func cellList(cs []arena.Cell) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.String()
	}
	return strings.Join(names, ", ")
}
