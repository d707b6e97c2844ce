package magicchess

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// The advanced mode (rules 14-21), as positions: a card laid is held through an R1
// window, a move that checks, captures, promotes, castles, allows en passant or mates
// opens R2, a pawn on its seventh rank R3; each reaction where it works and where it is
// refused; the clock stopped while a window is open; a window offered the same whatever
// the hand.

// sec is t0 plus n seconds.
func sec(n float64) time.Time { return t0.Add(time.Duration(n * float64(time.Second))) }

// adv is an advanced-mode table from fen with the given hands (the rest of the deck in
// the table's deck), reaction windows of 10 seconds, a clock clk ("" for none), the
// planning over at t0.
func adv(t testing.TB, fen string, hand0, hand1 []string, clk string) State {
	t.Helper()
	r := Rules{}
	deck := deckOf(Advanced)
	var setup *clock.Setup
	if clk != "" {
		c, err := clock.Parse(clk)
		if err != nil {
			t.Fatal(err)
		}
		setup = &c
	}
	var st game.State = r.Evolve(nil, GameStarted{FEN: fen, Mode: Advanced, HandSize: MaxHand, DeckSize: len(deck), PlanEnds: t0,
		Clock: setup, ReactionMs: DefaultReaction.Milliseconds()})
	for _, e := range []game.Event{DeckShuffled{Cards: deck}, CardsDealt{Seat: 0, Count: len(hand0), Cards: hand0},
		CardsDealt{Seat: 1, Count: len(hand1), Cards: hand1}, PlanningEnded{At: t0, Reason: "time"}} {
		st = r.Evolve(st, e)
	}
	return st.(State)
}

// step has seat do something at at: Decide, then each event audited against the state
// before it and folded. It returns the state after and the events.
func step(t *testing.T, s State, seat int, at time.Time, do any) (State, []game.Emitted) {
	t.Helper()
	r := Rules{}
	evs, err := r.Decide(s, game.Action{Seat: seat, At: at, Do: do})
	if err != nil {
		t.Fatalf("seat %d, %+v: %v", seat, do, err)
	}
	st := game.State(s)
	for _, e := range evs {
		if err := r.Audit(st, e.Event); err != nil {
			t.Fatalf("%+v: Audit refuses %T %+v: %v", do, e.Event, e.Event, err)
		}
		st = r.Evolve(st, e.Event)
	}
	return st.(State), evs
}

// refusedAt checks that seat's do at at is refused with code, and returns the reason.
func refusedAt(t *testing.T, s State, seat int, at time.Time, do any, code game.Code) string {
	t.Helper()
	_, err := Rules{}.Decide(s, game.Action{Seat: seat, At: at, Do: do})
	if game.CodeOf(err) != code {
		t.Fatalf("seat %d, %+v: got %v, want %s", seat, do, err, code)
	}
	return err.(*game.Error).Reason
}

// window is the window open in s, checked to be of kind for seat.
func window(t *testing.T, s State, kind string, seat int) *Window {
	t.Helper()
	w := s.Window
	if w == nil || w.Kind != kind || w.Seat != seat {
		t.Fatalf("window %+v, want %s for seat %d (%s)", w, kind, seat, s.FEN())
	}
	return w
}

// answering ends the reading time of the window open in s at its end.
func answering(t *testing.T, s State) State {
	t.Helper()
	if s.Window.Answering {
		return s
	}
	s, _ = step(t, s, game.System, s.Window.Answers, game.Timeout{Deadline: s.Window.Answers})
	return s
}

// passWindow has the seat of the window pass it, a second after its reading time.
func passWindow(t *testing.T, s State) (State, []game.Emitted) {
	t.Helper()
	s = answering(t, s)
	return step(t, s, s.Window.Seat, s.Window.Answers.Add(time.Second), game.Choose{Option: Pass})
}

// reacts has the seat of the window lay card on targets, a second after its reading time.
func reacts(t *testing.T, s State, card string, targets ...string) (State, []game.Emitted) {
	t.Helper()
	s = answering(t, s)
	return step(t, s, s.Window.Seat, s.Window.Answers.Add(time.Second), React{Card: card, Slot: -1, Targets: targets})
}

// refuseReaction checks that the seat of the window may not lay card on targets, and that
// the reason says want.
func refuseReaction(t *testing.T, s State, card string, targets []string, want string) {
	t.Helper()
	s = answering(t, s)
	why := refusedAt(t, s, s.Window.Seat, s.Window.Answers.Add(time.Second), React{Card: card, Slot: -1, Targets: targets}, game.IllegalMove)
	if !strings.Contains(why, want) {
		t.Fatalf("%s refused as %q, want it to say %q", card, why, want)
	}
	if hc := handCard(t, s, s.Window.Seat, card); hc.Playable && slices.ContainsFunc(hc.Targets, func(x []string) bool { return slices.Equal(x, targets) }) {
		t.Fatalf("%s on %v is refused but the hand lists it", card, targets)
	}
}

// played moves for the seat to act at at.
func played(t *testing.T, s State, at time.Time, uci string) State {
	t.Helper()
	s, _ = step(t, s, s.toAct(), at, game.Move{Notation: uci})
	return s
}

// laid lays a card of the seat to act at at.
func laid(t *testing.T, s State, at time.Time, card string, targets ...string) State {
	t.Helper()
	if targets == nil {
		targets = []string{}
	}
	s, _ = step(t, s, s.toAct(), at, cards.PlayCard{Card: card, Slot: -1, Targets: targets})
	return s
}

// result is the result of the held card in events.
func result(t *testing.T, evs []game.Emitted) string {
	t.Helper()
	for _, e := range evs {
		if r, ok := e.Event.(CardResolved); ok {
			return r.Result
		}
	}
	t.Fatalf("no card resolved in %v", evs)
	return ""
}

// The reactions' tests, where each works and where it is refused (cards_test.go's
// TestEveryCardIsTestedOrRefused runs them).
var reactionTests = map[string]cardTest{
	"counterspell": {
		works: func(t *testing.T) {
			s := adv(t, start, []string{"teleport"}, []string{"counterspell"}, "")
			s = laid(t, s, sec(1), "teleport", "b1", "e4")
			window(t, s, R1, 1)
			s, evs := reacts(t, s, "counterspell")
			if r := result(t, evs); r != Cancelled {
				t.Fatalf("teleport after a counterspell: %s", r)
			}
			expect(t, s, map[string]string{"b1": "N", "e4": ""})
			isTurnOf(t, s, 1) // the card was the turn, spent
		},
		refused: func(t *testing.T) {
			// Not after a move: R1 answers a card.
			s := adv(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", []string{"frost"}, []string{"counterspell"}, "")
			s = played(t, s, sec(1), "e4d5")
			window(t, s, R2, 1)
			refuseReaction(t, s, "counterspell", nil, "answers a card just laid")
		},
	},
	"ward": {
		works: func(t *testing.T) {
			s := adv(t, start, []string{"banish"}, []string{"ward"}, "")
			s = laid(t, s, sec(1), "banish", "e7")
			s, evs := reacts(t, s, "ward", "e7")
			if r := result(t, evs); r != Prevented {
				t.Fatalf("banish on a warded pawn: %s", r)
			}
			expect(t, s, map[string]string{"e7": "p"})
			isTurnOf(t, s, 1)
		},
		refused: func(t *testing.T) {
			s := adv(t, start, []string{"frost"}, []string{"ward"}, "")
			s = laid(t, s, sec(1), "frost")
			refuseReaction(t, s, "ward", []string{"e7"}, "not aimed at a piece of yours")
			if hc := handCard(t, answering(t, s), 1, "ward"); hc.Playable || !strings.Contains(hc.Reason, "not aimed at a piece of yours") {
				t.Fatalf("ward against frost: %+v", hc)
			}
		},
	},
	"deflect": {
		works: func(t *testing.T) {
			s := adv(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", []string{"frost"}, []string{"deflect"}, "")
			s = played(t, s, sec(1), "e4d5")
			w := window(t, s, R2, 1)
			if !slices.Equal(w.Triggers, []string{TriggerCapture}) {
				t.Fatalf("triggers %v", w.Triggers)
			}
			s, _ = reacts(t, s, "deflect", "d6")
			expect(t, s, map[string]string{"d5": "P", "d6": "p"})
			isTurnOf(t, s, 1) // Black still has its turn
		},
		refused: func(t *testing.T) {
			s := adv(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", []string{"frost"}, []string{"deflect"}, "")
			s = played(t, s, sec(1), "a1a8") // a check, no capture
			refuseReaction(t, s, "deflect", []string{"d8"}, "answers an enemy capture")
			// The pawn may not come back where it would check the king that took it.
			s = adv(t, "4k3/8/8/3p4/2K5/8/8/8 w - - 0 1", []string{"frost"}, []string{"deflect"}, "")
			s = played(t, s, sec(1), "c4d5")
			refuseReaction(t, s, "deflect", []string{"c6"}, "not one of the choices")
			if hc := handCard(t, answering(t, s), 1, "deflect"); slices.ContainsFunc(hc.Targets, func(x []string) bool { return x[0] == "c6" || x[0] == "e6" }) {
				t.Fatalf("deflect may check the king: %v", hc.Targets)
			}
		},
	},
	"last-stand": {
		works: func(t *testing.T) {
			s := adv(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", []string{"frost"}, []string{"last-stand"}, "")
			s = played(t, s, sec(1), "a1a8")
			window(t, s, R2, 1)
			s, _ = reacts(t, s, "last-stand", "e7")
			expect(t, s, map[string]string{"e7": "k", "e8": ""})
			isTurnOf(t, s, 1)
		},
		refused: func(t *testing.T) {
			s := adv(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", []string{"frost"}, []string{"last-stand"}, "")
			s = played(t, s, sec(1), "a1a8")
			refuseReaction(t, s, "last-stand", []string{"d8"}, "not one of the choices") // still on the rook's rank
		},
	},
	"miracle": {
		works: func(t *testing.T) {
			// Rh1-a1 mates the king on a5, walled in by its own pawns; a pawn appears on a4.
			s := adv(t, "8/8/pp6/kp6/8/2K5/8/7R w - - 0 1", []string{"frost"}, []string{"miracle"}, "")
			s = played(t, s, sec(1), "h1a1")
			if o, over := s.outcome(); over {
				t.Fatalf("the game ended (%s) before the window", o.Reason)
			}
			if w := window(t, s, R2, 1); !slices.Contains(w.Triggers, TriggerMate) {
				t.Fatalf("triggers %v, want mate", w.Triggers)
			}
			s, _ = reacts(t, s, "miracle", "a4")
			expect(t, s, map[string]string{"a4": "p"})
			isTurnOf(t, s, 1)
			if _, over := s.outcome(); over || s.kingAttacked(1) {
				t.Fatal("the miracle did not save the king")
			}
		},
		refused: func(t *testing.T) {
			s := adv(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", []string{"frost"}, []string{"miracle"}, "")
			s = played(t, s, sec(1), "a1a8") // a check, not a mate
			refuseReaction(t, s, "miracle", []string{"d8"}, "answers an enemy mate")
			// Passing lets the mate stand.
			s = adv(t, "8/8/pp6/kp6/8/2K5/8/7R w - - 0 1", []string{"frost"}, []string{"miracle"}, "")
			s = played(t, s, sec(1), "h1a1")
			refuseReaction(t, s, "miracle", []string{"a1"}, "not one of the choices")
			s, _ = passWindow(t, s)
			if o, over := s.outcome(); !over || o.Reason != "checkmate" || !slices.Equal(o.Winners, []int{0}) {
				t.Fatalf("after the pass: %+v", o)
			}
		},
	},
	"rewind": {
		works: func(t *testing.T) {
			s := adv(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", []string{"frost"}, []string{"rewind"}, "")
			s = played(t, s, sec(1), "e4d5")
			s, _ = reacts(t, s, "rewind")
			expect(t, s, map[string]string{"e4": "P", "d5": "p"})
			isTurnOf(t, s, 0) // White plays its turn again
			s = played(t, s, sec(20), "e4e5")
			isTurnOf(t, s, 1)
		},
		refused: func(t *testing.T) {
			s := adv(t, "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", []string{"teleport"}, []string{"rewind"}, "")
			s = laid(t, s, sec(1), "teleport", "d2", "d4")
			refuseReaction(t, s, "rewind", nil, "answers an R2 window")
		},
	},
	"setback": {
		works: func(t *testing.T) {
			s := adv(t, "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", []string{"frost"}, []string{"setback"}, "")
			s = played(t, s, sec(1), "d6d7")
			w := window(t, s, R2, 1) // d7 checks the king on e8: R2 and R3 at once
			if !slices.Equal(w.Triggers, []string{TriggerCheck, TriggerSeventh}) {
				t.Fatalf("triggers %v", w.Triggers)
			}
			s, _ = reacts(t, s, "setback")
			expect(t, s, map[string]string{"d7": "", "d6": "P"})
			isTurnOf(t, s, 1)
		},
		refused: func(t *testing.T) {
			s := adv(t, "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", []string{"frost"}, []string{"setback"}, "")
			s = played(t, s, sec(1), "d5d6") // the sixth rank: no window at all
			if s.Window != nil {
				t.Fatalf("a window after a quiet pawn move: %+v", s.Window)
			}
			s = adv(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", []string{"frost"}, []string{"setback"}, "")
			s = played(t, s, sec(1), "e4d5")
			refuseReaction(t, s, "setback", nil, "an enemy pawn reaching its seventh rank")
		},
	},
}

func init() {
	for id, c := range reactionTests {
		cardTests[id] = c
	}
}

// The advanced mode is chosen at creation: it deals all forty cards, takes the option
// reaction (its windows' length), which the classic mode refuses.
func TestAdvancedModeOptions(t *testing.T) {
	s, _ := setup(t, "seed-1", game.Options{"mode": Advanced})
	if s.Mode != Advanced || s.reaction != DefaultReaction || len(s.Deck)+len(s.Hands[0])+len(s.Hands[1]) != CardCount {
		t.Fatalf("advanced: mode %s, windows of %s, %d cards", s.Mode, s.reaction, len(s.Deck)+2*MaxHand)
	}
	s, _ = setup(t, "seed-1", game.Options{"mode": Advanced, "reaction": "3"})
	if s.reaction != 3*time.Second {
		t.Fatalf("reaction 3: windows of %s", s.reaction)
	}
	for _, bad := range []game.Options{{"reaction": "5"}, {"mode": Advanced, "reaction": "0"}, {"mode": Advanced, "reaction": "61"}, {"mode": Advanced, "reaction": "2.5"}} {
		if _, err := (Rules{}).Plan(bad); game.CodeOf(err) != game.BadInput {
			t.Errorf("options %v: %v, want BAD_USER_INPUT", bad, err)
		}
	}
}

// R1: a card laid is held face up; the opponent's window opens, with a reading time in
// which no answer is taken; the card resolves when the window closes, by a pass or at its
// deadline; nobody moves meanwhile.
func TestACardIsHeldThroughItsWindow(t *testing.T) {
	s := adv(t, start, []string{"teleport", "frost"}, []string{"wall"}, "")
	s, evs := step(t, s, 0, sec(1), cards.PlayCard{Card: "teleport", Slot: -1, Targets: []string{"b1", "e4"}})
	if len(evs) != 2 || evs[0].Event.(CardPlayed).Result != Held {
		t.Fatalf("the card laid: %+v", evs)
	}
	want := ReactionWindowOpened{Window: R1, Seat: 1, Triggers: []string{TriggerCard}, At: sec(1), Answers: sec(3), Closes: sec(11)}
	if !reflect.DeepEqual(evs[1].Event, want) {
		t.Fatalf("window %+v, want %+v", evs[1].Event, want)
	}
	expect(t, s, map[string]string{"b1": "N", "e4": ""}) // not yet resolved
	st := Rules{}.Status(s)
	if st.Phase != "reaction-R1" || len(st.ToAct) != 0 || !st.Deadline.Equal(sec(3)) || len(st.Choices) != 0 {
		t.Fatalf("status in the reading time: %+v", st)
	}
	refusedAt(t, s, 1, sec(2), game.Choose{Option: Pass}, game.NotYourTurn) // reading time
	refusedAt(t, s, 0, sec(2), game.Move{Notation: "e2e4"}, game.NotYourTurn)
	refusedAt(t, s, game.System, sec(2), game.Timeout{Deadline: sec(3)}, game.Conflict)
	s = answering(t, s)
	if st := (Rules{}).Status(s); !st.Deadline.Equal(sec(11)) || !slices.Equal(st.Choices, []string{Pass}) || !slices.Equal(st.ToAct, []int{1}) {
		t.Fatalf("status once answering: %+v", st)
	}
	refusedAt(t, s, 1, sec(4), game.Move{Notation: "e7e5"}, game.IllegalMove)
	refusedAt(t, s, 1, sec(4), React{Card: "wall", Slot: -1, Targets: []string{"e5"}}, game.IllegalMove)
	// Lapsed: the window closes at its deadline, and the card resolves.
	lapsed, evs := step(t, s, game.System, sec(11), game.Timeout{Deadline: sec(11)})
	if p := evs[0].Event.(ReactionPassed); !p.TimedOut || !p.At.Equal(sec(11)) || result(t, evs) != Resolved {
		t.Fatalf("the window lapsed: %+v", evs)
	}
	expect(t, lapsed, map[string]string{"b1": "", "e4": "N"})
	isTurnOf(t, lapsed, 1)
	// A move sent after the deadline, before its timeout: the window lapses first.
	late, evs := step(t, s, 1, sec(12), game.Move{Notation: "e7e5"})
	if len(evs) != 3 || !evs[0].Event.(ReactionPassed).TimedOut {
		t.Fatalf("a late move: %+v", evs)
	}
	expect(t, late, map[string]string{"e4": "N", "e5": "p"})
	// Passed: at once.
	passed, _ := passWindow(t, s)
	expect(t, passed, map[string]string{"e4": "N"})
	if passed.Window != nil || passed.Held != nil {
		t.Fatal("the window stays open after a pass")
	}
	// No window when the opponent has no card: everyone sees its hand is empty.
	s = adv(t, start, []string{"teleport"}, nil, "")
	s, evs = step(t, s, 0, sec(1), cards.PlayCard{Card: "teleport", Slot: -1, Targets: []string{"b1", "e4"}})
	if len(evs) != 1 || evs[0].Event.(CardPlayed).Result != Resolved || s.Window != nil {
		t.Fatalf("a card against an empty hand: %+v", evs)
	}
}

// R2 and R3: the triggers of a move, each as a position.
func TestMovesThatOpenAWindow(t *testing.T) {
	for _, c := range []struct {
		fen, move string
		kind      string // "" for no window
		triggers  []string
	}{
		{start, "e2e4", "", nil},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", R2, []string{TriggerCheck}},
		{"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", R2, []string{TriggerCapture}},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", R2, []string{TriggerCheck, TriggerPromotion}},
		{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", R2, []string{TriggerCastling}},
		{"4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e4", R2, []string{TriggerEnPassant}},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", R2, []string{TriggerCapture}}, // en passant: the pawn taken stood on d5
		{"k7/pp6/8/8/8/8/8/K3R3 w - - 0 1", "e1e8", R2, []string{TriggerCheck, TriggerMate}},
		{"4k3/8/8/8/8/8/1p6/4K3 b - - 0 1", "b2b1n", R2, []string{TriggerPromotion}},
		{"k7/8/2P5/8/8/8/8/4K3 w - - 0 1", "c6c7", R3, []string{TriggerSeventh}},
	} {
		s := adv(t, c.fen, []string{"frost"}, []string{"frost"}, "")
		s = played(t, s, sec(1), c.move)
		switch {
		case c.kind == "" && s.Window != nil:
			t.Errorf("%s %s opens %+v", c.fen, c.move, s.Window)
		case c.kind == "":
		case s.Window == nil || s.Window.Kind != c.kind || !slices.Equal(s.Window.Triggers, c.triggers):
			t.Errorf("%s %s opens %+v, want %s %v", c.fen, c.move, s.Window, c.kind, c.triggers)
		case c.move == "e5d6" && s.Window.move.on.String() != "d5":
			t.Errorf("en passant: the pawn taken stood on %s, want d5", s.Window.move.on)
		}
	}
}

// Rule 20: no clock runs while a window is open. A card that is the turn uses its
// player's time up to the moment it is laid; the opponent's clock starts when the window
// closes; a rewound move gives its player back the time it had, less nothing of the
// window.
func TestTheClockStopsWhileAWindowIsOpen(t *testing.T) {
	s := adv(t, start, []string{"teleport"}, []string{"rewind", "wall"}, "1+2")
	s = laid(t, s, sec(5), "teleport", "b1", "e4") // White thought 5 s
	if c := (Rules{}).Clock(s); !c.Paused {
		t.Fatal("the clock shows as running in a window")
	}
	if r, _ := (Rules{}).Clock(s).Read(Rules{}.Status(s)); r.Running != -1 {
		t.Fatalf("a clock runs in a window: %+v", r)
	}
	s, evs := passWindow(t, s) // closes at 5+2+1 = 8 s
	res := evs[len(evs)-1].Event.(CardResolved)
	if res.LeftMs != 60_000-5_000+2_000 || !res.At.Equal(sec(8)) {
		t.Fatalf("White's clock after the card: %d ms at %s", res.LeftMs, res.At)
	}
	if d := s.Clock.Deadline(1); !d.Equal(sec(68)) {
		t.Fatalf("Black's deadline %s, want a minute after the window closed", d)
	}
	s = played(t, s, sec(12), "e7e5") // Black thought 4 s
	if got := s.Clock.Left[1]; got != 58*time.Second {
		t.Fatalf("Black's clock: %s", got)
	}
	// White checks after 3 s; Black rewinds it: White's clock is back where it was.
	s = adv(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", []string{"frost"}, []string{"rewind"}, "1+2")
	s = played(t, s, sec(3), "a1a8")
	s, _ = reacts(t, s, "rewind") // at 3+2+1 = 6 s
	if got := s.Clock.Deadline(0); !got.Equal(sec(6 + 57)) {
		t.Fatalf("White's deadline after the rewind %s, want 57 s after the window closed", got)
	}
	if s.Clock.Left[0] != time.Minute {
		t.Fatalf("White's clock after the rewind: %s left, want a minute (the move and its increment undone)", s.Clock.Left[0])
	}
}

// Rule 19: the action, the reaction, the king's legality. A mate save countered leaves
// its player in check: the player keeps the turn to answer it, and may lay another card.
func TestACounteredSaveKeepsTheTurn(t *testing.T) {
	s := adv(t, rookCheck, []string{"escape", "interpose"}, []string{"counterspell"}, "")
	s = laid(t, s, sec(1), "escape", "e1", "c3")
	s, evs := reacts(t, s, "counterspell")
	if result(t, evs) != Cancelled {
		t.Fatal("the escape was not cancelled")
	}
	isTurnOf(t, s, 0)
	if !s.kingAttacked(0) || s.Turn.Card != "" {
		t.Fatalf("after the counterspell: check %v, card of the turn %q", s.kingAttacked(0), s.Turn.Card)
	}
	s = laid(t, s, sec(20), "interpose", "d2", "e4") // Black's hand is empty: no window
	expect(t, s, map[string]string{"e4": "P"})
	isTurnOf(t, s, 1)
}

// A card that a move follows waits for its window, then its move; a card sent with its
// move is refused in the advanced mode.
func TestAMovementCardWaitsForItsWindow(t *testing.T) {
	s := adv(t, start, []string{"knight-leap"}, []string{"wall"}, "")
	refusedAt(t, s, 0, sec(1), cards.PlayCard{Card: "knight-leap", Slot: -1, Targets: []string{"c1"}, Move: "c1d3"}, game.BadInput)
	s = laid(t, s, sec(1), "knight-leap", "c1")
	s, evs := passWindow(t, s)
	if result(t, evs) != Pending {
		t.Fatalf("knight-leap resolved as %s", result(t, evs))
	}
	isTurnOf(t, s, 0)
	s = played(t, s, sec(5), "c1d3")
	expect(t, s, map[string]string{"d3": "B"})
}

// No leak: the window is offered the same whatever the hand of the seat that may react:
// a hand of reactions, a hand of none. The public events, the status and what the other
// seat sees are the same, to the last field; only the hand's own holder sees it differ.
func TestTheWindowIsOfferedWhateverTheHand(t *testing.T) {
	type seen struct {
		events []game.Event
		status game.Status
		view   any
	}
	look := func(hand1 []string) seen {
		s := adv(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", []string{"frost", "wall"}, hand1, "5+0")
		var out seen
		s, evs := step(t, s, 0, sec(2), cards.PlayCard{Card: "frost", Slot: -1, Targets: []string{}})
		s2, evs2 := passWindow(t, s)
		s3, evs3 := step(t, s2, 1, sec(20), game.Move{Notation: "e8d7"})
		for _, e := range slices.Concat(evs, evs2, evs3) {
			if e.Visibility != (Rules{}).Sight(e.Event) {
				t.Fatalf("%T has visibility %v", e.Event, e.Visibility)
			}
			out.events = append(out.events, e.Event)
		}
		s4 := played(t, s3, sec(21), "e4d5") // a capture: R2
		out.status = Rules{}.Status(s4)
		v := (Rules{}).View(s4, game.Viewpoint{Seats: []int{0}}).(*View)
		v.hand = nil
		out.view = *v
		return out
	}
	a, b := look([]string{"counterspell", "rewind"}), look([]string{"teleport", "swap"})
	if !reflect.DeepEqual(a.events, b.events) {
		t.Fatalf("the events differ with the hand:\n%+v\n%+v", a.events, b.events)
	}
	if !reflect.DeepEqual(a.status, b.status) || a.status.Phase != "reaction-R2" {
		t.Fatalf("the status differs with the hand, or is no window: %+v / %+v", a.status, b.status)
	}
	if !reflect.DeepEqual(a.view, b.view) {
		t.Fatalf("White's view differs with Black's hand:\n%+v\n%+v", a.view, b.view)
	}
}

// Rule 8 in the advanced mode: an Echo laid on an Echo is held through its window like
// any card, then annulled as it resolves; its player keeps the turn, and the audit
// re-derives both the resolution and the annulment.
func TestALoopIsAnnulledAfterItsWindow(t *testing.T) {
	s := adv(t, start, []string{"wall", "echo", "frost"}, []string{"echo", "swamp"}, "")
	s = laid(t, s, sec(1), "wall", "e5")
	s, _ = passWindow(t, s)
	s = laid(t, s, sec(20), "echo") // Black's echo repeats the wall, for Black
	s, _ = passWindow(t, s)
	before := s.FEN()
	s = laid(t, s, sec(40), "echo")
	s, evs := passWindow(t, s)
	if result(t, evs) != Annulled {
		t.Fatalf("echo on echo resolved as %s", result(t, evs))
	}
	if _, ok := evs[len(evs)-1].Event.(CardAnnulled); !ok {
		t.Fatalf("no annulment recorded: %+v", evs)
	}
	if s.FEN() != before || s.toAct() != 0 || s.Record[len(s.Record)-1] != "[echo] annulled" {
		t.Fatalf("after the annulment: %s, seat %d to act, record %v", s.FEN(), s.toAct(), s.Record)
	}
	played(t, s, sec(60), "d2d4") // White still plays its turn
}

// Seeded random advanced matches: each seat chooses among the plays its own view lists,
// reacts when it may two times in three, and lets time pass for the reading times and
// now and then for a lapse. After every action each event passes the audit, both kings
// stand, the side not to move is never in check, and the position can be evaluated
// (chess.Position.Validate). Holds for every seed.
func TestRandomAdvancedMatchesKeepRuleOne(t *testing.T) {
	r := Rules{}
	reactions := 0
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 17))
		s, _ := setup(t, fmt.Sprint("advanced ", seed), game.Options{"mode": Advanced, "clock": "off", "hand": "10"})
		s = r.Evolve(s, PlanningEnded{At: t0, Reason: "time"}).(State)
		now := t0
		for n := 0; n < 300 && !r.Status(s).Over; n++ {
			now = now.Add(time.Second)
			st := r.Status(s)
			if len(st.ToAct) == 0 || rng.IntN(40) == 0 && !st.Deadline.IsZero() {
				if st.Deadline.IsZero() {
					t.Fatalf("nobody to act and no deadline: %+v", st)
				}
				now = st.Deadline
				s, _ = step(t, s, game.System, now, game.Timeout{Deadline: st.Deadline})
				continue
			}
			seat := st.ToAct[0]
			p := randomPlay(t, rng, s, seat)
			if _, ok := p.Do.(React); ok {
				reactions++
			}
			s, _ = step(t, s, seat, now, p.Do)
			for _, c := range []chess.Color{chess.White, chess.Black} {
				if _, ok := s.Pos.KingSquare(c); !ok {
					t.Fatalf("seed %d: after %+v a king is gone", seed, p.Do)
				}
			}
			if err := s.Pos.Validate(); err != nil {
				t.Fatalf("seed %d: after %+v a position the rules cannot evaluate: %v (%s)", seed, p.Do, err, s.FEN())
			}
			if s.kingAttacked(1 - s.toAct()) {
				t.Fatalf("seed %d: after %+v the side not to move is in check (%s)", seed, p.Do, s.FEN())
			}
		}
	}
	if reactions == 0 {
		t.Fatal("no reaction in ten random matches")
	}
	t.Logf("%d reactions laid", reactions)
}

// The audit (arbiter verify) refuses a stream of the advanced mode that the rules would
// not record: a window left out, a pass in the reading time, a reaction the window does
// not allow, a held card resolved otherwise than the rules resolve it.
func TestTheAuditRefusesForgedWindows(t *testing.T) {
	r := Rules{}
	capture := adv(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", []string{"frost"}, []string{"counterspell", "swamp"}, "")
	_, evs := step(t, capture, 0, sec(1), game.Move{Notation: "e4d5"})
	moved := r.Evolve(capture, evs[0].Event).(State) // the window is due, not opened
	if err := r.Audit(moved, MovePlayed{Seat: 1, UCI: "e8e7", SAN: "Ke7", FEN: "x"}); err == nil {
		t.Error("a move recorded where a window was due")
	}
	if err := r.Audit(moved, ReactionWindowOpened{Window: R2, Seat: 1, Triggers: []string{TriggerCheck}, At: sec(1), Answers: sec(3), Closes: sec(11)}); err == nil {
		t.Error("a window with triggers the move did not have")
	}
	open := r.Evolve(moved, evs[1].Event).(State)
	if err := r.Audit(open, ReactionPassed{Seat: 1, At: sec(2)}); err == nil {
		t.Error("a pass in the reading time")
	}
	answer := r.Evolve(open, ReactionReadingEnded{Seat: 1, At: sec(3)}).(State)
	if err := r.Audit(answer, ReactionPlayed{Seat: 1, Card: "counterspell", Slot: 0, Targets: []string{}, Result: Resolved, FEN: answer.FEN(), At: sec(4)}); err == nil {
		t.Error("a counterspell after a move")
	}
	if err := r.Audit(answer, ReactionPassed{Seat: 1, At: sec(5), TimedOut: true}); err == nil {
		t.Error("a lapse before the deadline")
	}
	card := adv(t, start, []string{"banish"}, []string{"swamp"}, "")
	card = laid(t, card, sec(1), "banish", "e7")
	card = answering(t, card)
	_, evs = step(t, card, 1, sec(4), game.Choose{Option: Pass})
	closed := r.Evolve(card, evs[0].Event).(State)
	forged := evs[1].Event.(CardResolved)
	forged.Result, forged.FEN = Cancelled, card.FEN()
	if err := r.Audit(closed, forged); err == nil {
		t.Error("a held card recorded as cancelled though nobody reacted")
	}
}

// Between two events of one command (a move whose window is not open yet, a window closed
// whose card has not resolved) the read side may show the state for a moment: nobody is
// to act in it, no move is listed, and it is not settled (matchUpdates waits for the next).
func TestAStateBetweenTwoEventsLetsNobodyAct(t *testing.T) {
	r := Rules{}
	s := adv(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", []string{"banish"}, []string{"swamp"}, "")
	_, evs := step(t, s, 0, sec(1), game.Move{Notation: "e4d5"})
	mid := r.Evolve(s, evs[0].Event).(State)
	held := adv(t, start, []string{"banish"}, []string{"swamp"}, "")
	held = answering(t, laid(t, held, sec(1), "banish", "e7"))
	_, evs2 := step(t, held, 1, sec(4), game.Choose{Option: Pass})
	closed := r.Evolve(held, evs2[0].Event).(State)
	for name, st := range map[string]State{"a window due": mid, "a window closed": closed} {
		status := r.Status(st)
		if len(status.ToAct) != 0 || len(r.Board(st).LegalMoves) != 0 || r.Settled(st) || len(r.View(st, game.Viewpoint{Seats: []int{0}}).Plays()) != 0 {
			t.Errorf("%s: %+v, moves %v, settled %v", name, status, r.Board(st).LegalMoves, r.Settled(st))
		}
	}
	if !r.Settled(r.Evolve(mid, evs[1].Event)) {
		t.Error("the window open is not settled")
	}
}

// Rule 18: at most one reaction per window, and no chains. For each of the seven
// reactions, laid where it works by a seat that holds a second reaction, against a player
// who holds one too: the reaction closes the window (an R1 card resolves in the same
// command), its events open none and none is due; a second reaction of the same seat,
// sent before the first window's deadline, is refused as out of any window and changes
// nothing, and so is one of the other seat; the audit refuses a window forged right after
// the reaction, before and after an R1 card's resolution.
func TestOneReactionPerWindowAndNoChains(t *testing.T) {
	r := Rules{}
	for _, c := range []struct {
		card, fen string
		hand1     []string // the reaction first, then the second one tried
		act       func(s State) State
		targets   []string
		second    []string // the second reaction's targets, as it would be aimed
	}{
		{"counterspell", start, []string{"counterspell", "ward"},
			func(s State) State { return laid(t, s, sec(1), "teleport", "b1", "e4") }, nil, []string{"e7"}},
		{"ward", start, []string{"ward", "counterspell"},
			func(s State) State { return laid(t, s, sec(1), "banish", "e7") }, []string{"e7"}, nil},
		{"deflect", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", []string{"deflect", "rewind"},
			func(s State) State { return played(t, s, sec(1), "e4d5") }, []string{"d6"}, nil},
		{"last-stand", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", []string{"last-stand", "rewind"},
			func(s State) State { return played(t, s, sec(1), "a1a8") }, []string{"e7"}, nil},
		{"miracle", "8/8/pp6/kp6/8/2K5/8/7R w - - 0 1", []string{"miracle", "rewind"},
			func(s State) State { return played(t, s, sec(1), "h1a1") }, []string{"a4"}, nil},
		{"rewind", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", []string{"rewind", "deflect"},
			func(s State) State { return played(t, s, sec(1), "e4d5") }, nil, []string{"d6"}},
		{"setback", "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", []string{"setback", "rewind"},
			func(s State) State { return played(t, s, sec(1), "d6d7") }, nil, nil},
	} {
		t.Run(c.card, func(t *testing.T) {
			// White holds a reaction too, so that a window for it after the reaction
			// would not be left out for an empty hand.
			s := adv(t, c.fen, []string{"teleport", "banish", "counterspell"}, c.hand1, "")
			s = answering(t, c.act(s))
			w := s.Window
			if w == nil || w.Seat != 1 {
				t.Fatalf("no window for Black: %+v", w)
			}
			at := w.Answers.Add(time.Second)
			evs, err := r.Decide(s, game.Action{Seat: 1, At: at, Do: React{Card: c.card, Slot: -1, Targets: c.targets}})
			if err != nil {
				t.Fatal(err)
			}
			played, ok := evs[0].Event.(ReactionPlayed)
			if !ok {
				t.Fatalf("the reaction's first event: %+v", evs[0].Event)
			}
			// Between the reaction and an R1 card's resolution: the window is closed,
			// no second reaction is taken and no window may be recorded.
			mid := r.Evolve(s, played).(State)
			if w.Kind == R1 && (mid.Window == nil || !mid.Window.Closed) || w.Kind != R1 && mid.Window != nil || mid.opening != nil {
				t.Fatalf("after the reaction: window %+v, due %+v", mid.Window, mid.opening)
			}
			if err := r.Audit(mid, ReactionPlayed{Seat: 1, Card: c.hand1[1], Slot: 1, Targets: c.second, FEN: mid.FEN(), At: at}); err == nil {
				t.Error("the audit takes a second reaction in the window")
			}
			after := game.State(s)
			for _, e := range evs {
				if err := r.Audit(after, e.Event); err != nil {
					t.Fatalf("Audit refuses %T: %v", e.Event, err)
				}
				if _, opens := e.Event.(ReactionWindowOpened); opens {
					t.Fatalf("the reaction opened a window: %+v", evs)
				}
				after = r.Evolve(after, e.Event)
			}
			end := after.(State)
			if end.Window != nil || end.opening != nil || end.Held != nil {
				t.Fatalf("after the reaction: window %+v, due %+v, held %+v", end.Window, end.opening, end.Held)
			}
			if st := r.Status(end); strings.HasPrefix(st.Phase, "reaction") || slices.Contains(st.Choices, Pass) {
				t.Fatalf("status after the reaction: %+v", st)
			}
			for _, seat := range []int{1, 0} {
				why := refusedAt(t, end, seat, at.Add(time.Second), React{Card: c.hand1[1], Slot: -1, Targets: c.second}, game.IllegalMove)
				if seat == 0 {
					why = refusedAt(t, end, seat, at.Add(time.Second), React{Card: "counterspell", Slot: -1}, game.IllegalMove)
				}
				if !strings.Contains(why, "no reaction window is open") {
					t.Errorf("seat %d's second reaction refused as %q", seat, why)
				}
			}
			if !slices.Equal(end.Hands[1], []string{"", c.hand1[1]}) || !slices.Contains(end.Hands[0], "counterspell") {
				t.Fatalf("hands after the refusals: %v", end.Hands)
			}
			for _, st := range []State{mid, end} {
				for seat, trig := range map[int]string{0: TriggerCheck, 1: TriggerCard} {
					kind := R2
					if trig == TriggerCard {
						kind = R1
					}
					forged := ReactionWindowOpened{Window: kind, Seat: seat, Triggers: []string{trig}, At: at, Answers: at.Add(2 * time.Second), Closes: at.Add(10 * time.Second)}
					if err := r.Audit(st, forged); err == nil {
						t.Errorf("the audit takes a window %+v right after %s", forged, c.card)
					}
				}
			}
		})
	}
}
