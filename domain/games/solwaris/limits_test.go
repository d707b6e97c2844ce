package solwaris

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// castRefused checks that the acting seat's cast is refused as an illegal move by limit,
// whose reason says why.
func castRefused(t *testing.T, s State, seat int, c CastSpell, limit error, why string) {
	t.Helper()
	_, err := (Rules{}).Decide(s, game.Action{Seat: seat, At: noon, Do: c})
	if game.CodeOf(err) != game.IllegalMove || !errors.Is(err, limit) || !strings.Contains(err.Error(), why) {
		t.Fatalf("%s on %s: %v, want an illegal move by %v: %s", c.Spell, c.Cell, err, limit, why)
	}
}

// targetsOf is the cells the acting seat's view lists for a spell.
func targetsOf(s State, seat int, spell string) []string {
	v := (Rules{}).View(s, game.Viewpoint{Seats: []int{seat}, Teams: []int{s.Teams[seat]}}).(*View)
	for _, st := range v.Targets {
		if st.Spell == spell {
			return st.Cells
		}
	}
	return nil
}

// Entrave is cast at most once a turn on one target, with no limit a turn: on the
// Guerrier (a1) once, then refused there though the Arcaniste has the AP for it, and
// taken on the Guerrier's banner (c2); the view lists the banner's cell and no longer the
// Guerrier's. The limit is per turn: the next turn, the Guerrier is a target again.
func TestEntraveOncePerTarget(t *testing.T) {
	s := arcaniste(position(t, `
		1.....
		......
		....2.
	`))
	s.Fighters = append(s.Fighters, summoned(grimoire.Embedded(), s.Fighters[0], Summoned{Fighter: 2, Summoner: 0, Entity: "banniere", Cell: "c2"}))
	sp, _ := grimoire.SpellByID("entrave")
	if sp.PerTarget != 1 || sp.PerTurn != 0 || sp.Cooldown != 0 {
		t.Fatalf("Entrave's limits in the catalog: %d a target, %d a turn, cooldown %d", sp.PerTarget, sp.PerTurn, sp.Cooldown)
	}
	s, _ = act(t, s, 1, CastSpell{Spell: "entrave", Cell: "a1"})
	if s.Fighters[1].AP != 11 {
		t.Fatalf("the Arcaniste has %d AP after one Entrave", s.Fighters[1].AP)
	}
	castRefused(t, s, 1, CastSpell{Spell: "entrave", Cell: "a1"}, ErrTargetLimit, "cast at most 1 times a turn on one target")
	if cells := targetsOf(s, 1, "entrave"); slices.Contains(cells, "a1") || !slices.Contains(cells, "c2") {
		t.Fatalf("the view lists Entrave on %v", cells)
	}
	s, evs := act(t, s, 1, CastSpell{Spell: "entrave", Cell: "c2"})
	if r := events[PointsRemoved](evs); len(r) != 1 || r[0].Fighter != 2 || s.Fighters[1].AP != 8 {
		t.Fatalf("Entrave on the banner: %+v, %d AP left", evs, s.Fighters[1].AP)
	}
	castRefused(t, s, 1, CastSpell{Spell: "entrave", Cell: "c2"}, ErrTargetLimit, "on one target")
	s, _ = act(t, s, 1, EndTurn{})
	s, _ = act(t, s, 0, EndTurn{})
	if s.Actor != 1 || s.Turn != 2 {
		t.Fatalf("fighter %d to act in round %d", s.Actor, s.Turn)
	}
	act(t, s, 1, CastSpell{Spell: "entrave", Cell: "a1"})
}

// Comète has a cooldown of 2 and no other limit (none a turn, none a target, no summon):
// cast in round 1 with 8 AP left, it is refused on the Guerrier and on an empty cell
// alike, in round 1 and round 2, and taken again in round 3.
func TestCometeCoolsDownTwoRounds(t *testing.T) {
	s := arcaniste(position(t, `
		1......
		.......
		......2
	`))
	sp, _ := grimoire.SpellByID("comete")
	if sp.Cooldown != 2 || sp.PerTurn != 0 || sp.PerTarget != 0 || slices.ContainsFunc(sp.Effects, func(e grimoire.Effect) bool { return e.Kind == grimoire.Summon }) {
		t.Fatalf("Comète in the catalog: %+v", sp)
	}
	s, _ = act(t, s, 1, CastSpell{Spell: "comete", Cell: "a1"})
	if s.Fighters[1].AP != 8 {
		t.Fatalf("%d AP after Comète", s.Fighters[1].AP)
	}
	castRefused(t, s, 1, CastSpell{Spell: "comete", Cell: "a1"}, ErrCooldown, "comete may be cast again from turn 3")
	castRefused(t, s, 1, CastSpell{Spell: "comete", Cell: "c2"}, ErrCooldown, "comete may be cast again from turn 3")
	if cells := targetsOf(s, 1, "comete"); len(cells) != 0 {
		t.Fatalf("the view lists Comète on %v while it cools down", cells)
	}
	for round := 2; round <= 3; round++ {
		s, _ = act(t, s, 1, EndTurn{})
		s, _ = act(t, s, 0, EndTurn{})
		if s.Actor != 1 || s.Turn != round || s.Fighters[1].AP != 14 {
			t.Fatalf("fighter %d to act in round %d with %d AP", s.Actor, s.Turn, s.Fighters[1].AP)
		}
		if round == 2 {
			castRefused(t, s, 1, CastSpell{Spell: "comete", Cell: "a1"}, ErrCooldown, "from turn 3")
		}
	}
	act(t, s, 1, CastSpell{Spell: "comete", Cell: "a1"})
}

// Taille is cast at most twice a turn, whatever the target: a third time is refused by
// that limit, with the AP for it (12 - 2 x 4).
func TestTailleTwiceATurn(t *testing.T) {
	s := position(t, `
		12..
	`)
	s, _ = act(t, s, 0, CastSpell{Spell: "taille", Cell: "b1"})
	s, _ = act(t, s, 0, CastSpell{Spell: "taille", Cell: "b1"})
	castRefused(t, s, 0, CastSpell{Spell: "taille", Cell: "b1"}, ErrCastLimit, "taille is cast at most 2 times a turn")
	if s.Fighters[0].AP != 4 {
		t.Fatalf("%d AP after two Taille", s.Fighters[0].AP)
	}
}
