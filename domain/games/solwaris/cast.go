package solwaris

import "github.com/arbiter-games/arbiter/domain/game"

// cast casts a spell of the acting fighter. Spells come with the next step of this
// package, on the grimoire's effects and the combat package's formulas.
func (d *decision) cast(seat int, c CastSpell) error {
	if _, err := d.actor(seat, "casting a spell"); err != nil {
		return err
	}
	return game.Reject(game.IllegalMove, "spells are not cast yet in this version of Solwaris")
}

// evolveCombat folds the events of spells; false for an event that is none of them.
func (s *State) evolveCombat(e game.Event) bool { return false }

// targets lists, by spell of fighter f, the cells it may be cast on now.
func (s *State) targets(f int) []SpellTargets { return []SpellTargets{} }

// castScore hints how good a cast is, for a player in a hurry.
func (s *State) castScore(f int, spell, cell string) int { return 0 }
