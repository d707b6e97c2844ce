package solwaris

import (
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/combat"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// Casting: the checks a spell must pass (AP, range, line, sight, the cell it needs, its
// limits and cooldown), then its effects in order, each on the entities its selector
// picks in its zone. The formulas are package combat's; every draw they take comes from
// the decision's stream and is recorded in the event that uses it.

// cast casts a spell of the acting fighter.
func (d *decision) cast(seat int, c CastSpell) error {
	f, err := d.actor(seat, "casting a spell")
	if err != nil {
		return err
	}
	g := d.s.grid()
	to, err := g.ParseCell(c.Cell)
	if err != nil {
		return &game.Error{Code: game.BadInput, Reason: err.Error(), Err: err}
	}
	sp, err := d.s.castable(f, c.Spell)
	if err != nil {
		return &game.Error{Code: game.IllegalMove, Reason: err.Error(), Err: err}
	}
	if err := d.s.aimable(f, sp, to); err != nil {
		return &game.Error{Code: game.IllegalMove, Reason: fmt.Sprintf("%s on %s: %v", sp.ID, c.Cell, err), Err: err}
	}
	d.emit(SpellCast{Fighter: f, Spell: sp.ID, Cell: c.Cell, Target: ptr(d.s.at(to)), AP: sp.Cost, Team: d.s.Fighters[f].Team, Hidden: hasEffect(sp, grimoire.Trap)})
	from := d.s.Fighters[f].Cell
	area := g.Area(sp.Zone, from, to)
	for _, e := range sp.Effects {
		d.apply(f, sp, e, from, to, area)
		if d.s.Phase == PhaseOver {
			return nil
		}
	}
	if !d.s.Fighters[f].Standing() {
		d.emit(TurnEnded{Fighter: f})
		d.next()
	}
	return nil
}

// castable is fighter f's spell id if it may cast it now, whatever the target, or why not.
func (s *State) castable(f int, id string) (*grimoire.Spell, error) {
	fi := s.Fighters[f]
	if !slices.Contains(fi.Spells, id) {
		return nil, fmt.Errorf("the fighter has no spell %q (its spells: %v)", id, fi.Spells)
	}
	sp, err := s.catalog().SpellByID(id)
	if err != nil {
		return nil, err
	}
	casts := 0
	for _, c := range fi.Casts {
		if c.Spell == id {
			casts++
		}
	}
	switch {
	case sp.Cost > fi.AP:
		return nil, fmt.Errorf("%s costs %d AP; the fighter has %d", id, sp.Cost, fi.AP)
	case sp.PerTurn > 0 && casts >= sp.PerTurn:
		return nil, limited(ErrCastLimit, "%s is cast at most %d times a turn", id, sp.PerTurn)
	}
	for _, cd := range fi.Cooldowns {
		if cd.Spell == id && s.Turn < cd.From {
			return nil, limited(ErrCooldown, "%s may be cast again from turn %d", id, cd.From)
		}
	}
	return sp, nil
}

// aimable says why f may not aim sp at to (nil when it may).
func (s *State) aimable(f int, sp *grimoire.Spell, to arena.Cell) error {
	g := s.grid()
	from := s.Fighters[f].Cell
	r := sp.Range()
	if !g.CanTarget(from, to, r) {
		d := arena.Distance(from, to)
		switch {
		case !g.Free(to):
			return errors.New("not a playable cell")
		case d < r.Min || d > r.Max:
			return fmt.Errorf("at distance %d, out of range %d-%d", d, r.Min, r.Max)
		case r.Straight && !arena.Straight(from, to):
			return errors.New("not in a straight line")
		default:
			return errors.New("out of sight")
		}
	}
	return s.fits(f, sp, to)
}

// fits says why sp may not be aimed at to, a cell in its range (nil when it may): the
// cell it needs (free, or holding an entity), and its limit per target.
func (s *State) fits(f int, sp *grimoire.Spell, to arena.Cell) error {
	on := s.at(to)
	switch {
	case sp.Target == grimoire.TargetFree && on >= 0:
		return errors.New("the cell is taken")
	case sp.Target == grimoire.TargetEntity && on < 0:
		return errors.New("nobody stands there")
	case on >= 0 && hasEffect(sp, grimoire.Swap) && (s.anchored(on) || s.anchored(f)):
		return errors.New("an anchored fighter cannot be swapped")
	}
	if sp.PerTarget > 0 && on >= 0 {
		n := 0
		for _, c := range s.Fighters[f].Casts {
			if c.Spell == sp.ID && c.Target == on {
				n++
			}
		}
		if n >= sp.PerTarget {
			return limited(ErrTargetLimit, "cast at most %d times a turn on one target", sp.PerTarget)
		}
	}
	return nil
}

// The limits of a spell, each a refusal errors.Is finds (through the game.Error of the
// refusal): the casts of a turn, the casts of a turn on one target, the cooldown.
var (
	ErrCastLimit   = errors.New("solwaris: the spell's casts of this turn are spent")
	ErrTargetLimit = errors.New("solwaris: the spell's casts of this turn on that target are spent")
	ErrCooldown    = errors.New("solwaris: the spell is cooling down")
)

// limitError is a refusal by one of a spell's limits: its reason, and the limit.
type limitError struct {
	why   string
	limit error
}

func (e *limitError) Error() string { return e.why }
func (e *limitError) Unwrap() error { return e.limit }

// limited is a refusal by limit, for the reason format says.
func limited(limit error, format string, args ...any) error {
	return &limitError{why: fmt.Sprintf(format, args...), limit: limit}
}

// chosen lists the entities effect e of caster reaches.
func (s *State) chosen(caster int, e grimoire.Effect, to arena.Cell, area []arena.Cell) []int {
	switch e.To {
	case grimoire.ToCaster:
		return []int{caster}
	case grimoire.ToTarget:
		if i := s.at(to); i >= 0 {
			return []int{i}
		}
		return nil
	}
	team := s.Fighters[caster].Team
	var out []int
	for _, c := range area {
		i := s.at(c)
		if i < 0 {
			continue
		}
		ally := s.Fighters[i].Team == team
		if e.To == grimoire.ToAll || (e.To == grimoire.ToAllies && ally) || (e.To == grimoire.ToEnemies && !ally) {
			out = append(out, i)
		}
	}
	return out
}

// apply applies one effect of caster's spell sp (nil for a passive or an aura).
func (d *decision) apply(caster int, sp *grimoire.Spell, e grimoire.Effect, from, to arena.Cell, area []arena.Cell) {
	switch e.Kind {
	case grimoire.Summon:
		d.summon(caster, e, to)
		return
	case grimoire.Trap:
		d.layTrap(caster, sp, e, to)
		return
	}
	for _, t := range d.s.chosen(caster, e, to, area) {
		if !d.s.Fighters[t].Standing() {
			continue
		}
		switch e.Kind {
		case grimoire.Damage:
			d.hit(caster, t, sp, &e, 0)
		case grimoire.Push:
			if dir, ok := arena.DirTo(from, d.s.Fighters[t].Cell); ok {
				d.push(caster, t, dir, e.Cells, e.Shock, true)
			}
		case grimoire.Pull:
			if dir, ok := arena.DirTo(d.s.Fighters[t].Cell, from); ok {
				d.push(caster, t, dir, e.Cells, 0, false)
			}
		case grimoire.Swap:
			if t != caster && !d.s.anchored(t) && !d.s.anchored(caster) {
				a, b := d.s.Fighters[caster].Cell, d.s.Fighters[t].Cell
				d.emit(Swapped{A: caster, B: t})
				d.arrive(caster, a, []string{b.String()})
				d.arrive(t, b, []string{a.String()})
			}
		case grimoire.Teleport:
			was := d.s.Fighters[t].Cell
			d.emit(Teleported{Fighter: t, Cell: to.String()})
			d.arrive(t, was, []string{to.String()})
		case grimoire.APRemoval, grimoire.MPRemoval:
			d.remove(t, e)
		case grimoire.APGain, grimoire.MPGain, grimoire.Boost, grimoire.Resistance, grimoire.Armour, grimoire.SetState:
			d.emit(Affected{Fighter: t, Caster: caster, Kind: string(e.Kind), Amount: e.Amount, State: string(e.State), Ends: d.s.Turn + e.Duration})
		}
		if d.s.Phase == PhaseOver { // a trap sprung by this target's forced move ended it
			return
		}
	}
	// The end is judged once the effect has reached every entity it picks: its hits land
	// together, and a hero falling first in the zone's cell order must not spare the rest
	// (nor make a side win where both lost their last hero to the same effect).
	d.checkEnd()
}

// roll is a draw for a roll between lo and hi; chance one for a percent chance.
func roll(src source, lo, hi int) combat.Draw { return src.Below(hi - lo + 1) }
func chance(src source) combat.Draw           { return src.Below(100) }

// hit deals a blow of caster to t: a roll of the damage effect dmg of spell sp, or a
// shock's base when dmg is nil; a critical drawn, the caster's bonus and t's
// resistance, then t's armour. A fighter at 0 HP falls.
func (d *decision) hit(caster, t int, sp *grimoire.Spell, dmg *grimoire.Effect, shock int) {
	drawn := d.mark()
	e := Damaged{Fighter: t, Caster: caster, Base: shock, Shock: dmg == nil, Drawn: drawn}
	if dmg != nil {
		e.Base = combat.Roll(dmg.Min, dmg.Max, roll(d.rng, dmg.Min, dmg.Max))
		if sp != nil {
			e.Spell = sp.ID
		}
	}
	h := combat.Hit{Base: e.Base, Critical: combat.Critical(chance(d.rng)), Bonus: d.s.bonus(caster), Resistance: d.s.resistance(t)}
	o := combat.Resolve(h, d.s.Fighters[t].Stocks)
	e.Critical, e.Bonus, e.Resistance, e.Dealt, e.Absorbed, e.HPLoss = h.Critical, h.Bonus, h.Resistance, o.Dealt, o.Absorbed, o.HPLoss
	d.emit(e)
	if d.s.Fighters[t].HP <= 0 {
		d.emit(Fallen{Fighter: t})
	}
}

// push moves t n cells in direction dir (a pull is a push towards the puller), unless
// it is anchored. A trap on the way stops it on the first cell where it enters the trap's
// zone, without shock, and springs. A blocked push (shocks true) deals its shock to t and half of it to
// the entity struck, each a hit of caster; a blocked pull deals none: the rules give a
// shock to pushes only, and a pull is blocked by its caster as often as by anything.
func (d *decision) push(caster, t int, dir arena.Dir, n, perCell int, shocks bool) {
	if d.s.anchored(t) {
		return
	}
	g := d.s.grid()
	from := d.s.Fighters[t].Cell
	p := g.Push(from, dir, n, d.s.occupied(t))
	stop := p.Stop.String()
	if k, trapped := d.s.untilTrap(from, p.Path); trapped {
		p.Path, p.Missed, stop = p.Path[:k], 0, "trap"
	}
	names := make([]string, len(p.Path))
	for i, c := range p.Path {
		names[i] = c.String()
	}
	struck := -1
	if p.Missed > 0 && p.Stop == arena.ByEntity {
		struck = d.s.at(p.Struck)
	}
	d.emit(Pushed{Fighter: t, Path: names, Missed: p.Missed, Stop: stop, Struck: struck})
	if d.arrive(t, from, names) || p.Missed == 0 || !shocks {
		return
	}
	victim, other := combat.Shock(p.Missed, perCell)
	d.hit(caster, t, nil, nil, victim)
	if struck >= 0 && d.s.Fighters[struck].Standing() {
		d.hit(caster, struck, nil, nil, other)
	}
}

// remove takes AP or MP from t point by point, each resisted, within the cap.
func (d *decision) remove(t int, e grimoire.Effect) {
	f := d.s.Fighters[t]
	resist, lost, kind := f.APResist, f.APLost, "ap"
	if e.Kind == grimoire.MPRemoval {
		resist, lost, kind = f.MPResist, f.MPLost, "mp"
	}
	drawn := d.mark()
	draws := make([]combat.Draw, combat.Attempts(e.Amount, lost))
	for i := range draws {
		draws[i] = chance(d.rng)
	}
	r, err := combat.Remove(e.Amount, resist, lost, draws)
	if err != nil {
		panic("solwaris: " + err.Error())
	}
	d.emit(PointsRemoved{Fighter: t, Kind: kind, Points: e.Amount, Removed: r.Removed, Resisted: r.Resisted, Capped: r.Capped, Drawn: drawn})
}

// summon brings e's entity onto cell to, within its limit.
func (d *decision) summon(caster int, e grimoire.Effect, to arena.Cell) {
	n := 0
	for _, f := range d.s.Fighters {
		if f.Summoner == caster && f.Entity == e.Summon && f.Standing() {
			n++
		}
	}
	if n >= max(e.Limit, 1) || d.s.at(to) >= 0 {
		return
	}
	d.emit(Summoned{Fighter: len(d.s.Fighters), Summoner: caster, Entity: e.Summon, Cell: to.String()})
}

// anchored reports whether t holds the anchored state.
func (s *State) anchored(t int) bool {
	return slices.ContainsFunc(s.Fighters[t].Lasting, func(l Lasting) bool { return l.State == string(grimoire.Anchored) })
}

// bonus is f's damage bonus: the strongest of its spells' boosts, plus its passive's.
func (s *State) bonus(f int) int {
	var boosts []int
	for _, l := range s.Fighters[f].Lasting {
		if l.Kind == string(grimoire.Boost) {
			boosts = append(boosts, l.Amount)
		}
	}
	return combat.Bonus(boosts, s.Fighters[f].PassiveBoost)
}

// resistance is f's damage resistance: its passive's and every lasting gain or loss.
func (s *State) resistance(f int) int {
	r := s.Fighters[f].PassiveResist
	for _, l := range s.Fighters[f].Lasting {
		if l.Kind == string(grimoire.Resistance) {
			r += l.Amount
		}
	}
	return r
}

// targets lists, by spell of fighter f, the cells it may be cast on now, as the state
// shows them (a view of a state with hidden entities will pass its own).
func (s *State) targets(f int) []SpellTargets {
	out := []SpellTargets{}
	g := s.grid()
	names := gridNames(g)
	from := s.Fighters[f].Cell
	var buf []arena.Cell
	for _, id := range s.Fighters[f].Spells {
		sp, _ := s.castable(f, id)
		if sp == nil {
			continue
		}
		buf = g.AppendTargets(buf[:0], from, sp.Range())
		cells := make([]string, 0, len(buf))
		for _, c := range buf {
			if sp.Target == grimoire.TargetAny && sp.PerTarget == 0 || s.fits(f, sp, c) == nil {
				cells = append(cells, names[c.Y*g.Width()+c.X])
			}
		}
		if len(cells) > 0 {
			out = append(out, SpellTargets{Spell: id, Cells: cells})
		}
	}
	return out
}

// hasEffect reports whether sp has an effect of kind k. A swap aimed at or by an anchored
// fighter is refused, as the state shows anchoring to everyone; a cast that lays a trap is
// its team's alone, the other side learning only that the spell was cast.
func hasEffect(sp *grimoire.Spell, k grimoire.EffectKind) bool {
	return slices.ContainsFunc(sp.Effects, func(e grimoire.Effect) bool { return e.Kind == k })
}

// layTrap lays caster's hidden trap of effect e on cell to, for its duration in rounds.
func (d *decision) layTrap(caster int, sp *grimoire.Spell, e grimoire.Effect, to arena.Cell) {
	zone := arena.Shape{}
	if e.Zone != nil {
		zone = *e.Zone
	}
	id := ""
	if sp != nil {
		id = sp.ID
	}
	d.emit(TrapLaid{ID: trapID(d.s.Key, d.v0, d.s.Hidden, len(d.out)), Team: d.s.Fighters[caster].Team, Layer: caster, Spell: id,
		Cell: to.String(), Zone: zone, Until: d.s.Turn + e.Duration, Effects: e.Effects})
}

// spring triggers trap t on fighter f, on cell: the trap's effects reach the entities in
// its zone, as the layer's.
func (d *decision) spring(t, f int, cell string) {
	tr := d.s.Traps[t]
	d.emit(TrapTriggered{Trap: tr.ID, Fighter: f, Cell: cell})
	g := d.s.grid()
	area := g.Area(tr.Zone, tr.Cell, tr.Cell)
	for _, e := range tr.Effects {
		d.apply(tr.Layer, nil, e, tr.Cell, tr.Cell, area)
		if d.s.Phase == PhaseOver {
			return
		}
	}
}

func ptr(n int) *int { return &n }
