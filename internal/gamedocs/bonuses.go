package main

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/games/solwaris"
)

// bonuses is the Solwaris terrain bonus kinds as Markdown: what each gives when picked up.
func bonuses(kinds []solwaris.BonusKind) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d kinds; each hero turn draws %d different ones.\n\n", len(kinds), solwaris.BonusesPerTurn)
	b.WriteString("| id | name | gives |\n| --- | --- | --- |\n")
	for _, k := range kinds {
		var gives []string
		if k.AP > 0 {
			gives = append(gives, fmt.Sprintf("+%d AP", k.AP))
		}
		if k.MP > 0 {
			gives = append(gives, fmt.Sprintf("+%d MP", k.MP))
		}
		if k.Heal > 0 {
			gives = append(gives, fmt.Sprintf("%d HP healed (up to the maximum)", k.Heal))
		}
		if k.Armour > 0 {
			gives = append(gives, fmt.Sprintf("%d armour for %d turn%s", k.Armour, k.ArmourTurns, map[bool]string{true: "s"}[k.ArmourTurns > 1]))
		}
		fmt.Fprintf(&b, "| `%s` | %s (%s) | %s |\n", k.ID, cell(k.NameEn), cell(k.NameFr), strings.Join(gives, ", "))
	}
	return b.String()
}
