package grimoire

import (
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
)

// Effect is one thing a spell, a passive, an aura or a trap does. Kind says what; To says
// to whom; the other fields are the kind's figures, and a field a kind does not use must
// stay zero (the loader refuses it, so a typo never passes for a figure).
type Effect struct {
	Kind EffectKind `json:"kind"`
	To   Selector   `json:"to"`
	// Min and Max bound a damage roll (combat.Roll); Element is cosmetic in part 1
	// (every resistance is global) and kept for the classes and resistances to come.
	Min     int     `json:"min,omitempty"`
	Max     int     `json:"max,omitempty"`
	Element Element `json:"element,omitempty"`
	// Amount: points removed or gained, percent of boost or resistance (negative is a
	// loss), armour points.
	Amount int `json:"amount,omitempty"`
	// Cells of a push or a pull; Shock is a push's damage per cell not travelled when it
	// is stronger than the common combat.ShockPerCell (0 keeps the common one).
	Cells int `json:"cells,omitempty"`
	Shock int `json:"shock,omitempty"`
	// Duration, for what lasts, in turns of the caster: applied on the caster's turn t,
	// it ends at the start of its turn t+Duration. In an "always" passive it is 0: the
	// whole match.
	Duration int   `json:"duration,omitempty"`
	State    State `json:"state,omitempty"`
	// Summon names an entity of the class's Summons; Limit is how many of it the caster
	// may have on the arena at once.
	Summon string `json:"summon,omitempty"`
	Limit  int    `json:"limit,omitempty"`
	// Zone and Effects of a trap: the cells that trigger it and what it does to the
	// entities in that zone when it triggers.
	Zone    *Zone    `json:"zone,omitempty"`
	Effects []Effect `json:"effects,omitempty"`
}

// EffectKind names what an effect does.
type EffectKind string

// The effect kinds.
const (
	Damage     EffectKind = "damage"     // Min..Max, Element: a hit (combat.Resolve)
	Push       EffectKind = "push"       // Cells away from the caster; Shock overrides the per-cell shock
	Pull       EffectKind = "pull"       // Cells towards the caster
	Swap       EffectKind = "swap"       // caster and target trade cells
	Teleport   EffectKind = "teleport"   // the caster goes to the target cell
	APRemoval  EffectKind = "ap-removal" // Amount points, each resisted (combat.Remove)
	MPRemoval  EffectKind = "mp-removal" // likewise for MP
	APGain     EffectKind = "ap-gain"    // Amount for Duration
	MPGain     EffectKind = "mp-gain"    // Amount for Duration
	Boost      EffectKind = "boost"      // Amount percent more damage for Duration
	Resistance EffectKind = "resistance" // Amount percent resistance (negative: a loss) for Duration
	Armour     EffectKind = "armour"     // Amount points of armour for Duration
	Summon     EffectKind = "summon"     // Summon entity on the target cell, at most Limit at once
	Trap       EffectKind = "trap"       // a hidden trap of Zone on the target cell for Duration; Effects when it triggers
	SetState   EffectKind = "state"      // State for Duration
)

// Selector says which entities an effect reaches.
type Selector string

const (
	ToTarget  Selector = "target"  // the entity on the target cell
	ToCaster  Selector = "caster"  // the caster
	ToEnemies Selector = "enemies" // every enemy of the caster in the zone
	ToAllies  Selector = "allies"  // every ally in the zone, the caster included
	ToAll     Selector = "all"     // every entity in the zone
	ToCell    Selector = "cell"    // the target cell itself (summons, traps)
)

// State is a lasting condition with a rule of its own.
type State string

const (
	// Anchored: no push, pull or swap moves its holder (Ancrage).
	Anchored State = "anchored"
)

// Element is a damage's element.
type Element string

const (
	Neutral Element = "neutral"
	Earth   Element = "earth"
	Fire    Element = "fire"
	Water   Element = "water"
	Air     Element = "air"
)

// effectRule is what a kind accepts: its selectors and the fields it uses.
type effectRule struct {
	to     []Selector
	fields string // letters: m min/max, e element, a amount, c cells, s shock, d duration, t state, u summon+limit, z zone+effects
}

var (
	onEntities  = []Selector{ToTarget, ToCaster, ToEnemies, ToAllies, ToAll}
	onOthers    = []Selector{ToTarget, ToEnemies, ToAllies, ToAll}
	effectKinds = map[EffectKind]effectRule{
		Damage:     {onEntities, "me"},
		Push:       {onOthers, "cs"},
		Pull:       {onOthers, "c"},
		Swap:       {[]Selector{ToTarget}, ""},
		Teleport:   {[]Selector{ToCaster}, ""},
		APRemoval:  {onEntities, "a"},
		MPRemoval:  {onEntities, "a"},
		APGain:     {onEntities, "ad"},
		MPGain:     {onEntities, "ad"},
		Boost:      {onEntities, "ad"},
		Resistance: {onEntities, "ad"},
		Armour:     {onEntities, "ad"},
		Summon:     {[]Selector{ToCell}, "u"},
		Trap:       {[]Selector{ToCell}, "dz"},
		SetState:   {onEntities, "dt"},
	}
	states   = map[State]bool{Anchored: true}
	elements = map[Element]bool{Neutral: true, Earth: true, Fire: true, Water: true, Air: true}
)

// lasting says whether a kind has a duration.
func lasting(k EffectKind) bool { return slices.Contains([]byte(effectKinds[k].fields), 'd') }

// where says what an effect belongs to, for the rules on durations.
type where int

const (
	inSpell  where = iota // durations >= 1
	inAlways              // an "always" passive: durations 0
	inAura                // an aura: durations exactly 1
	inTrap                // what a trap does: no summons, no traps
)

// checkEffect checks one effect against its kind's rule; summons are the class's.
func checkEffect(e Effect, at where, summons map[string]bool) error {
	rule, ok := effectKinds[e.Kind]
	if !ok {
		return fmt.Errorf("unknown effect kind %q", e.Kind)
	}
	if !slices.Contains(rule.to, e.To) {
		return fmt.Errorf("%s: selector %q not one of %v", e.Kind, e.To, rule.to)
	}
	used := map[byte]bool{
		'm': e.Min != 0 || e.Max != 0, 'e': e.Element != "", 'a': e.Amount != 0,
		'c': e.Cells != 0, 's': e.Shock != 0, 'd': e.Duration != 0, 't': e.State != "",
		'u': e.Summon != "" || e.Limit != 0, 'z': e.Zone != nil || len(e.Effects) > 0,
	}
	for f, on := range used {
		if on && !slices.Contains([]byte(rule.fields), f) {
			return fmt.Errorf("%s: a field it does not use is set (%c)", e.Kind, f)
		}
	}
	switch e.Kind {
	case Damage:
		if e.Min < 0 || e.Max < e.Min || e.Max == 0 {
			return fmt.Errorf("damage %d..%d", e.Min, e.Max)
		}
		if e.Element != "" && !elements[e.Element] {
			return fmt.Errorf("unknown element %q", e.Element)
		}
	case Push, Pull:
		if e.Cells < 1 || e.Shock < 0 {
			return fmt.Errorf("%s of %d cells, shock %d", e.Kind, e.Cells, e.Shock)
		}
	case APRemoval, MPRemoval, APGain, MPGain, Armour:
		if e.Amount < 1 {
			return fmt.Errorf("%s of %d", e.Kind, e.Amount)
		}
	case Boost, Resistance:
		if e.Amount == 0 || e.Amount < -100 || e.Amount > 200 {
			return fmt.Errorf("%s of %d%%", e.Kind, e.Amount)
		}
	case Summon:
		if !summons[e.Summon] || e.Limit < 1 {
			return fmt.Errorf("summon %q (limit %d): no such entity in the class, or no limit", e.Summon, e.Limit)
		}
	case SetState:
		if !states[e.State] {
			return fmt.Errorf("unknown state %q", e.State)
		}
	case Trap:
		if e.Zone == nil || len(e.Effects) == 0 {
			return fmt.Errorf("a trap needs a zone and effects")
		}
		if e.Duration != TrapTurns {
			return fmt.Errorf("a trap lasts %d turns, not %d", TrapTurns, e.Duration)
		}
		if err := checkZone(*e.Zone); err != nil {
			return fmt.Errorf("trap: %w", err)
		}
		for _, t := range e.Effects {
			if t.Kind == Trap || t.Kind == Summon || t.To == ToCell {
				return fmt.Errorf("a trap's effect cannot be a %s", t.Kind)
			}
			if err := checkEffect(t, inTrap, summons); err != nil {
				return fmt.Errorf("trap: %w", err)
			}
		}
	}
	if lasting(e.Kind) {
		switch {
		case at == inAlways && e.Duration != 0:
			return fmt.Errorf("%s in an always passive has duration %d, want 0", e.Kind, e.Duration)
		case at == inAura && e.Duration != 1:
			return fmt.Errorf("%s in an aura has duration %d, want 1", e.Kind, e.Duration)
		case (at == inSpell || at == inTrap) && e.Duration < 1:
			return fmt.Errorf("%s has duration %d, want at least 1", e.Kind, e.Duration)
		}
	}
	return nil
}

// checkZone checks a zone's kind and size: a single cell has size 0, a ring at least 1.
func checkZone(z Zone) error {
	if _, err := z.Kind.MarshalText(); err != nil {
		return err
	}
	switch {
	case z.Kind == arena.Single && z.Size != 0:
		return fmt.Errorf("a one-cell zone has size 0, not %d", z.Size)
	case z.Kind == arena.Ring && z.Size < 1:
		return fmt.Errorf("a ring has size at least 1")
	case z.Size < 0 || z.Size > MaxZoneSize:
		return fmt.Errorf("zone size %d outside 0..%d", z.Size, MaxZoneSize)
	}
	return nil
}

// TrapTurns is how long every trap stays on the arena, as the rules fix it (« Il reste en
// place 8 tours »): laid on its layer's turn of round r, it vanishes at the start of its
// layer's turn of round r+8.
const TrapTurns = 8

// MaxZoneSize bounds a zone's size.
const MaxZoneSize = 6

// CheckEffect checks an effect as the loader checks one of a spell's (its kind, selector,
// figures and durations, a trap's zone and effects): what a stored match state holds of
// an effect (a trap laid, a lasting effect) is read back only if a spell could have made
// it. A summon is refused: no stored effect summons.
func CheckEffect(e Effect) error { return checkEffect(e, inSpell, nil) }
