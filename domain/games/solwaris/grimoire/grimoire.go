// Package grimoire is the Solwaris class catalog as data: each class's fighter stats, its
// eight spell slots (each an original and its variant), its two passives and the entities
// it summons, read from the embedded classes.json and checked when the package loads. A
// spell is a list of effects built from a small set of composable kinds (damage, push,
// pull, swap, teleport, AP/MP removal or gain, boost, resistance, armour, summon, trap,
// state), each aimed by a selector at the zone the spell hits; the game applies them with
// the formulas of package combat and the zones of package arena. A new class is new data,
// plus a new effect kind only when none of these can say what it does.
//
// The catalog is shared and read-only: callers must not modify what they are handed.
package grimoire

import (
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
)

// Fighter defaults the rules fix; a class overrides them (the Arcaniste has 14 AP).
const (
	DefaultAP = 12
	DefaultMP = 6
	// Slots is the number of spell slots of a class; each holds an original and a variant.
	Slots = 8
	// SummonTurnSeconds is the time a summon that plays has for its turn.
	SummonTurnSeconds = 10
)

// Class is a playable class.
type Class struct {
	ID     string `json:"id"`
	NameFr string `json:"nameFr"`
	NameEn string `json:"nameEn"`
	HP     int    `json:"hp"`
	// AP and MP a turn starts with (DefaultAP, DefaultMP when the data leaves them out).
	AP int `json:"ap"`
	MP int `json:"mp"`
	// APResist and MPResist are the percent chances that one point of an AP or MP
	// removal fails on this class (combat.Remove).
	APResist int `json:"apResist"`
	MPResist int `json:"mpResist"`
	// Spells are the 16 spells, slot by slot, the original before its variant.
	Spells []Spell `json:"spells"`
	// Passives are the original then the variant.
	Passives []Passive `json:"passives"`
	// Summons are the entities the class's spells bring onto the arena.
	Summons []Entity `json:"summons"`
}

// Spell is one spell: a slot's original or variant, or a summon's own spell (slot 0).
type Spell struct {
	ID      string `json:"id"`
	Class   string `json:"-"` // the class it belongs to (filled at load)
	Slot    int    `json:"slot"`
	Variant bool   `json:"variant"`
	NameFr  string `json:"nameFr"`
	NameEn  string `json:"nameEn"`
	Cost    int    `json:"cost"` // AP
	// MinRange and MaxRange bound the Manhattan distance from caster to target cell;
	// 0..0 is a spell on the caster's own cell.
	MinRange int  `json:"minRange"`
	MaxRange int  `json:"maxRange"`
	Straight bool `json:"straight"` // the target must share the caster's row or column
	Sight    bool `json:"sight"`    // the target cell must be in line of sight
	// PerTurn and PerTarget limit the casts in one turn, and on one entity in one turn;
	// 0 is no limit. Cooldown N: cast on the caster's turn t, castable again from its
	// turn t+N (0 is none).
	PerTurn   int    `json:"perTurn"`
	PerTarget int    `json:"perTarget"`
	Cooldown  int    `json:"cooldown"`
	Target    Target `json:"target"`
	Zone      Zone   `json:"zone"`
	// Effects apply in order.
	Effects  []Effect `json:"effects"`
	TextFr   string   `json:"textFr"`
	TextEn   string   `json:"textEn"`
	AdviceFr string   `json:"adviceFr"`
	AdviceEn string   `json:"adviceEn"`
}

// Range is where s may be cast from its caster, as package arena checks it
// (arena.Grid.CanTarget, arena.Grid.Targets); the Target kind (free cell, entity) is the
// game's to check on top, as only it knows who stands where.
func (s *Spell) Range() arena.Range {
	return arena.Range{Min: s.MinRange, Max: s.MaxRange, Straight: s.Straight, Sight: s.Sight}
}

// Passive is a class's standing rule twist.
type Passive struct {
	ID       string   `json:"id"`
	Class    string   `json:"-"`
	Variant  bool     `json:"variant"`
	NameFr   string   `json:"nameFr"`
	NameEn   string   `json:"nameEn"`
	Trigger  Trigger  `json:"trigger"`
	Effects  []Effect `json:"effects"`
	TextFr   string   `json:"textFr"`
	TextEn   string   `json:"textEn"`
	AdviceFr string   `json:"adviceFr"`
	AdviceEn string   `json:"adviceEn"`
}

// Entity is what a summon effect brings: a fighter of its own that plays a turn of
// SummonTurnSeconds right after its summoner's, or an inert entity (a banner) that plays
// none. Either has HP, blocks passage, never blocks sight and picks up no bonus when inert.
type Entity struct {
	ID     string  `json:"id"`
	NameFr string  `json:"nameFr"`
	NameEn string  `json:"nameEn"`
	HP     int     `json:"hp"`
	AP     int     `json:"ap"`
	MP     int     `json:"mp"`
	Inert  bool    `json:"inert"`
	Spells []Spell `json:"spells"`
	// Aura, if any, applies its effects to the entities in its zone (centred on the
	// entity) at the start of each of its summoner's turns, for one turn.
	Aura   *Aura  `json:"aura"`
	TextFr string `json:"textFr"`
	TextEn string `json:"textEn"`
}

// Aura is an inert entity's standing effect.
type Aura struct {
	Zone    Zone     `json:"zone"`
	Effects []Effect `json:"effects"`
}

// Zone is the shape a spell, an aura or a trap hits, centred on its target cell: one of
// package arena's shapes (cell, cross, x, circle, square, ring, line, bar) and
// its size, which arena.Grid.Area turns into cells.
type Zone = arena.Shape

// Target says which cells in range a spell may be cast on.
type Target string

const (
	TargetAny    Target = "any"    // any playable cell (an empty one wastes single-target effects)
	TargetFree   Target = "free"   // a free cell with no entity on it (summons, teleports)
	TargetEntity Target = "entity" // a cell holding an entity (swaps)
)

// Trigger says when a passive's effects apply.
type Trigger string

const (
	// TriggerAlways: the effects hold for the whole match (their Duration is 0).
	TriggerAlways Trigger = "always"
	// TriggerTurnStart: the effects are applied afresh at the start of each of the
	// holder's turns (their Duration counts from there).
	TriggerTurnStart Trigger = "turn-start"
)

// Classes lists the embedded catalog's classes in catalog order.
func Classes() []*Class { return embedded.Classes() }

// Classes lists the classes in catalog order.
func (k *Catalog) Classes() []*Class { return slices.Clone(k.classes) }

// Errors of the lookups and of Choose.
var (
	ErrUnknownClass  = errors.New("grimoire: unknown class")
	ErrUnknownSpell  = errors.New("grimoire: unknown spell")
	ErrNotAVariant   = errors.New("grimoire: not a variant of this class")
	ErrVariantTwice  = errors.New("grimoire: slot chosen twice")
	ErrUnknownSummon = errors.New("grimoire: unknown summon")
)

// ClassByID is the class id of the embedded catalog.
func ClassByID(id string) (*Class, error) { return embedded.ClassByID(id) }

// ClassByID is the class id.
func (k *Catalog) ClassByID(id string) (*Class, error) {
	for _, c := range k.classes {
		if c.ID == id {
			return c, nil
		}
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownClass, id)
}

// SpellByID finds any spell of the embedded catalog by ID, a summon's included.
func SpellByID(id string) (*Spell, error) { return embedded.SpellByID(id) }

// SpellByID finds any spell of the catalog by ID, a summon's included.
func (k *Catalog) SpellByID(id string) (*Spell, error) {
	if s, ok := k.spells[id]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownSpell, id)
}

// Spell is the original (variant false) or the variant of slot (1..Slots); nil when the
// slot does not exist.
func (c *Class) Spell(slot int, variant bool) *Spell {
	i := 2*(slot-1) + b2i(variant)
	if slot < 1 || slot > Slots || i >= len(c.Spells) {
		return nil
	}
	return &c.Spells[i]
}

// Passive is the original or the variant passive.
func (c *Class) Passive(variant bool) *Passive { return &c.Passives[b2i(variant)] }

// Summon is the entity id of the class.
func (c *Class) Summon(id string) (*Entity, error) {
	for i := range c.Summons {
		if c.Summons[i].ID == id {
			return &c.Summons[i], nil
		}
	}
	return nil, fmt.Errorf("%w %q of class %s", ErrUnknownSummon, id, c.ID)
}

// Grimoire is what a player takes into a match: a class, one spell per slot and one passive.
type Grimoire struct {
	Class   *Class
	Spells  [Slots]*Spell
	Passive *Passive
}

// Choose builds the grimoire of class with the variants named (IDs of variant spells or of
// the variant passive, in any order); every other slot keeps its original. A variant of
// another class, an original's ID, or two IDs for one slot is refused.
func Choose(class string, variants []string) (Grimoire, error) {
	return embedded.Choose(class, variants)
}

// Choose builds a grimoire of the catalog's class, as the package's Choose does.
func (k *Catalog) Choose(class string, variants []string) (Grimoire, error) {
	c, err := k.ClassByID(class)
	if err != nil {
		return Grimoire{}, err
	}
	g := Grimoire{Class: c, Passive: c.Passive(false)}
	for s := 1; s <= Slots; s++ {
		g.Spells[s-1] = c.Spell(s, false)
	}
	taken := map[int]bool{}
	for _, id := range variants {
		slot := -1
		if p := c.Passive(true); p.ID == id {
			g.Passive, slot = p, 0
		} else if s, ok := k.spells[id]; ok && s.Class == c.ID && s.Variant && s.Slot > 0 {
			g.Spells[s.Slot-1], slot = s, s.Slot
		}
		switch {
		case slot < 0:
			return Grimoire{}, fmt.Errorf("%w %s: %q", ErrNotAVariant, c.ID, id)
		case taken[slot]:
			return Grimoire{}, fmt.Errorf("%w: %q", ErrVariantTwice, id)
		}
		taken[slot] = true
	}
	return g, nil
}

// Variants lists the IDs of the variants g holds, by slot, the passive's last: what a
// match records and what Choose takes back.
func (g Grimoire) Variants() []string {
	var out []string
	for _, s := range g.Spells {
		if s.Variant {
			out = append(out, s.ID)
		}
	}
	if g.Passive.Variant {
		out = append(out, g.Passive.ID)
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
