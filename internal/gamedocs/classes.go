package main

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/games/solwaris/combat"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// classes is the Solwaris class catalog as Markdown: per class its figures, then its
// spells slot by slot, its passives and what it summons.
func classes(cs []*grimoire.Class) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d classes, each with %d spell slots (an original and its variant) and two passives.\n", len(cs), grimoire.Slots)
	for _, c := range cs {
		fmt.Fprintf(&b, "\n### %s (%s, `%s`)\n\n", c.NameEn, c.NameFr, c.ID)
		fmt.Fprintf(&b, "%d HP, %d AP, %d MP; resists %d%% of AP removal and %d%% of MP removal.\n\n",
			c.HP, c.AP, c.MP, c.APResist, c.MPResist)
		b.WriteString("| Slot | Spell | AP | Range | Limits | Zone | Effects | Text |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n")
		for i := range c.Spells {
			spellRow(&b, &c.Spells[i])
		}
		b.WriteString("\n| Passive | Trigger | Effects | Text |\n| --- | --- | --- | --- |\n")
		for _, p := range c.Passives {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", name(p.ID, p.NameEn, p.NameFr, p.Variant), p.Trigger, effects(p.Effects), cell(p.TextEn))
		}
		for _, e := range c.Summons {
			kind := "plays a turn of " + fmt.Sprint(grimoire.SummonTurnSeconds) + " s after its summoner's"
			if e.Inert {
				kind = "inert: plays no turn"
			}
			fmt.Fprintf(&b, "\n**%s** (%s, `%s`): %d HP, %d AP, %d MP, %s.", e.NameEn, e.NameFr, e.ID, e.HP, e.AP, e.MP, kind)
			if e.Aura != nil {
				fmt.Fprintf(&b, " Aura (%s) at the start of each of its summoner's turns: %s.", zone(e.Aura.Zone), effects(e.Aura.Effects))
			}
			b.WriteString("\n")
			if len(e.Spells) > 0 {
				b.WriteString("\n| Slot | Spell | AP | Range | Limits | Zone | Effects | Text |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n")
				for i := range e.Spells {
					spellRow(&b, &e.Spells[i])
				}
			}
		}
	}
	return b.String()
}

func spellRow(b *strings.Builder, s *grimoire.Spell) {
	slot := fmt.Sprint(s.Slot)
	if s.Slot == 0 {
		slot = "-"
	}
	rng := fmt.Sprintf("%d-%d", s.MinRange, s.MaxRange)
	if s.MaxRange == 0 {
		rng = "self"
	}
	if s.Straight {
		rng += ", straight"
	}
	if !s.Sight {
		rng += ", no sight needed"
	}
	if s.Target != grimoire.TargetAny {
		rng += ", on " + map[grimoire.Target]string{grimoire.TargetFree: "a free cell", grimoire.TargetEntity: "an entity"}[s.Target]
	}
	var limits []string
	if s.PerTurn > 0 {
		limits = append(limits, fmt.Sprintf("%d/turn", s.PerTurn))
	}
	if s.PerTarget > 0 {
		limits = append(limits, fmt.Sprintf("%d/target", s.PerTarget))
	}
	if s.Cooldown > 0 {
		limits = append(limits, fmt.Sprintf("cooldown %d", s.Cooldown))
	}
	if len(limits) == 0 {
		limits = []string{"-"}
	}
	fmt.Fprintf(b, "| %s | %s | %d | %s | %s | %s | %s | %s *%s* |\n", slot, name(s.ID, s.NameEn, s.NameFr, s.Variant),
		s.Cost, rng, strings.Join(limits, ", "), zone(s.Zone), effects(s.Effects), cell(s.TextEn), cell(s.AdviceEn))
}

// name is an entry's English and French names and ID, a variant marked.
func name(id, en, fr string, variant bool) string {
	v := ""
	if variant {
		v = " (variant)"
	}
	return fmt.Sprintf("%s (%s) `%s`%s", cell(en), cell(fr), id, v)
}

func zone(z grimoire.Zone) string {
	if z.Size == 0 {
		return z.Kind.String()
	}
	return fmt.Sprintf("%s %d", z.Kind, z.Size)
}

// effects writes effects as "kind figures → whom", in order.
func effects(es []grimoire.Effect) string {
	var out []string
	for _, e := range es {
		var w string
		switch e.Kind {
		case grimoire.Damage:
			w = fmt.Sprintf("damage %d-%d", e.Min, e.Max)
			if e.Element != "" {
				w += " " + string(e.Element)
			}
		case grimoire.Push, grimoire.Pull:
			w = fmt.Sprintf("%s %d", e.Kind, e.Cells)
			if e.Shock != 0 && e.Shock != combat.ShockPerCell {
				w += fmt.Sprintf(" (shock %d/cell)", e.Shock)
			}
		case grimoire.Boost, grimoire.Resistance:
			w = fmt.Sprintf("%s %+d%%", e.Kind, e.Amount)
		case grimoire.Summon:
			w = fmt.Sprintf("summon `%s` (at most %d)", e.Summon, e.Limit)
		case grimoire.SetState:
			w = "state " + string(e.State)
		case grimoire.Trap:
			w = fmt.Sprintf("trap (%s): %s", zone(*e.Zone), effects(e.Effects))
		case grimoire.Swap, grimoire.Teleport:
			w = string(e.Kind)
		default:
			w = fmt.Sprintf("%s %d", e.Kind, e.Amount)
		}
		if e.Duration > 0 {
			w += fmt.Sprintf(" for %d turn%s", e.Duration, map[bool]string{true: "s"}[e.Duration > 1])
		}
		out = append(out, w+" → "+string(e.To))
	}
	return strings.Join(out, "; ")
}
