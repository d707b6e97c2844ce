package solwaris

import (
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/stateform"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/combat"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// The stored form of a State (game.Snapshotting; docs/games/solwaris.md, "Stored state"):
// the server's snapshot, so every secret is in it (the key, the grimoires and start cells
// not yet revealed, every team's traps). It is the state field by field, but for what the
// catalog makes of a locked grimoire or a summon (a fighter's spells, passive, maximum HP,
// base AP and MP, resistances, passive boost, inertness) and the turn order, which the
// fold itself derives from the rest (hero, summoned, turnOrder): DecodeState derives them
// again, exactly as folding the match from its events would, and EncodeState refuses a
// state whose fields differ from what they derive. DecodeState checks every invariant a
// played state keeps (positions on the arena, HP, AP and MP in range, known classes,
// spells, bonuses and effects, indices that name a fighter, a seat or a team), so that
// forged bytes with a valid checksum are refused rather than read into an impossible state.
const stateVersion = 1

var _ game.Snapshotting = Rules{}

// Bounds a played state keeps, beyond the catalog's own.
const (
	maxSeats  = 8   // Plan gives two; the state is built for teams of several
	maxPoints = 100 // any AP or MP figure: a class's 12 to 14 and every bonus and gain of a turn stay far below
)

// phases lists the phases in the order the form numbers them; "" is a state keyed but
// not yet opened.
var phases = []string{"", PhaseGrimoire, PhasePlacement, PhaseAuction, PhasePlay, PhaseOver}

// EncodeState writes a State in the stored form. A state on a test's own arena, or one no
// fold of this catalog made, is refused.
func (r Rules) EncodeState(st game.State) ([]byte, error) {
	s, ok := st.(State)
	if !ok {
		return nil, game.Reject(game.BadInput, "Solwaris: no game state to store (%T)", st)
	}
	if s.ground != nil {
		return nil, game.Reject(game.BadInput, "Solwaris: a state on a test's own arena has no stored form")
	}
	if err := r.derivable(s); err != nil {
		return nil, err
	}
	return writeState(s), nil
}

// writeState writes s, whose derived fields EncodeState has checked.
func writeState(s State) []byte {
	w := stateform.New(stateVersion, ID)
	w.String(string(s.Key))
	w.Uint(uint64(s.Fairness))
	w.Uint(uint64(len(s.Purses)))
	for _, p := range s.Purses {
		w.Int(p)
	}
	w.Uint(uint64(s.Version))
	w.Uint(uint64(s.Hidden))
	w.Uint(uint64(slices.Index(phases, s.Phase)))
	if s.Phase == "" {
		return w.Bytes()
	}
	w.String(s.Map)
	w.Uint(uint64(len(s.Teams)))
	for _, t := range s.Teams {
		w.Uint(uint64(t))
	}
	w.Int(s.Stake)
	w.Time(s.Deadline)
	for seat := range s.Teams {
		w.Bool(s.Chosen[seat])
		g := s.Grimoires[seat]
		w.String(g.Class)
		w.Strings(g.Variants)
		w.String(s.Placed[seat])
	}
	a := s.Auction
	w.Uint(uint64(a.Designated))
	w.Uint(uint64(a.ToBid))
	w.Int(int64(a.Leader))
	w.Int(int64(a.Bidder))
	w.Int(a.Price)
	w.Bool(a.Closed)
	w.Int(int64(a.Payer))
	w.Uint(uint64(s.First))
	w.Int(int64(s.Actor))
	w.Uint(uint64(s.Turn))
	w.Uint(uint64(len(s.Fighters)))
	for i, f := range s.Fighters {
		writeFighter(w, f, i < len(s.Teams))
	}
	w.Uint(uint64(len(s.Bonuses)))
	for _, b := range s.Bonuses {
		w.String(b.Kind)
		w.String(b.Cell)
	}
	w.Uint(uint64(len(s.Traps)))
	for _, t := range s.Traps {
		w.String(t.ID)
		w.Uint(uint64(t.Team))
		w.Int(int64(t.Layer))
		writeCell(w, t.Cell)
		writeShape(w, t.Zone)
		w.Int(int64(t.Until))
		w.Bool(t.Sprung)
		writeEffects(w, t.Effects)
	}
	// A draw's Winners is an empty list, not none: the view shows which.
	w.Bool(s.Winners != nil)
	writeInts(w, s.Winners)
	w.String(s.Reason)
	return w.Bytes()
}

// writeFighter writes what a fighter's turns change; the rest is derived.
func writeFighter(w *stateform.Writer, f Fighter, hero bool) {
	if !hero {
		w.Int(int64(f.Summoner))
		w.String(f.Entity)
	}
	w.Uint(uint64(f.HP))
	w.Uint(uint64(f.AP))
	w.Uint(uint64(f.MP))
	writeCell(w, f.Cell)
	w.Bool(f.OnArena)
	w.Uint(uint64(f.APLost))
	w.Uint(uint64(f.MPLost))
	w.Int(int64(f.APDue))
	w.Int(int64(f.MPDue))
	w.Uint(uint64(len(f.Stocks)))
	for _, k := range f.Stocks {
		w.Uint(uint64(k.Points))
		w.Uint(uint64(k.Ends))
	}
	w.Uint(uint64(len(f.Lasting)))
	for _, l := range f.Lasting {
		w.String(l.Kind)
		w.Int(int64(l.Amount))
		w.String(l.State)
		w.Uint(uint64(l.Caster))
		w.Uint(uint64(l.Ends))
	}
	w.Uint(uint64(len(f.Casts)))
	for _, c := range f.Casts {
		w.String(c.Spell)
		w.Int(int64(c.Target))
	}
	w.Uint(uint64(f.ConcealedAP))
	w.Uint(uint64(len(f.Cooldowns)))
	for _, c := range f.Cooldowns {
		w.String(c.Spell)
		w.Uint(uint64(c.From))
	}
}

func writeCell(w *stateform.Writer, c arena.Cell) {
	w.Int(int64(c.X))
	w.Int(int64(c.Y))
}

func writeShape(w *stateform.Writer, z arena.Shape) {
	w.Uint(uint64(z.Kind))
	w.Uint(uint64(z.Size))
}

func writeInts(w *stateform.Writer, ns []int) {
	w.Uint(uint64(len(ns)))
	for _, n := range ns {
		w.Uint(uint64(n))
	}
}

// derivable refuses a state whose derived fields (see the form's comment) differ from
// what the catalog and the fold derive: the form would not bring them back.
func (r Rules) derivable(s State) error {
	if s.Phase == "" {
		if s.Map != "" || s.Teams != nil || s.Fighters != nil {
			return game.Reject(game.BadInput, "Solwaris: a state opened with no phase")
		}
		return nil
	}
	if slices.Index(phases, s.Phase) < 0 || len(s.Chosen) != len(s.Teams) || len(s.Grimoires) != len(s.Teams) || len(s.Placed) != len(s.Teams) {
		return game.Reject(game.BadInput, "Solwaris: a state of phase %q with %d seats, %d chosen, %d grimoires, %d placed", s.Phase, len(s.Teams), len(s.Chosen), len(s.Grimoires), len(s.Placed))
	}
	if s.Auction.Closed && !slices.Contains(s.Teams, s.First) {
		return game.Reject(game.BadInput, "Solwaris: team %d plays first, of teams %v", s.First, s.Teams)
	}
	d := s
	d.Fighters = slices.Clone(s.Fighters)
	for i := range d.Fighters {
		if err := r.derive(&d, i); err != nil {
			return game.Reject(game.BadInput, "Solwaris: fighter %d: %v", i, err)
		}
	}
	if !slices.Equal(d.Order, s.Order) {
		return game.Reject(game.BadInput, "Solwaris: the turn order %v is not the fighters' %v", s.Order, d.Order)
	}
	for i := range d.Fighters {
		if !sameFighter(d.Fighters[i], s.Fighters[i]) {
			return game.Reject(game.BadInput, "Solwaris: fighter %d is not what its grimoire or its summon makes", i)
		}
	}
	return nil
}

// sameFighter compares the fields the form derives.
func sameFighter(a, b Fighter) bool {
	return a.Seat == b.Seat && a.Team == b.Team && a.Class == b.Class && a.Entity == b.Entity && a.Summoner == b.Summoner &&
		a.Inert == b.Inert && slices.Equal(a.Spells, b.Spells) && a.Passive == b.Passive && a.MaxHP == b.MaxHP &&
		a.BaseAP == b.BaseAP && a.BaseMP == b.BaseMP && a.APResist == b.APResist && a.MPResist == b.MPResist &&
		a.PassiveBoost == b.PassiveBoost && a.PassiveResist == b.PassiveResist
}

// derive sets the derived fields of fighter i of s (a hero from its seat's grimoire, a
// summon from its summoner and entity), keeping those its turns change, and the turn
// order once the auction has closed (after the last fighter).
func (r Rules) derive(s *State, i int) error {
	f := &s.Fighters[i]
	var made Fighter
	if i < len(s.Teams) {
		g := s.Grimoires[i]
		if g.Class == "" || g.Seat != i {
			return fmt.Errorf("hero %d has no grimoire locked", i)
		}
		if _, err := r.catalog().Choose(g.Class, g.Variants); err != nil {
			return err
		}
		made = hero(r.catalog(), g, s.Teams[i])
	} else {
		if f.Summoner < 0 || f.Summoner >= i {
			return fmt.Errorf("summoned by fighter %d", f.Summoner)
		}
		by := s.Fighters[f.Summoner]
		c, err := r.catalog().ClassByID(by.Class)
		if err != nil {
			return err
		}
		if _, err := c.Summon(f.Entity); err != nil {
			return err
		}
		made = summoned(r.catalog(), by, Summoned{Summoner: f.Summoner, Entity: f.Entity})
	}
	f.Seat, f.Team, f.Class, f.Entity, f.Summoner, f.Inert = made.Seat, made.Team, made.Class, made.Entity, made.Summoner, made.Inert
	f.Spells, f.Passive, f.MaxHP, f.BaseAP, f.BaseMP = made.Spells, made.Passive, made.MaxHP, made.BaseAP, made.BaseMP
	f.APResist, f.MPResist, f.PassiveBoost, f.PassiveResist = made.APResist, made.MPResist, made.PassiveBoost, made.PassiveResist
	if i == len(s.Fighters)-1 {
		s.Order = nil
		if s.Auction.Closed {
			s.Order = s.turnOrder(s.First)
		}
	}
	return nil
}

// DecodeState reads a State from its stored form, refusing with an error wrapping
// game.ErrStateFormat anything that is not a state of this format, or not a state a match
// of this catalog can be in.
func (r Rules) DecodeState(b []byte) (game.State, error) {
	rd, err := stateform.Open(b, stateVersion, ID)
	if err != nil {
		return nil, err
	}
	s := State{Key: []byte(rd.String()), Fairness: fairness.Version(rd.Small(int(fairness.Current))), cat: r.Catalog}
	s.Purses = make([]int64, rd.Count(1))
	for i := range s.Purses {
		if s.Purses[i] = rd.Int(); s.Purses[i] < 0 { // the engine caps it at MaxCharge, the game does not count on it
			rd.Fail("a purse of %d", s.Purses[i])
		}
	}
	s.Version, s.Hidden = int(rd.Small(1<<40)), int(rd.Small(1<<40))
	s.Phase = phases[rd.Small(len(phases)-1)]
	if s.Phase == "" {
		if len(s.Purses) == 0 {
			s.Purses = nil
		}
		return finish(rd, s, nil)
	}
	sr := stateReader{Reader: rd}
	s.Map = rd.String()
	m, err := arena.ByID(s.Map)
	if err != nil {
		rd.Fail("no arena %.40q", s.Map)
		return finish(rd, s, nil)
	}
	g := m.Grid
	seats := rd.Count(1)
	if seats < 2 || seats > maxSeats || len(s.Purses) != seats {
		rd.Fail("%d seats and %d purses", seats, len(s.Purses))
		return finish(rd, s, nil)
	}
	s.Teams = make([]int, seats)
	for i := range s.Teams {
		s.Teams[i] = rd.Small(seats - 1)
	}
	if len(s.teams()) != 2 { // a start zone a side: an arena has two
		rd.Fail("%d teams", len(s.teams()))
	}
	if s.Stake = rd.Int(); s.Stake < 0 {
		rd.Fail("a stake of %d", s.Stake)
	}
	s.Deadline = rd.Time()
	s.Chosen, s.Grimoires, s.Placed = make([]bool, seats), make([]Grimoire, seats), make([]string, seats)
	for seat := range s.Teams {
		s.Chosen[seat] = rd.Bool()
		s.Grimoires[seat] = Grimoire{Class: rd.String(), Variants: sr.Strings()}
		if s.Grimoires[seat].Class != "" {
			s.Grimoires[seat].Seat = seat
			if _, err := r.catalog().Choose(s.Grimoires[seat].Class, s.Grimoires[seat].Variants); err != nil || !s.Chosen[seat] {
				rd.Fail("seat %d's grimoire: %v", seat, err)
			}
		} else if s.Grimoires[seat].Variants != nil {
			rd.Fail("seat %d has variants and no class", seat)
		}
		if s.Placed[seat] = rd.String(); s.Placed[seat] != "" {
			c, err := g.ParseCell(s.Placed[seat])
			if side, ok := g.ZoneOf(c); err != nil || c.String() != s.Placed[seat] || !ok || int(side) != s.Teams[seat] {
				rd.Fail("seat %d placed on %.10q, not in its start zone", seat, s.Placed[seat])
			}
		}
	}
	s.Auction = Auction{Designated: sr.team(s), ToBid: sr.team(s), Leader: sr.index(maxSeats), Bidder: sr.index(seats), Price: rd.Int(), Closed: rd.Bool(), Payer: sr.index(seats)}
	// A price is what the last bid reached, within the bidder's purse; none without a bid.
	if a := s.Auction; a.Price < 0 || a.Price%BidStep != 0 || a.Leader >= 0 && !slices.Contains(s.Teams, a.Leader) ||
		a.Bidder >= 0 && (s.Teams[a.Bidder] != a.Leader || a.Price > s.Purses[a.Bidder]) || a.Bidder < 0 && a.Price != 0 ||
		a.Payer >= 0 && a.Payer != a.Bidder {
		rd.Fail("the auction %+v", a)
	}
	s.First, s.Actor, s.Turn = sr.team(s), int(rd.Int()), rd.Small(MaxTurns)
	n := rd.Count(8)
	if n > 0 && n < seats || n == 0 && s.Phase != PhaseGrimoire && s.Phase != PhaseOver {
		rd.Fail("%d fighters in phase %s", n, s.Phase)
		return finish(rd, s, nil)
	}
	s.Fighters = make([]Fighter, n)
	for i := range s.Fighters {
		f := &s.Fighters[i]
		if i >= seats {
			f.Summoner, f.Entity = sr.index(i), rd.String()
		}
		if err := r.derive(&s, i); err != nil {
			rd.Fail("fighter %d: %v", i, err)
			break
		}
		sr.fighter(&s, i, g)
	}
	if s.Actor < -1 || s.Actor >= n {
		rd.Fail("fighter %d to act of %d", s.Actor, n)
	}
	s.Bonuses = make([]Bonus, rd.Count(2))
	for i := range s.Bonuses {
		s.Bonuses[i] = Bonus{Kind: rd.String(), Cell: rd.String()}
		c, err := g.ParseCell(s.Bonuses[i].Cell)
		if bonusKind(s.Bonuses[i].Kind).ID == "" || err != nil || !g.Free(c) || c.String() != s.Bonuses[i].Cell {
			rd.Fail("a bonus %.20q on %.10q", s.Bonuses[i].Kind, s.Bonuses[i].Cell)
		}
	}
	s.Traps = make([]Trap, rd.Count(10))
	for i := range s.Traps {
		t := &s.Traps[i]
		t.ID, t.Team, t.Layer = rd.String(), rd.Small(seats-1), sr.index(n)
		t.Cell, t.Zone, t.Until, t.Sprung, t.Effects = sr.cell(g), sr.shape(), int(rd.Int()), rd.Bool(), sr.effects(0)
		if _, err := hex.DecodeString(t.ID); err != nil || len(t.ID) != 16 {
			rd.Fail("a trap %.20q", t.ID)
		}
		if t.Layer < 0 || s.Fighters[t.Layer].Team != t.Team || !g.Free(t.Cell) || t.Until < 0 || t.Until > MaxTurns+grimoire.TrapTurns {
			rd.Fail("trap %.20s of team %d laid by fighter %d on %s until %d", t.ID, t.Team, t.Layer, t.Cell, t.Until)
		}
		if err := grimoire.CheckEffect(grimoire.Effect{Kind: grimoire.Trap, To: grimoire.ToCell, Duration: grimoire.TrapTurns, Zone: &t.Zone, Effects: t.Effects}); err != nil {
			rd.Fail("trap %.20s: %v", t.ID, err)
		}
	}
	if rd.Bool() {
		s.Winners = make([]int, rd.Count(1))
		for i := range s.Winners {
			s.Winners[i] = rd.Small(seats - 1)
		}
	} else if rd.Uint() != 0 {
		rd.Fail("winners of none")
	}
	s.Reason = rd.String()
	if len(s.Bonuses) == 0 {
		s.Bonuses = nil
	}
	if len(s.Traps) == 0 {
		s.Traps = nil
	}
	if len(s.Fighters) == 0 {
		s.Fighters = nil
	}
	return finish(rd, s, g)
}

// finish checks what only the whole state can say, and returns it.
func finish(rd *stateform.Reader, s State, g *arena.Grid) (game.State, error) {
	if err := rd.Err(ID); err != nil {
		return nil, err
	}
	refuse := func(format string, args ...any) (game.State, error) {
		rd.Fail(format, args...)
		return nil, rd.Err(ID)
	}
	switch s.Phase {
	case PhaseGrimoire:
		if len(s.Fighters) > 0 {
			return refuse("fighters before the grimoires are locked")
		}
	case PhasePlacement, PhaseAuction, PhasePlay:
		if slices.Contains(s.Chosen, false) {
			return refuse("a seat with no grimoire in phase %s", s.Phase)
		}
	}
	if (s.Phase == PhaseAuction || s.Phase == PhasePlay) && slices.Contains(s.Placed, "") {
		return refuse("a seat not placed in phase %s", s.Phase)
	}
	if s.Phase == PhasePlay && !s.Auction.Closed || s.Phase != PhaseOver && s.Winners != nil {
		return refuse("phase %s with the auction closed %v and winners %v", s.Phase, s.Auction.Closed, s.Winners)
	}
	for i, f := range s.Fighters {
		if j := s.at(f.Cell); f.Standing() && j != i {
			return refuse("fighters %d and %d on one cell", j, i)
		}
	}
	return s, nil
}

// stateReader reads the parts of a state the form writes alike, checking each.
type stateReader struct{ *stateform.Reader }

// index reads an index below n, or -1 for none.
func (r stateReader) index(n int) int {
	v := r.Int()
	if v < -1 || v >= int64(n) {
		r.Fail("index %d of %d", v, n)
		return -1
	}
	return int(v)
}

// team reads a team of s.
func (r stateReader) team(s State) int {
	t := r.Small(maxSeats)
	if !slices.Contains(s.Teams, t) {
		r.Fail("no team %d", t)
		return s.Teams[0] // a team, so that what is read next indexes nothing out of range
	}
	return t
}

// cell reads a cell inside g.
func (r stateReader) cell(g *arena.Grid) arena.Cell {
	c := arena.Cell{X: int(r.Int()), Y: int(r.Int())}
	if !g.In(c) {
		r.Fail("cell %d,%d outside the arena", c.X, c.Y)
		return arena.Cell{}
	}
	return c
}

// shape reads a zone's shape; the catalog's check of an effect checks its size.
func (r stateReader) shape() arena.Shape {
	k := r.Small(int(arena.Bar))
	return arena.Shape{Kind: arena.ShapeKind(k), Size: int(r.Small(1 << 20))}
}

// points reads an AP or MP figure.
func (r stateReader) points() int { return r.Small(maxPoints) }

// fighter reads what fighter i's turns change, its derived fields set already.
func (r stateReader) fighter(s *State, i int, g *arena.Grid) {
	f := &s.Fighters[i]
	f.HP, f.AP, f.MP = r.Small(f.MaxHP), r.points(), r.points()
	f.Cell, f.OnArena = r.cell(g), r.Bool()
	if f.OnArena && !g.Free(f.Cell) {
		r.Fail("fighter %d on %s, not a free cell", i, f.Cell)
	}
	f.APLost, f.MPLost = r.Small(combat.MaxLoss), r.Small(combat.MaxLoss)
	f.APDue, f.MPDue = int(r.Int()), int(r.Int())
	if f.APDue < -maxPoints || f.APDue > maxPoints || f.MPDue < -maxPoints || f.MPDue > maxPoints {
		r.Fail("fighter %d owes %d AP and %d MP", i, f.APDue, f.MPDue)
	}
	if n := r.Count(2); n > 0 {
		f.Stocks = make([]combat.Stock, n)
		for k := range f.Stocks {
			f.Stocks[k] = combat.Stock{Points: r.Small(1 << 20), Ends: int(r.Small(1 << 20))}
			if f.Stocks[k].Points == 0 || k > 0 && f.Stocks[k].Ends < f.Stocks[k-1].Ends {
				r.Fail("fighter %d's armour %v", i, f.Stocks)
			}
		}
	}
	if n := r.Count(5); n > 0 {
		f.Lasting = make([]Lasting, n)
		for k := range f.Lasting {
			l := Lasting{Kind: r.String(), Amount: int(r.Int()), State: r.String(), Caster: r.Small(len(s.Fighters) - 1), Ends: int(r.Small(1 << 20))}
			if !lastingKinds[l.Kind] || checkLasting(l) != nil {
				r.Fail("fighter %d's lasting %.20q", i, l.Kind)
			}
			f.Lasting[k] = l
		}
	}
	if n := r.Count(2); n > 0 {
		f.Casts = make([]Cast, n)
		for k := range f.Casts {
			f.Casts[k] = Cast{Spell: r.String(), Target: r.index(len(s.Fighters))}
			if !slices.Contains(f.Spells, f.Casts[k].Spell) {
				r.Fail("fighter %d cast %.20q, not its spell", i, f.Casts[k].Spell)
			}
		}
	}
	f.ConcealedAP = r.points()
	if n := r.Count(2); n > 0 {
		f.Cooldowns = make([]Cooldown, n)
		for k := range f.Cooldowns {
			f.Cooldowns[k] = Cooldown{Spell: r.String(), From: int(r.Small(1 << 20))}
			if !slices.Contains(f.Spells, f.Cooldowns[k].Spell) {
				r.Fail("fighter %d's cooldown of %.20q, not its spell", i, f.Cooldowns[k].Spell)
			}
		}
	}
}

// lastingKinds are the kinds of effect a fighter holds as Lasting (the gains of AP and MP
// and armour are folded into its points and stocks).
var lastingKinds = map[string]bool{string(grimoire.Boost): true, string(grimoire.Resistance): true, string(grimoire.SetState): true}

// checkLasting checks a lasting effect's figures as the catalog checks a spell's.
func checkLasting(l Lasting) error {
	return grimoire.CheckEffect(grimoire.Effect{Kind: grimoire.EffectKind(l.Kind), To: grimoire.ToTarget, Amount: l.Amount, State: grimoire.State(l.State), Duration: 1})
}

// writeEffects writes effects field by field, and each one's own effects (a trap's).
func writeEffects(w *stateform.Writer, es []grimoire.Effect) {
	w.Uint(uint64(len(es)))
	for _, e := range es {
		w.String(string(e.Kind))
		w.String(string(e.To))
		for _, n := range []int{e.Min, e.Max, e.Amount, e.Cells, e.Shock, e.Duration, e.Limit} {
			w.Int(int64(n))
		}
		w.String(string(e.Element))
		w.String(string(e.State))
		w.String(e.Summon)
		w.Bool(e.Zone != nil)
		if e.Zone != nil {
			writeShape(w, *e.Zone)
		}
		writeEffects(w, e.Effects)
	}
}

// effects reads effects written by writeEffects, nested depth levels deep at most (a
// trap's effects hold none of their own), nil for none; CheckEffect checks them.
func (r stateReader) effects(depth int) []grimoire.Effect {
	n := r.Count(12)
	if n == 0 {
		return nil
	}
	out := make([]grimoire.Effect, n)
	for i := range out {
		e := grimoire.Effect{Kind: grimoire.EffectKind(r.String()), To: grimoire.Selector(r.String())}
		for _, p := range []*int{&e.Min, &e.Max, &e.Amount, &e.Cells, &e.Shock, &e.Duration, &e.Limit} {
			if *p = int(r.Int()); *p < -1<<20 || *p > 1<<20 {
				r.Fail("an effect's figure %d", *p)
			}
		}
		e.Element, e.State, e.Summon = grimoire.Element(r.String()), grimoire.State(r.String()), r.String()
		if r.Bool() {
			z := r.shape()
			e.Zone = &z
		}
		if depth > 0 {
			e.Effects = r.effects(depth - 1)
		} else if r.Uint() != 0 {
			r.Fail("effects nested too deep")
		}
		out[i] = e
	}
	return out
}
