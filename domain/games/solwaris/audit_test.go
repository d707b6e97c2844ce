package solwaris

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// The audit draws every random outcome again from the key: a roll, a critical, a
// removal, the bonuses, the automatic placements and the designated side recorded other
// than drawn are refused; those recorded as drawn pass.
func TestAuditRedrawsRandomOutcomes(t *testing.T) {
	s := arcaniste(position(t, `
		1.2.
	`))
	evs, err := Rules{}.Decide(s, game.Action{Seat: 1, Do: CastSpell{Spell: "entrave", Cell: "a1"}})
	if err != nil {
		t.Fatal(err)
	}
	before := s
	for _, e := range evs {
		if err := (Rules{}).Audit(before, e.Event); err != nil {
			t.Fatalf("the audit refuses %T %+v: %v", e.Event, e.Event, err)
		}
		switch e := e.Event.(type) {
		case Damaged:
			forged := e
			forged.Critical = !e.Critical
			if (Rules{}).Audit(before, forged) == nil {
				t.Fatal("a critical flipped passes the audit")
			}
			forged = e
			forged.Base = 6 + (e.Base-6+1)%3 // another roll of Entrave (6 to 8)
			if (Rules{}).Audit(before, forged) == nil {
				t.Fatal("another roll passes the audit")
			}
		case PointsRemoved:
			forged := e
			forged.Removed, forged.Resisted = e.Resisted, e.Removed
			if forged != e && (Rules{}).Audit(before, forged) == nil {
				t.Fatal("a removal forged passes the audit")
			}
		}
		before = Rules{}.Evolve(before, e.Event).(State)
	}
	// The end of a turn draws the next hero's bonuses.
	evs, _ = Rules{}.Decide(before, game.Action{Seat: 1, Do: EndTurn{}})
	before = Rules{}.Evolve(before, evs[0].Event).(State)
	b := evs[1].Event.(BonusesSpawned)
	if err := (Rules{}).Audit(before, b); err != nil {
		t.Fatal(err)
	}
	b.Bonuses = []Bonus{b.Bonuses[1], b.Bonuses[0]}
	if (Rules{}).Audit(before, b) == nil {
		t.Fatal("bonuses other than drawn pass the audit")
	}
	// Placement at the deadline: the automatic cells and the designated side.
	p := locked(t)
	evs, _ = Rules{}.Decide(p, game.Action{Seat: game.System, At: p.Deadline, Do: game.Timeout{Deadline: p.Deadline}})
	fp := evs[0].Event.(FightersPlaced)
	if err := (Rules{}).Audit(p, fp); err != nil {
		t.Fatal(err)
	}
	fp.Designated = 1 - fp.Designated
	if (Rules{}).Audit(p, fp) == nil {
		t.Fatal("another designated side passes the audit")
	}
}

// The audit re-checks a walk step by step, as Decide does: a recorded walk through an
// obstacle, through a fighter, by a jump, off the arena, or on past a trap's zone it
// entered is refused; the walk Decide records passes.
func TestAuditRechecksAWalk(t *testing.T) {
	s := position(t, `
		1.#...
		......
		...2..
		.*....
	`)
	for _, path := range [][]string{
		{"b1", "c1", "d1"},             // through the rock
		{"a2", "a3", "a4", "b4", "c4"}, // into its own team's trap at b4, and on
		{"c2"},                         // a jump
		{"a2", "b2", "c2", "c3", "d3"}, // onto the Arcaniste
		{"a0"},
	} {
		if err := (Rules{}).Audit(s, FighterMoved{Fighter: 0, Path: path}); err == nil {
			t.Errorf("a walk along %v passes the audit", path)
		}
	}
	evs, err := Rules{}.Decide(s, game.Action{Seat: 0, Do: MoveFighter{Path: []string{"a2", "a3", "a4", "b4", "c4"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := (Rules{}).Audit(s, evs[0].Event); err != nil {
		t.Fatalf("the audit refuses the walk Decide records, %+v: %v", evs[0].Event, err)
	}
}
