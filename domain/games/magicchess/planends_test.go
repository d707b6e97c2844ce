package magicchess

import (
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

// planEndsSeen is the planning's end each viewpoint's view shows, failing unless all
// agree: it is public, the same to a seat, the others and a spectator.
func planEndsSeen(t *testing.T, st game.State, viewers []game.Viewpoint) *time.Time {
	t.Helper()
	var first *time.Time
	for i, p := range viewers {
		got := Rules{}.View(st, p).(*View).PlanEnds
		if i == 0 {
			first = got
			continue
		}
		if (got == nil) != (first == nil) || got != nil && !got.Equal(*first) {
			t.Fatalf("viewer %+v sees the planning end at %v, viewer %+v at %v", p, got, viewers[0], first)
		}
	}
	return first
}

// planAct decides a, each event passing the audit, and folds its events into s.
func planAct(t *testing.T, s State, a game.Action) State {
	t.Helper()
	r := Rules{}
	evs, err := r.Decide(s, a)
	if err != nil {
		t.Fatalf("%+v: %v", a, err)
	}
	var st game.State = s
	for _, e := range evs {
		if err := r.Audit(st, e.Event); err != nil {
			t.Fatalf("%+v: Audit refuses %T: %v", a, e.Event, err)
		}
		st = r.Evolve(st, e.Event)
	}
	return st.(State)
}

// The view shows the planning's deadline to everyone while the planning lasts (the
// option's minutes from the start), and nil once it has ended, early or at its deadline.
func TestTheViewShowsWhenThePlanningEnds(t *testing.T) {
	viewers := []game.Viewpoint{{}, {Seats: []int{0}, Teams: []int{0}}, {Seats: []int{1}, Teams: []int{1}}}
	for _, minutes := range []int{2, 3} {
		s, _ := setup(t, "plan", game.Options{OptionPlanning: string(rune('0' + minutes))})
		want := t0.Add(time.Duration(minutes) * time.Minute)
		if got := planEndsSeen(t, s, viewers); got == nil || !got.Equal(want) {
			t.Fatalf("planning %d: the view shows its end at %v, want %v", minutes, got, want)
		}
		one := planAct(t, s, game.Action{Seat: 1, At: t0.Add(time.Second), Do: game.Choose{Option: "ready"}})
		if got := planEndsSeen(t, one, viewers); got == nil || !got.Equal(want) {
			t.Fatalf("planning %d, one seat ready: the view shows its end at %v, want %v", minutes, got, want)
		}
		both := planAct(t, one, game.Action{Seat: 0, At: t0.Add(2 * time.Second), Do: game.Choose{Option: "ready"}})
		if phase := (Rules{}).Status(both).Phase; phase != Play {
			t.Fatalf("both ready: phase %s", phase)
		}
		if got := planEndsSeen(t, both, viewers); got != nil {
			t.Fatalf("planning %d ended early: the view still shows its end at %v", minutes, got)
		}
		late := planAct(t, s, game.Action{Seat: game.System, At: want, Do: game.Timeout{Deadline: want}})
		if got := planEndsSeen(t, late, viewers); got != nil {
			t.Fatalf("planning %d ended at its deadline: the view still shows it at %v", minutes, got)
		}
	}
}

// Doubles: one deadline for the four seats, the same in every viewer's view (each sees
// its own board), until the planning ends.
func TestTheDoublesViewShowsWhenThePlanningEnds(t *testing.T) {
	r := Rules{}
	tb := setupDoubles(t, game.Options{OptionBoards: "2", OptionPlanning: "3"})
	viewers := []game.Viewpoint{{}}
	for seat := range DoublesSeats {
		viewers = append(viewers, game.Viewpoint{Seats: []int{seat}, Teams: []int{teamOf(seat)}})
	}
	want := t0.Add(3 * time.Minute)
	for seat := range DoublesSeats - 1 {
		if got := planEndsSeen(t, tb, viewers); got == nil || !got.Equal(want) {
			t.Fatalf("%d seats ready: the view shows the planning's end at %v, want %v", seat, got, want)
		}
		tb, _ = dact(t, tb, seat, t0.Add(time.Second), game.Choose{Option: "ready"})
	}
	late := dtimeout(t, tb, want)
	if got := planEndsSeen(t, late, viewers); got != nil {
		t.Fatalf("the planning ended at its deadline: the view still shows it at %v", got)
	}
	early, _ := dact(t, tb, DoublesSeats-1, t0.Add(time.Second), game.Choose{Option: "ready"})
	if got := planEndsSeen(t, early, viewers); got != nil || r.Status(early).Phase == Planning {
		t.Fatalf("the four seats ready: the view still shows the planning's end at %v", got)
	}
}

// A match the engine ended in its planning (a rated match a seat resigned before moving is
// aborted; the engine's end is the match's, so the game's state is still in its planning)
// shows no deadline to anyone, on one board or at a doubles table: the viewpoint says the
// match is over.
func TestAMatchEndedInItsPlanningShowsNoDeadline(t *testing.T) {
	over := []game.Viewpoint{{Over: true}, {Seats: []int{0}, Teams: []int{0}, Over: true}, {Seats: []int{1}, Teams: []int{1}, Over: true}}
	s, _ := setup(t, "plan", game.Options{OptionPlanning: "2"})
	if got := planEndsSeen(t, s, over); got != nil {
		t.Fatalf("one board, the match over in its planning: the view shows its end at %v", got)
	}
	tb := setupDoubles(t, game.Options{OptionBoards: "2", OptionPlanning: "3"})
	over = []game.Viewpoint{{Over: true}}
	for seat := range DoublesSeats {
		over = append(over, game.Viewpoint{Seats: []int{seat}, Teams: []int{teamOf(seat)}, Over: true})
	}
	if got := planEndsSeen(t, tb, over); got != nil {
		t.Fatalf("doubles, the match over in its planning: the view shows its end at %v", got)
	}
}
