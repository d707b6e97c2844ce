package grimoire

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/combat"
)

// What the rules and issue 13 fix about the two classes of part 1.
func TestTheClassesTheRulesName(t *testing.T) {
	g, a := mustClass(t, "guerrier"), mustClass(t, "arcaniste")
	if g.AP != 12 || g.MP != 6 || a.AP != 14 || a.MP != 6 {
		t.Errorf("AP/MP: Guerrier %d/%d (want the default 12/6), Arcaniste %d/%d (want 14/6)", g.AP, g.MP, a.AP, a.MP)
	}
	if a.APResist != 25 || a.MPResist != 20 {
		t.Errorf("Arcaniste resists %d%% AP, %d%% MP removal; the rules say 25 and 20", a.APResist, a.MPResist)
	}
	for _, c := range []*Class{g, a} {
		if len(c.Spells) != 16 || len(c.Passives) != 2 {
			t.Errorf("%s: %d spells, %d passives", c.ID, len(c.Spells), len(c.Passives))
		}
		for s := 1; s <= Slots; s++ {
			o, v := c.Spell(s, false), c.Spell(s, true)
			if o == nil || v == nil || o.Variant || !v.Variant || o.Slot != s || v.Slot != s {
				t.Errorf("%s: slot %d is not an original and its variant", c.ID, s)
			}
		}
	}

	// Guerrier: the Banner is an inert entity; War Cry boosts; Plate Armour and its
	// resistance variant; Anchor makes its holder immovable.
	banner := mustSummonedBy(t, g, "banniere")
	if !banner.Inert || banner.AP != 0 || banner.MP != 0 || banner.Aura == nil {
		t.Errorf("the Banner: %+v", banner)
	}
	if e := mustSpell(t, "cri-de-guerre").Effects[0]; e.Kind != Boost || e.Amount <= 0 {
		t.Errorf("War Cry: %+v", e)
	}
	if p := g.Passive(false); p.ID != "cuirasse" || p.Effects[0].Kind != Armour {
		t.Errorf("the Guerrier's passive: %+v", p)
	}
	if p := g.Passive(true); p.ID != "cuirasse-d-ecailles" || p.Effects[0].Kind != Resistance || p.Trigger != TriggerAlways {
		t.Errorf("the Guerrier's variant passive: %+v", p)
	}
	anchor := mustSpell(t, "ancrage")
	if !anchor.Variant || !slices.ContainsFunc(anchor.Effects, func(e Effect) bool { return e.Kind == SetState && e.State == Anchored && e.To == ToCaster }) {
		t.Errorf("Anchor: %+v", anchor)
	}

	// Arcaniste: Comet from 3 cells; the Flame Elemental plays with AP and MP of its own;
	// Mage's Eye boosts.
	if c := mustSpell(t, "comete"); c.MinRange != 3 || c.Class != "arcaniste" {
		t.Errorf("Comet: range %d..%d, class %s", c.MinRange, c.MaxRange, c.Class)
	}
	fe := mustSummonedBy(t, a, "elementaire-de-flamme")
	if fe.Inert || fe.AP == 0 || fe.MP == 0 || len(fe.Spells) == 0 {
		t.Errorf("the Flame Elemental: %+v", fe)
	}
	if e := mustSpell(t, "oeil-du-mage").Effects[0]; e.Kind != Boost || e.To != ToCaster {
		t.Errorf("Mage's Eye: %+v", e)
	}
	// A summon's own spell is found by ID and knows its class.
	if s := mustSpell(t, "flammeche"); s.Class != "arcaniste" || s.Slot != 0 {
		t.Errorf("Ember: class %q slot %d", s.Class, s.Slot)
	}
}

func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		name, class string
		variants    []string
		want        []string // the eight spells then the passive
		err         error
	}{
		{"all originals", "guerrier", nil,
			[]string{"taille", "coup-de-bouclier", "bond", "cri-de-guerre", "banniere", "parade", "tourbillon", "execution", "cuirasse"}, nil},
		{"one variant", "guerrier", []string{"ancrage"},
			[]string{"taille", "coup-de-bouclier", "bond", "cri-de-guerre", "banniere", "ancrage", "tourbillon", "execution", "cuirasse"}, nil},
		{"variants in any order, passive too", "arcaniste", []string{"pas-leger", "pluie-d-etoiles", "rayon"},
			[]string{"rayon", "boule-de-feu", "pluie-d-etoiles", "oeil-du-mage", "elementaire-de-flamme", "teleportation", "entrave", "onde-repulsive", "pas-leger"}, nil},
		{"unknown class", "brute", nil, nil, ErrUnknownClass},
		{"another class's variant", "guerrier", []string{"rayon"}, nil, ErrNotAVariant},
		{"an original is not a variant", "guerrier", []string{"taille"}, nil, ErrNotAVariant},
		{"a summon's spell is not a variant", "arcaniste", []string{"flammeche"}, nil, ErrNotAVariant},
		{"the original passive is not a variant", "guerrier", []string{"cuirasse"}, nil, ErrNotAVariant},
		{"a variant twice", "guerrier", []string{"ancrage", "ancrage"}, nil, ErrVariantTwice},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Choose(tc.class, tc.variants)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			var got []string
			for _, s := range g.Spells {
				got = append(got, s.ID)
			}
			got = append(got, g.Passive.ID)
			if !slices.Equal(got, tc.want) {
				t.Errorf("grimoire %v\nwant     %v", got, tc.want)
			}
			// What a match records gives back the same grimoire.
			again, err := Choose(tc.class, g.Variants())
			if err != nil || again != g {
				t.Errorf("Choose(Variants()) = %v, %v", again, err)
			}
		})
	}
}

// A catalog that breaks a rule is refused with a reason, whichever rule it breaks.
func TestCatalogChecks(t *testing.T) {
	cs, err := parse(classesJSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := check(cs); err != nil {
		t.Fatalf("the shipped catalog: %v", err)
	}
	spell := func(cs []*Class, id string) *Spell {
		for _, c := range cs {
			for i := range c.Spells {
				if c.Spells[i].ID == id {
					return &c.Spells[i]
				}
			}
		}
		t.Fatalf("no spell %s", id)
		return nil
	}
	for _, tc := range []struct {
		name, want string
		edit       func([]*Class)
	}{
		{"an ID twice", "not unique", func(c []*Class) { spell(c, "fauche").ID = "taille" }},
		{"an entity ID twice", "not unique", func(c []*Class) { c[1].Summons[0].ID = "feu-follet" }},
		{"slot out of order", "slot", func(c []*Class) { spell(c, "taille").Slot = 2 }},
		{"a slot with two originals", "variant", func(c []*Class) { spell(c, "fauche").Variant = false }},
		{"a missing text", "missing", func(c []*Class) { spell(c, "comete").TextEn = "" }},
		{"a missing advice", "missing", func(c []*Class) { spell(c, "comete").AdviceFr = "" }},
		{"costs more than the class's AP", "cost", func(c []*Class) { spell(c, "taille").Cost = 13 }},
		{"free spell", "cost", func(c []*Class) { spell(c, "taille").Cost = 0 }},
		{"range upside down", "range", func(c []*Class) { spell(c, "comete").MinRange = 9 }},
		{"a removal resistance past the cap", "removal resistances", func(c []*Class) { c[1].APResist = 80 }},
		{"no HP", "HP", func(c []*Class) { c[0].HP = 0 }},
		{"unknown zone", "unknown zone shape", func(c []*Class) { spell(c, "comete").Zone.Kind = 99 }},
		{"a one-cell zone with a size", "size 0", func(c []*Class) { spell(c, "taille").Zone.Size = 1 }},
		{"a zone too large", "zone size", func(c []*Class) { spell(c, "comete").Zone.Size = 7 }},
		{"a ring of size 0", "ring", func(c []*Class) { spell(c, "tourbillon").Zone.Size = 0 }},
		{"unknown effect", "unknown effect kind", func(c []*Class) { spell(c, "taille").Effects[0].Kind = "heal" }},
		{"a field the kind does not use", "does not use", func(c []*Class) { spell(c, "taille").Effects[0].Cells = 2 }},
		{"damage upside down", "damage", func(c []*Class) { spell(c, "taille").Effects[0].Min = 40 }},
		{"unknown element", "element", func(c []*Class) { spell(c, "taille").Effects[0].Element = "light" }},
		{"a selector the kind refuses", "selector", func(c []*Class) { spell(c, "bond").Effects[0].To = ToTarget }},
		{"a boost without duration", "duration", func(c []*Class) { spell(c, "cri-de-guerre").Effects[0].Duration = 0 }},
		{"unknown state", "state", func(c []*Class) { spell(c, "ancrage").Effects[0].State = "frozen" }},
		{"a push of no cell", "push", func(c []*Class) { spell(c, "coup-de-bouclier").Effects[1].Cells = 0 }},
		{"a summon of nothing", "summon", func(c []*Class) { spell(c, "banniere").Effects[0].Summon = "dragon" }},
		{"a summon with no limit", "summon", func(c []*Class) { spell(c, "banniere").Effects[0].Limit = 0 }},
		{"a summon on an occupied cell", "target", func(c []*Class) { spell(c, "banniere").Target = TargetAny }},
		{"a swap with nobody", "target", func(c []*Class) { spell(c, "permutation").Target = TargetFree }},
		{"an always passive with a duration", "duration", func(c []*Class) { c[0].Passives[1].Effects[0].Duration = 2 }},
		{"a passive on another", "holder", func(c []*Class) { c[0].Passives[1].Effects[0].To = ToEnemies }},
		{"unknown trigger", "trigger", func(c []*Class) { c[0].Passives[0].Trigger = "on-death" }},
		{"passives swapped", "passives", func(c []*Class) { c[0].Passives[0], c[0].Passives[1] = c[0].Passives[1], c[0].Passives[0] }},
		{"an inert entity with AP", "inert", func(c []*Class) { c[0].Summons[0].AP = 2 }},
		{"a summon nothing brings", "no spell brings", func(c []*Class) { spell(c, "etendard").Effects[0].Summon = "banniere" }},
		{"an aura lasting 2 turns", "aura", func(c []*Class) { c[0].Summons[0].Aura.Effects[0].Duration = 2 }},
		{"an aura on the target", "aura", func(c []*Class) { c[0].Summons[0].Aura.Effects[0].To = ToTarget }},
		{"a summon's spell costing more than its AP", "cost", func(c []*Class) { c[1].Summons[0].Spells[0].Cost = 7 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, _ := parse(classesJSON)
			tc.edit(cs)
			err := check(cs)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("check = %v, want an error saying %q", err, tc.want)
			}
		})
	}
	for _, bad := range []string{`[{"id":"x","colour":"red"}]`, `{"id":"x"}`, `[]`,
		`[{"id":"x","spells":[{"zone":{"kind":"star"}}]}]`} {
		cs, err := parse([]byte(bad))
		if err == nil {
			err = check(cs)
		}
		if err == nil {
			t.Errorf("%s passes", bad)
		}
	}
}

// Traps are the mechanism of part 1 and the data of the next classes: the kind is
// checked now, on a trap like the Ombre's (a cross of one cell, 8 turns).
func TestTrapEffects(t *testing.T) {
	trap := func(edit func(*Effect)) error {
		cs, _ := parse(classesJSON)
		s := cs[0].Spell(3, false) // Leap aims at a free cell, as a trap does
		s.Effects = []Effect{{Kind: Trap, To: ToCell, Duration: 8, Zone: &Zone{Kind: arena.Cross, Size: 1},
			Effects: []Effect{{Kind: Damage, To: ToAll, Min: 20, Max: 24}, {Kind: MPRemoval, To: ToAll, Amount: 1}}}}
		edit(&s.Effects[0])
		return check(cs)
	}
	if err := trap(func(*Effect) {}); err != nil {
		t.Fatalf("a good trap is refused: %v", err)
	}
	for name, edit := range map[string]func(*Effect){
		"no zone":          func(e *Effect) { e.Zone = nil },
		"no effect":        func(e *Effect) { e.Effects = nil },
		"no duration":      func(e *Effect) { e.Duration = 0 },
		"9 turns":          func(e *Effect) { e.Duration = 9 },
		"a trap in a trap": func(e *Effect) { e.Effects = append(e.Effects, *e) },
		"a bad zone":       func(e *Effect) { e.Zone = &Zone{Kind: arena.Ring} },
		"a bad effect":     func(e *Effect) { e.Effects[0].Max = 0 },
		"aimed at target":  func(e *Effect) { e.To = ToTarget },
	} {
		if trap(edit) == nil {
			t.Errorf("%s: the trap passes", name)
		}
	}
}

// Texts quote figures: every number a spell's, passive's or summon's text says must be
// one of its figures (or a common rule's), so a figure changed in the data without its
// text fails here.
func TestTextsQuoteTheirFigures(t *testing.T) {
	number := regexp.MustCompile(`\d+`)
	common := []int{combat.ShockPerCell, SummonTurnSeconds}
	checkText := func(what string, figures []int, texts ...string) {
		for _, text := range texts {
			for _, n := range number.FindAllString(text, -1) {
				v, _ := strconv.Atoi(n)
				if !slices.Contains(figures, v) && !slices.Contains(common, v) {
					t.Errorf("%s: the text says %d, which is none of its figures %v: %q", what, v, figures, text)
				}
			}
		}
	}
	for _, c := range Classes() {
		for _, s := range c.Spells {
			checkText(s.ID, spellFigures(c, &s), s.TextFr, s.TextEn)
		}
		for _, p := range c.Passives {
			checkText(p.ID, effectFigures(p.Effects), p.TextFr, p.TextEn)
		}
		for _, e := range c.Summons {
			f := []int{e.HP, e.AP, e.MP}
			if e.Aura != nil {
				f = append(f, e.Aura.Zone.Size)
				f = append(f, effectFigures(e.Aura.Effects)...)
			}
			checkText(e.ID, f, e.TextFr, e.TextEn)
			for _, s := range e.Spells {
				checkText(s.ID, spellFigures(c, &s), s.TextFr, s.TextEn)
			}
		}
	}
}

func spellFigures(c *Class, s *Spell) []int {
	f := []int{s.Cost, s.MinRange, s.MaxRange, s.PerTurn, s.PerTarget, s.Cooldown, s.Zone.Size}
	for _, e := range s.Effects {
		if e.Kind == Summon {
			if en, err := c.Summon(e.Summon); err == nil {
				f = append(f, en.HP, en.AP, en.MP)
			}
		}
	}
	return append(f, effectFigures(s.Effects)...)
}

func effectFigures(es []Effect) []int {
	var f []int
	for _, e := range es {
		f = append(f, e.Min, e.Max, e.Amount, -e.Amount, e.Cells, e.Shock, e.Duration, e.Limit)
		if e.Zone != nil {
			f = append(f, e.Zone.Size)
		}
		f = append(f, effectFigures(e.Effects)...)
	}
	return f
}

func mustClass(t *testing.T, id string) *Class {
	t.Helper()
	c, err := ClassByID(id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustSpell(t *testing.T, id string) *Spell {
	t.Helper()
	s, err := SpellByID(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mustSummonedBy is the entity id, which a spell of c must bring.
func mustSummonedBy(t *testing.T, c *Class, id string) *Entity {
	t.Helper()
	e, err := c.Summon(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Spells {
		for _, ef := range s.Effects {
			if ef.Kind == Summon && ef.Summon == id {
				return e
			}
		}
	}
	t.Fatalf("no spell of %s summons %s", c.ID, id)
	return nil
}
