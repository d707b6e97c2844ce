package grimoire

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
)

// classes.json is read and checked when the package loads: a catalog that breaks a rule of
// the game (a slot without its variant, a removal resistance past the cap, an effect of an
// unknown kind or with a figure its kind does not use) panics, so it never ships.

//go:embed classes.json
var classesJSON []byte

// Catalog is a set of classes, checked: the embedded one (Embedded) is what the game
// plays; another, read by Parse, lets a test host classes the data does not hold yet.
type Catalog struct {
	classes []*Class          // in the file's order
	spells  map[string]*Spell // every spell by ID, summons' included
}

var embedded *Catalog

func init() {
	c, err := Parse(classesJSON)
	if err != nil {
		panic("grimoire: classes.json: " + err.Error())
	}
	embedded = c
}

// Embedded is the catalog of classes.json, the one the game plays.
func Embedded() *Catalog { return embedded }

// EmbeddedJSON is classes.json as embedded, for a test that derives a catalog from it.
func EmbeddedJSON() []byte { return bytes.Clone(classesJSON) }

// Parse reads and checks a catalog in classes.json's format.
func Parse(data []byte) (*Catalog, error) {
	cs, err := parse(data)
	if err == nil {
		err = check(cs)
	}
	if err != nil {
		return nil, err
	}
	return &Catalog{classes: cs, spells: index(cs)}, nil
}

// MaxRemovalResist bounds a class's AP or MP removal resistance, as combat caps it.
const MaxRemovalResist = 75

// MaxRange bounds a spell's range.
const MaxRange = 12

// parse decodes the catalog, refusing fields it does not know, and fills the defaults
// and each spell's and passive's class.
func parse(data []byte) ([]*Class, error) {
	var cs []*Class
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cs); err != nil {
		return nil, err
	}
	for _, c := range cs {
		if c.AP == 0 {
			c.AP = DefaultAP
		}
		if c.MP == 0 {
			c.MP = DefaultMP
		}
		for i := range c.Spells {
			c.Spells[i].Class = c.ID
		}
		for i := range c.Passives {
			c.Passives[i].Class = c.ID
		}
		for i := range c.Summons {
			for j := range c.Summons[i].Spells {
				c.Summons[i].Spells[j].Class = c.ID
			}
		}
	}
	return cs, nil
}

func index(cs []*Class) map[string]*Spell {
	m := map[string]*Spell{}
	for _, c := range cs {
		for i := range c.Spells {
			m[c.Spells[i].ID] = &c.Spells[i]
		}
		for i := range c.Summons {
			for j := range c.Summons[i].Spells {
				m[c.Summons[i].Spells[j].ID] = &c.Summons[i].Spells[j]
			}
		}
	}
	return m
}

// check checks every class. IDs are unique across the whole catalog within their kind:
// classes, spells and passives (one namespace: a grimoire names both), summoned entities.
func check(cs []*Class) error {
	if len(cs) == 0 {
		return fmt.Errorf("no class")
	}
	ids := map[string]bool{}
	unique := func(kind, id string) error {
		if id == "" || ids[kind+" "+id] {
			return fmt.Errorf("%s ID %q is empty or not unique", kind, id)
		}
		ids[kind+" "+id] = true
		return nil
	}
	for _, c := range cs {
		if err := unique("class", c.ID); err != nil {
			return err
		}
		if err := checkClass(c, unique); err != nil {
			return fmt.Errorf("%s: %w", c.ID, err)
		}
	}
	return nil
}

func checkClass(c *Class, unique func(kind, id string) error) error {
	switch {
	case c.NameFr == "" || c.NameEn == "":
		return fmt.Errorf("a name is missing")
	case c.HP < 1 || c.AP < 1 || c.MP < 1:
		return fmt.Errorf("HP %d, AP %d, MP %d", c.HP, c.AP, c.MP)
	case c.APResist < 0 || c.APResist > MaxRemovalResist || c.MPResist < 0 || c.MPResist > MaxRemovalResist:
		return fmt.Errorf("removal resistances %d%%, %d%% outside 0..%d", c.APResist, c.MPResist, MaxRemovalResist)
	case len(c.Spells) != 2*Slots:
		return fmt.Errorf("%d spells, want %d", len(c.Spells), 2*Slots)
	case len(c.Passives) != 2 || c.Passives[0].Variant || !c.Passives[1].Variant:
		return fmt.Errorf("the passives must be an original then a variant")
	}
	summons := map[string]bool{}
	for _, e := range c.Summons {
		if err := unique("entity", e.ID); err != nil {
			return err
		}
		summons[e.ID] = true
	}
	summoned := map[string]bool{}
	for i := range c.Spells {
		s := &c.Spells[i]
		if s.Slot != i/2+1 || s.Variant != (i%2 == 1) {
			return fmt.Errorf("spell %d (%s) is slot %d variant %v; want slot %d, the original before the variant", i, s.ID, s.Slot, s.Variant, i/2+1)
		}
		if err := unique("spell", s.ID); err != nil {
			return err
		}
		if err := checkSpell(s, c.AP, summons); err != nil {
			return fmt.Errorf("%s: %w", s.ID, err)
		}
		for _, e := range s.Effects {
			if e.Kind == Summon {
				summoned[e.Summon] = true
			}
		}
	}
	for _, p := range c.Passives {
		if err := unique("spell", p.ID); err != nil {
			return err
		}
		if err := checkPassive(p, summons); err != nil {
			return fmt.Errorf("%s: %w", p.ID, err)
		}
	}
	for _, e := range c.Summons {
		if !summoned[e.ID] {
			return fmt.Errorf("summon %s: no spell brings it", e.ID)
		}
		if err := checkEntity(e, unique); err != nil {
			return fmt.Errorf("summon %s: %w", e.ID, err)
		}
	}
	return nil
}

// checkSpell checks one spell; ap is what its caster has a turn.
func checkSpell(s *Spell, ap int, summons map[string]bool) error {
	switch {
	case s.NameFr == "" || s.NameEn == "" || s.TextFr == "" || s.TextEn == "" || s.AdviceFr == "" || s.AdviceEn == "":
		return fmt.Errorf("a name, a text or an advice is missing")
	case s.Cost < 1 || s.Cost > ap:
		return fmt.Errorf("cost %d outside 1..%d AP", s.Cost, ap)
	case s.MinRange < 0 || s.MaxRange < s.MinRange || s.MaxRange > MaxRange:
		return fmt.Errorf("range %d..%d", s.MinRange, s.MaxRange)
	case s.PerTurn < 0 || s.PerTarget < 0 || s.Cooldown < 0:
		return fmt.Errorf("limits %d per turn, %d per target, cooldown %d", s.PerTurn, s.PerTarget, s.Cooldown)
	case s.Target != TargetAny && s.Target != TargetFree && s.Target != TargetEntity:
		return fmt.Errorf("unknown target %q", s.Target)
	case len(s.Effects) == 0:
		return fmt.Errorf("no effect")
	}
	if err := checkZone(s.Zone); err != nil {
		return err
	}
	for _, e := range s.Effects {
		if err := checkEffect(e, inSpell, summons); err != nil {
			return err
		}
		// What lands on the target cell needs it empty; a swap needs someone there.
		if (e.Kind == Summon || e.Kind == Teleport || e.Kind == Trap) && s.Target != TargetFree {
			return fmt.Errorf("a %s needs target %q", e.Kind, TargetFree)
		}
		if e.Kind == Swap && s.Target != TargetEntity {
			return fmt.Errorf("a swap needs target %q", TargetEntity)
		}
		if (e.Kind == Swap || e.Kind == Teleport) && s.MinRange < 1 {
			return fmt.Errorf("a %s cannot aim at the caster's own cell", e.Kind)
		}
	}
	return nil
}

func checkPassive(p Passive, summons map[string]bool) error {
	switch {
	case p.NameFr == "" || p.NameEn == "" || p.TextFr == "" || p.TextEn == "" || p.AdviceFr == "" || p.AdviceEn == "":
		return fmt.Errorf("a name, a text or an advice is missing")
	case len(p.Effects) == 0:
		return fmt.Errorf("no effect")
	}
	at := inSpell
	switch p.Trigger {
	case TriggerAlways:
		at = inAlways
	case TriggerTurnStart:
	default:
		return fmt.Errorf("unknown trigger %q", p.Trigger)
	}
	for _, e := range p.Effects {
		if e.To != ToCaster {
			return fmt.Errorf("a passive's effect applies to its holder (%q), not %q", ToCaster, e.To)
		}
		if err := checkEffect(e, at, summons); err != nil {
			return err
		}
	}
	return nil
}

func checkEntity(e Entity, unique func(kind, id string) error) error {
	switch {
	case e.NameFr == "" || e.NameEn == "" || e.TextFr == "" || e.TextEn == "":
		return fmt.Errorf("a name or a text is missing")
	case e.HP < 1 || e.AP < 0 || e.MP < 0:
		return fmt.Errorf("HP %d, AP %d, MP %d", e.HP, e.AP, e.MP)
	case e.Inert && (e.AP != 0 || e.MP != 0 || len(e.Spells) != 0):
		return fmt.Errorf("an inert entity has no AP, MP or spell")
	case !e.Inert && e.AP+e.MP == 0:
		return fmt.Errorf("an entity that plays a turn needs AP or MP")
	case !e.Inert && e.Aura != nil:
		return fmt.Errorf("only an inert entity has an aura")
	}
	for i := range e.Spells {
		s := &e.Spells[i]
		if err := unique("spell", s.ID); err != nil {
			return err
		}
		if s.Slot != 0 || s.Variant {
			return fmt.Errorf("%s: a summon's spell has slot 0 and no variant", s.ID)
		}
		if err := checkSpell(s, e.AP, nil); err != nil {
			return fmt.Errorf("%s: %w", s.ID, err)
		}
	}
	if e.Aura != nil {
		if err := checkZone(e.Aura.Zone); err != nil {
			return fmt.Errorf("aura: %w", err)
		}
		if len(e.Aura.Effects) == 0 {
			return fmt.Errorf("aura without effect")
		}
		for _, a := range e.Aura.Effects {
			if a.To != ToAllies && a.To != ToEnemies && a.To != ToAll {
				return fmt.Errorf("aura: an effect reaches allies, enemies or all in the zone, not %q", a.To)
			}
			if err := checkEffect(a, inAura, nil); err != nil {
				return fmt.Errorf("aura: %w", err)
			}
		}
	}
	return nil
}
