package solwaris

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
)

// The clocks of a match, as data: each phase's deadline is in the state (Status), the
// engine's scheduler submits a Timeout for it, and an action that comes at or after it,
// before the timeout did, is decided after the timeout (see TestATurnPassesAsItStands).

// decideAt decides seat's action at a moment of the match, and folds it when accepted.
func decideAt(t *testing.T, s State, seat int, at time.Time, do any) (State, []game.Emitted, error) {
	t.Helper()
	evs, err := (Rules{}).Decide(s, game.Action{Seat: seat, At: at, Do: do})
	if err != nil {
		return s, nil, err
	}
	return fold(t, s, evs), evs, nil
}

// timeOut is the scheduler's Timeout of the state's deadline, submitted at the deadline.
func timeOut(t *testing.T, s State) (State, []game.Emitted) {
	t.Helper()
	s, evs, err := decideAt(t, s, game.System, s.Deadline, game.Timeout{Deadline: s.Deadline})
	if err != nil {
		t.Fatalf("the timeout of %s: %v", s.Deadline, err)
	}
	return s, evs
}

// after is noon plus some seconds.
func after(seconds int) time.Time { return noon.Add(time.Duration(seconds) * time.Second) }

// Placement lasts 25 s from the lock of the grimoires; at the deadline the game places
// every seat that has not placed on a free cell of its zone, drawn from the seed and
// recorded, never on a cell a teammate holds. A 2v2 on this arena: seat 0 (team A) takes
// a1 itself; its teammate, seat 2, is left b1 or a2, and which one is the seed's.
func TestPlacementTimesOutOnAFreeCellOfTheZone(t *testing.T) {
	ground, err := arena.ParseGrid(`
		AA..#...
		AA......
		........
		......BB
		...#..BB
	`)
	if err != nil {
		t.Fatal(err)
	}
	drawnFor2 := map[string]bool{}
	for seed := range 40 {
		evs, err := Rules{}.Setup(game.Setup{Plan: game.Plan{Seats: 4, Teams: []int{0, 1, 0, 1}}, Options: game.Options{"map": "caveau"},
			Seed: fmt.Appendf(nil, "seed %d", seed), At: noon})
		if err != nil {
			t.Fatal(err)
		}
		s := fold(t, State{}, evs)
		s.ground = ground
		for seat, class := range []string{"guerrier", "arcaniste", "arcaniste", "guerrier"} {
			s, _, err = decideAt(t, s, seat, after(10), ChooseGrimoire{Class: class})
			if err != nil {
				t.Fatal(err)
			}
		}
		if s.Phase != PhasePlacement || !s.Deadline.Equal(after(10).Add(PlacementTime)) {
			t.Fatalf("after the lock at 10 s: phase %s until %s, want placement for 25 s", s.Phase, s.Deadline)
		}
		s, _, err = decideAt(t, s, 0, after(20), PlaceFighter{Cell: "a1"})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := decideAt(t, s, 2, after(21), PlaceFighter{Cell: "a1"}); game.CodeOf(err) != game.IllegalMove {
			t.Fatalf("seat 2 on its teammate's a1: %v", err)
		}
		before := s
		if _, _, err := decideAt(t, s, game.System, after(34), game.Timeout{Deadline: after(34)}); game.CodeOf(err) != game.Conflict {
			t.Fatalf("a timeout of another deadline: %v", err)
		}
		s, evs = timeOut(t, s)
		p := evs[0].Event.(FightersPlaced)
		if p.Cells[0] != (Placement{Seat: 0, Cell: "a1"}) {
			t.Fatalf("seed %d: seat 0's own choice became %+v", seed, p.Cells[0])
		}
		taken := map[string]int{}
		for _, c := range p.Cells {
			cell, _ := ground.ParseCell(c.Cell)
			if side, ok := ground.ZoneOf(cell); !ok || int(side) != s.Teams[c.Seat] || !ground.Free(cell) || (c.Seat != 0) != c.Auto {
				t.Fatalf("seed %d: seat %d placed on %+v, outside its zone's free cells", seed, c.Seat, c)
			}
			taken[c.Cell]++
		}
		if len(taken) != 4 {
			t.Fatalf("seed %d: two fighters on one cell: %+v", seed, p.Cells)
		}
		drawnFor2[p.Cells[2].Cell] = true
		// Recorded, and drawn again by the audit from the seed: another cell is refused.
		if err := (Rules{}).Audit(before, p); err != nil {
			t.Fatalf("seed %d: the audit refuses the game's own placement: %v", seed, err)
		}
		forged := p
		forged.Cells = slices.Clone(p.Cells)
		forged.Cells[2].Cell = map[bool]string{true: "a2", false: "b1"}[p.Cells[2].Cell == "b1"]
		if (Rules{}).Audit(before, forged) == nil {
			t.Fatalf("seed %d: the audit takes seat 2 on %s, which the seed did not draw", seed, forged.Cells[2].Cell)
		}
		if s.Phase != PhaseAuction || !s.Deadline.Equal(after(35).Add(BidTime)) {
			t.Fatalf("seed %d: after the placement: phase %s until %s", seed, s.Phase, s.Deadline)
		}
	}
	if !drawnFor2["a2"] || !drawnFor2["b1"] || drawnFor2["a1"] {
		t.Fatalf("over 40 seeds seat 2 was placed on %v: want b1 and a2, never a1", drawnFor2)
	}
}

// The auction: the other side has 5 s; each overbid restarts the other side's 5 s (a
// timeout of the deadline it replaced is refused); a bid that comes once the 5 s are over
// is too late; at the deadline the last bidder plays first and alone pays.
func TestTheAuctionClosesByTimeoutAfterABid(t *testing.T) {
	s := placed(t, 500, 500) // revealed at noon
	d := s.Auction.Designated
	o := 1 - d
	if !s.Deadline.Equal(after(5)) || !slices.Equal((Rules{}).Status(s).ToAct, []int{o}) {
		t.Fatalf("the auction opens until %s for %v", s.Deadline, (Rules{}).Status(s).ToAct)
	}
	s, _, err := decideAt(t, s, o, after(3), Bid{}) // 100, d now has until 8 s
	if err != nil {
		t.Fatal(err)
	}
	if !s.Deadline.Equal(after(8)) || !slices.Equal((Rules{}).Status(s).ToAct, []int{d}) {
		t.Fatalf("after the bid at 3 s: until %s for %v", s.Deadline, (Rules{}).Status(s).ToAct)
	}
	if _, _, err := decideAt(t, s, game.System, after(5), game.Timeout{Deadline: after(5)}); game.CodeOf(err) != game.Conflict {
		t.Fatalf("the first deadline, replaced by the overbid, still times out: %v", err)
	}
	if _, _, err := decideAt(t, s, o, after(4), Bid{}); game.CodeOf(err) != game.NotYourTurn {
		t.Fatalf("a side overbids itself: %v", err)
	}
	s, _, err = decideAt(t, s, d, after(7), Bid{}) // 200, o now has until 12 s
	if err != nil {
		t.Fatal(err)
	}
	if !s.Deadline.Equal(after(12)) || s.Auction.Price != 200 {
		t.Fatalf("after the overbid at 7 s: until %s at %d", s.Deadline, s.Auction.Price)
	}
	_, _, err = decideAt(t, s, o, after(12), Bid{}) // the 5 s are over; the timer has not rung yet
	if game.CodeOf(err) != game.NotYourTurn || !strings.Contains(err.Error(), "has passed") {
		t.Fatalf("an overbid at the deadline: %v", err)
	}
	s, evs := timeOut(t, s)
	if c := evs[0].Event.(AuctionClosed); c != (AuctionClosed{Team: s.Teams[d], Payer: d, Price: 200, Timeout: true}) {
		t.Fatalf("closed by the timeout: %+v", c)
	}
	if got := (Rules{}).Charged(s); got[d] != 200 || got[o] != 0 {
		t.Fatalf("charged %v: the last bidder alone pays", got)
	}
	if s.Actor != d || !s.Deadline.Equal(after(12).Add(TurnTime)) {
		t.Fatalf("the first turn is fighter %d's until %s", s.Actor, s.Deadline)
	}
}

// Nobody bids in the 5 s: the designated side plays first, and nobody pays.
func TestNoBidIsAFreeFirstTurn(t *testing.T) {
	s := placed(t, 500, 500)
	s, evs := timeOut(t, s)
	if c := evs[0].Event.(AuctionClosed); c != (AuctionClosed{Team: s.Auction.Designated, Payer: -1, Timeout: true}) {
		t.Fatalf("closed %+v", c)
	}
	if got := (Rules{}).Charged(s); got[0] != 0 || got[1] != 0 {
		t.Fatalf("charged %v", got)
	}
	if f := s.acting(); f == nil || f.Team != s.Auction.Designated || !s.Deadline.Equal(after(5).Add(TurnTime)) {
		t.Fatalf("the first turn: fighter %d until %s", s.Actor, s.Deadline)
	}
}

// A turn lasts 40 s; then it passes as it stands: the Guerrier that walked two cells and
// kept 4 MP and its 12 AP does nothing more, and the Arcaniste's turn starts for 40 s. An
// action of the Guerrier at the deadline is too late; one of the Arcaniste before the
// timer rang is decided in the turn the timeout gives it.
func TestATurnPassesAsItStands(t *testing.T) {
	s := position(t, `
		1.....
		......
		....2.
	`) // seat 0 to act until 40 s
	s, _, err := decideAt(t, s, 0, after(10), MoveFighter{Path: []string{"b1", "c1"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := decideAt(t, s, 0, after(40), MoveFighter{Path: []string{"d1"}}); game.CodeOf(err) != game.NotYourTurn {
		t.Fatalf("a step at the deadline: %v", err)
	}
	stood := s.Fighters
	timedOut, evs := timeOut(t, s)
	if evs[0].Event != (TurnEnded{Fighter: 0, Timeout: true}) {
		t.Fatalf("the timeout: %+v", evs)
	}
	ts := events[TurnStarted](evs)
	if len(ts) != 1 || ts[0] != (TurnStarted{Fighter: 1, Turn: 1, AP: 14, MP: 6, Deadline: after(80)}) {
		t.Fatalf("the next turn: %+v", ts)
	}
	if g := timedOut.Fighters[0]; g.Cell.String() != "c1" || g.HP != stood[0].HP || g.AP != 12 || g.MP != 4 {
		t.Fatalf("the Guerrier after its time: %s HP %d AP %d MP %d", g.Cell, g.HP, g.AP, g.MP)
	}
	if a := timedOut.Fighters[1]; a.Cell != stood[1].Cell || a.HP != stood[1].HP {
		t.Fatalf("the timeout touched the Arcaniste: %+v", a)
	}
	// The Arcaniste steps at 45 s, before the scheduler's timeout came: the timeout is
	// recorded first, and its own 40 s run from 45 s.
	late, evs, err := decideAt(t, s, 1, after(45), MoveFighter{Path: []string{"e2"}})
	if err != nil {
		t.Fatal(err)
	}
	if evs[0].Event != (TurnEnded{Fighter: 0, Timeout: true}) || len(events[FighterMoved](evs)) != 1 || !late.Deadline.Equal(after(85)) {
		t.Fatalf("a step of the next side after the deadline: %+v until %s", evs, late.Deadline)
	}
}

// The Élémentaire de flamme's turn lasts 10 s; then the Guerrier's turn of the next round
// starts, with its 40 s and new bonuses.
func TestASummonsTurnLastsTenSeconds(t *testing.T) {
	s := arcaniste(position(t, `
		1.....
		....2.
	`))
	s, _, err := decideAt(t, s, 1, after(5), CastSpell{Spell: "elementaire-de-flamme", Cell: "e1"})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err = decideAt(t, s, 1, after(20), EndTurn{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Actor != 2 || !s.Deadline.Equal(after(20).Add(SummonTime)) || SummonTime != 10*time.Second {
		t.Fatalf("the summon's turn: fighter %d until %s", s.Actor, s.Deadline)
	}
	s, evs := timeOut(t, s)
	if evs[0].Event != (TurnEnded{Fighter: 2, Timeout: true}) || len(events[BonusesSpawned](evs)) != 1 {
		t.Fatalf("the summon's timeout: %+v", evs)
	}
	if s.Actor != 0 || s.Turn != 2 || !s.Deadline.Equal(after(30).Add(TurnTime)) {
		t.Fatalf("after the summon's 10 s: fighter %d, round %d, until %s", s.Actor, s.Turn, s.Deadline)
	}
}
