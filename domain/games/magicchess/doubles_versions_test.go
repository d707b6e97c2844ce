package magicchess

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// under is the rules of an older version, which must be known.
func under(t *testing.T, version string) Rules {
	t.Helper()
	r, ok := Rules{}.Under(version)
	if !ok {
		t.Fatalf("the rules do not know %s", version)
	}
	return r.(Rules)
}

// From magic-2026.4 on a signal is covert (the engine stores it in its team's hidden
// stream, so that nobody else can count the signals); a match of an older version keeps
// its public signals. The audit holds each version to its own: a public signal in a
// 2026.4 match is refused, and a covert one in a 2026.3 match.
func TestSignalsAreCovertFromMagic20264(t *testing.T) {
	for _, c := range []struct {
		rules  Rules
		covert bool
	}{{Rules{}, true}, {under(t, "magic-2026.3"), false}, {under(t, "magic-2026.2"), false}} {
		v := c.rules.Info().RulesVersion
		tb := doublesUnder(t, c.rules, noSaves, nil)
		evs, err := c.rules.Decide(tb, game.Action{Seat: 2, At: t0, Do: SendSignal{Signal: "card-next"}})
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if len(evs) != 1 || game.IsCovert(evs[0].Event) != c.covert || evs[0].Visibility != visibility.Team(1) {
			t.Fatalf("%s: a signal of seat 2 is %+v; covert should be %v, seen by team 1", v, evs, c.covert)
		}
		doubles, err := c.rules.Plan(game.Options{"boards": "2"})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.rules.Covering(doubles); got != c.covert {
			t.Fatalf("%s: Covering of a doubles match is %v", v, got)
		}
		sent := evs[0].Event.(Signalled)
		if err := c.rules.Audit(tb, sent); err != nil {
			t.Fatalf("%s: the audit refuses the signal decided: %v", v, err)
		}
		forged := sent
		forged.Hidden = !sent.Hidden
		if err := c.rules.Audit(tb, forged); err == nil {
			t.Fatalf("%s: the audit takes a signal with covert %v", v, forged.Hidden)
		}
		after := c.rules.Evolve(tb, sent).(Table)
		if v := c.rules.View(after, game.Viewpoint{Seats: []int{1}, Teams: []int{1}}).(*View); !slices.Equal(v.Signals, []Signal{{Seat: 2, Signal: "card-next"}}) {
			t.Fatalf("seat 1 sees its partner's signals as %v", v.Signals)
		}
	}
}

// A player's resignation in doubles, from magic-2026.4 on, is its team's loss: the match
// ends on both boards (rule 12 ends it for both teams at a mate or a flag on either board;
// a resignation is a player conceding its board). Under magic-2026.3 it concedes nothing
// (the match went on, the resigned seat's clock running until its flag fell).
func TestAResignationInDoublesIsTheTeamsLoss(t *testing.T) {
	r := Rules{}
	tb := dmoves(t, doubles(t, noSaves, nil), "0:e4", "2:d4", "1:e5")
	for seat, winners := range [][]int{{1, 2}, {0, 3}, {0, 3}, {1, 2}} {
		evs := r.Withdraw(tb, seat, t0)
		if len(evs) != 1 || evs[0].Event != (Conceded{Seat: seat}) || evs[0].Visibility != visibility.Public {
			t.Fatalf("seat %d resigns: %+v", seat, evs)
		}
		if err := r.Audit(tb, evs[0].Event); err != nil {
			t.Fatalf("seat %d's concession: %v", seat, err)
		}
		over := r.Evolve(tb, evs[0].Event).(Table)
		st := r.Status(over)
		if !st.Over || !slices.Equal(st.Outcome.Winners, winners) || st.Outcome.Reason != "resignation" || len(st.ToAct) != 0 {
			t.Fatalf("seat %d resigned: %+v, want the team of %v winning by resignation", seat, st, winners)
		}
		for b, board := range r.View(over, game.Viewpoint{}).(*View).Boards {
			if board.Phase != "over" || board.ToAct != -1 {
				t.Fatalf("seat %d resigned: board %d is %+v, not over", seat, b, board)
			}
		}
		if evs := r.Withdraw(over, 3-seat, t0); evs != nil {
			t.Fatalf("a resignation after the end concedes %+v", evs)
		}
		if _, err := r.Decide(over, game.Action{Seat: 2, At: t0, Do: game.Move{Notation: "e5"}}); game.CodeOf(err) != game.IllegalMove {
			t.Fatalf("a move after the concession: %v", err)
		}
	}
	old := under(t, "magic-2026.3")
	otb := dmoves(t, doublesUnder(t, old, noSaves, nil), "0:e4")
	if evs := old.Withdraw(otb, 1, t0); evs != nil {
		t.Fatalf("under magic-2026.3 a resignation gives %+v", evs)
	}
	if err := old.Audit(otb, Conceded{Seat: 1}); err == nil {
		t.Fatal("the audit of a magic-2026.3 match takes a concession")
	}
	if evs := r.Withdraw(State{}, 0, t0); evs != nil {
		t.Fatalf("on one board (the match ends by itself) Withdraw gives %+v", evs)
	}
}

// A match on one board has no team channel, so it keeps no hidden streams in any rules
// version (game.Covering answers per match): the engine and the read side read its own
// stream alone, and its events show their store positions.
func TestOneBoardKeepsNoHiddenStreams(t *testing.T) {
	for _, r := range []Rules{{}, under(t, "magic-2026.3"), under(t, "magic-2026.1")} {
		for _, mode := range []string{"CLASSIC", "ADVANCED"} {
			plan, err := r.Plan(game.Options{"mode": mode})
			if err != nil {
				if mode == "ADVANCED" && r.before("magic-2026.2") {
					continue // no advanced mode then
				}
				t.Fatal(err)
			}
			if r.Covering(plan) {
				t.Fatalf("%s: a %s match on one board keeps hidden streams", r.Info().RulesVersion, mode)
			}
		}
	}
}

// In doubles only an action on the offerer's board declines a draw offer: both boards
// play at once (game.DrawDeclining). On one board every action of the opponent does.
func TestOnlyTheOfferersBoardDeclinesADraw(t *testing.T) {
	tb := doublesUnder(t, Rules{}, noSaves, nil)
	for seat, declines := range []bool{false, true, false, false} {
		if got := (Rules{}).DeclinesDraw(tb, game.Action{Seat: seat, At: t0}, 0); got != declines {
			t.Errorf("in doubles, seat %d's action declines seat 0's offer: %v", seat, got)
		}
	}
	if !(Rules{}).DeclinesDraw(State{}, game.Action{Seat: 1, At: t0}, 0) {
		t.Error("on one board, the opponent's action leaves the offer pending")
	}
}
