package solwaris

import (
	"errors"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// A walk costs one MP a step, never passes through a fighter or an obstacle, and picks up
// the bonus it goes over.
func TestWalk(t *testing.T) {
	s := position(t, `
		1.+..
		.##..
		....2
	`)
	refused(t, s, 0, MoveFighter{Path: []string{"a2", "b2"}}, game.IllegalMove) // an obstacle
	refused(t, s, 0, MoveFighter{Path: []string{"c1"}}, game.IllegalMove)       // not adjacent
	refused(t, s, 1, MoveFighter{Path: []string{"d3"}}, game.NotYourTurn)
	s, evs := act(t, s, 0, MoveFighter{Path: []string{"b1", "c1", "d1"}})
	if f := s.Fighters[0]; f.Cell.String() != "d1" || f.MP != 3 || f.AP != 14 {
		t.Fatalf("after the walk: %s, %d MP, %d AP (the bonus gives 2)", f.Cell, f.MP, f.AP)
	}
	if len(evs) != 2 || evs[1].Event != (BonusTaken{Fighter: 0, Kind: "ap", Cell: "c1"}) {
		t.Fatalf("events %+v", evs)
	}
	refused(t, s, 0, MoveFighter{Path: []string{"e1", "e2", "e3"}}, game.IllegalMove)       // onto the Arcaniste
	refused(t, s, 0, MoveFighter{Path: []string{"e1", "e2", "d2", "d3"}}, game.IllegalMove) // 4 steps, 3 MP
}

// A path longer than any walk (more steps than a fighter ever has MP) is refused as bad
// input before any of its cells is read: a million steps or a hundred and one names
// that are no cells alike, naming the limit, with no event. A path of MaxPathSteps steps
// is read, and refused for the MP it costs.
func TestPathLongerThanAnyWalk(t *testing.T) {
	s := position(t, `
		1....
		.....
		....2
	`)
	huge := make([]string, 1_000_000)
	for i := range huge {
		huge[i] = []string{"b1", "a1"}[i%2]
	}
	junk := make([]string, MaxPathSteps+1)
	for i := range junk {
		junk[i] = strings.Repeat("?", 1000)
	}
	for name, path := range map[string][]string{"a million steps": huge, "101 names that are no cells": junk} {
		evs, err := (Rules{}).Decide(s, game.Action{Seat: 0, At: noon, Do: MoveFighter{Path: path}})
		if game.CodeOf(err) != game.BadInput || !errors.Is(err, ErrPathTooLong) || !strings.Contains(err.Error(), "at most 100") || len(evs) != 0 {
			t.Fatalf("%s: %v, %d events; want bad input by ErrPathTooLong naming the 100", name, err, len(evs))
		}
	}
	_, err := (Rules{}).Decide(s, game.Action{Seat: 0, At: noon, Do: MoveFighter{Path: huge[:MaxPathSteps]}})
	if game.CodeOf(err) != game.IllegalMove || errors.Is(err, ErrPathTooLong) {
		t.Fatalf("a path of %d steps: %v, want refused for its MP", MaxPathSteps, err)
	}
}

// A trap of the other team is not in its view, nor are its reachable cells computed
// around it; walking into its zone triggers it and ends the walk there.
func TestTrapEndsTheWalk(t *testing.T) {
	s := position(t, `
		1.^..
		.....
		....2
	`)
	v := (Rules{}).View(s, game.Viewpoint{Seats: []int{0}, Teams: []int{0}}).(*View)
	if len(v.Traps) != 0 {
		t.Fatalf("seat 0 sees %+v", v.Traps)
	}
	reach := map[string]int{}
	for _, r := range v.Reachable {
		reach[r.Cell] = r.Cost
	}
	if reach["d1"] != 3 || reach["e1"] != 4 {
		t.Fatalf("reachable %v", reach)
	}
	if w := (Rules{}).View(s, game.Viewpoint{Seats: []int{1}, Teams: []int{1}}).(*View); len(w.Traps) != 1 || w.Traps[0].Cell != "c1" {
		t.Fatalf("seat 1 sees its trap as %+v", w.Traps)
	}
	s, evs := act(t, s, 0, MoveFighter{Path: []string{"b1", "c1", "d1"}})
	if f := s.Fighters[0]; f.Cell.String() != "c1" || f.MP != 0 {
		t.Fatalf("the walk ends on the trap: %s with %d MP", f.Cell, f.MP)
	}
	if evs[1].Event != (TrapTriggered{Trap: "trap-c1", Fighter: 0, Cell: "c1"}) {
		t.Fatalf("events %+v", evs)
	}
	if v := (Rules{}).View(s, game.Viewpoint{Seats: []int{0}, Teams: []int{0}}).(*View); len(v.Traps) != 1 {
		t.Fatalf("a sprung trap is shown to all: %+v", v.Traps)
	}
}

// The turn passes to the other side by endTurn or at the deadline; after 40 rounds the
// fight is drawn, unless staked, where the larger share of HP wins.
func TestTurnsAndTheFortiethRound(t *testing.T) {
	s := position(t, `
		1...
		...2
	`)
	s, _ = act(t, s, 0, EndTurn{})
	if s.Actor != 1 || s.Turn != 1 || s.Fighters[1].AP != 14 {
		t.Fatalf("after seat 0's turn: actor %d turn %d", s.Actor, s.Turn)
	}
	evs, err := (Rules{}).Decide(s, game.Action{Seat: game.System, At: s.Deadline, Do: game.Timeout{Deadline: s.Deadline}})
	if err != nil {
		t.Fatal(err)
	}
	s = fold(t, s, evs)
	if s.Actor != 0 || s.Turn != 2 {
		t.Fatalf("after the timeout: actor %d turn %d", s.Actor, s.Turn)
	}
	s.Turn = MaxTurns
	s.Actor = 1
	s.Fighters[0].HP = 300 // half of 600
	s.Fighters[1].HP = 400 // more than half of 460
	_, evs = act(t, s, 1, EndTurn{})
	if e := evs[len(evs)-1].Event.(FightEnded); len(e.Winners) != 0 {
		t.Fatalf("an unstaked fight after 40 rounds: %+v", e)
	}
	s.Stake = 200
	s, evs = act(t, s, 1, EndTurn{})
	if e := evs[len(evs)-1].Event.(FightEnded); len(e.Winners) != 1 || e.Winners[0] != 1 {
		t.Fatalf("a staked fight after 40 rounds: %+v", e)
	}
	if st := (Rules{}).Status(s); !st.Over || st.Outcome.Winners[0] != 1 {
		t.Fatalf("status %+v", st)
	}
}
