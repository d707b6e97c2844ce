package projections

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/match"
)

// planningMatch plays an Ajedrez Mágico match through match.Decide and match.Evolve, as
// the engine does minus the store, to its planning phase: one seat a player (p0, p1...).
func planningMatch(t *testing.T, opts game.Options, rated bool) match.State {
	t.Helper()
	r := magicchess.Rules{}
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	plan, err := r.Plan(opts)
	if err != nil {
		t.Fatal(err)
	}
	cmds := []match.Command{match.Create{Game: magicchess.ID, Options: opts, Rated: rated, Seed: bytes.Repeat([]byte{3}, 32), At: at}}
	for seat := range plan.Seats {
		id := fmt.Sprintf("p%d", seat)
		cmds = append(cmds, match.Join{PlayerID: id, Name: id, At: at, Entropy: bytes.Repeat([]byte{byte(seat + 1)}, 16)})
	}
	var st match.State
	for _, cmd := range cmds {
		st = decideAll(t, st, cmd)
	}
	return st
}

// decideAll decides cmd in st and folds its events.
func decideAll(t *testing.T, st match.State, cmd match.Command) match.State {
	t.Helper()
	evs, err := match.Decide(magicchess.Rules{}, st, cmd)
	if err != nil {
		t.Fatalf("%T %+v: %v", cmd, cmd, err)
	}
	for _, e := range evs {
		st = match.Evolve(magicchess.Rules{}, st, e.Event)
	}
	return st
}

// phasesSeen is the phase of the view each player and a spectator read (and each board's,
// at a doubles table), failing unless every viewer reads phase and no planning deadline.
func phasesSeen(t *testing.T, st match.State, want string) {
	t.Helper()
	for _, who := range []string{"", "p0", "p1", "p2", "p3"} {
		v, ok := ViewerOf(st, who).View(magicchess.Rules{}, st.GameState).(*magicchess.View)
		if !ok {
			t.Fatalf("%q reads no Ajedrez Mágico view", who)
		}
		if v.Phase != want {
			t.Errorf("%q reads the phase %q, want %q", who, v.Phase, want)
		}
		if want != magicchess.Planning && v.PlanEnds != nil {
			t.Errorf("%q reads the planning's deadline %v in the phase %q", who, v.PlanEnds, want)
		}
		for _, b := range v.Boards {
			if b.Phase != want {
				t.Errorf("%q reads board %d's phase %q, want %q", who, b.Board, b.Phase, want)
			}
		}
		if want == magicchess.Over && len(v.Plays()) > 0 {
			t.Errorf("%q may still play %v in a match over", who, v.Plays())
		}
	}
}

// A match that ends in its planning (a seat resigns; a rated match is then aborted) reads
// "over" to its players and to spectators, on one board and at a doubles table: the
// match's end is not the game's, whose state stays in its planning.
func TestAMatchEndedInItsPlanningReadsOver(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   game.Options
		rated  bool
		reason string
		// gameEnds: the game's state holds the end (a doubles table's seat withdraws).
		gameEnds bool
	}{
		{"one board", game.Options{}, false, "resignation", false},
		{"one board, rated: aborted", game.Options{}, true, match.Aborted, false},
		{"doubles", game.Options{magicchess.OptionBoards: "2"}, false, "resignation", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := planningMatch(t, tc.opts, tc.rated)
			if st.Status != match.Live {
				t.Fatalf("the match is %s after every seat joined", st.Status)
			}
			phasesSeen(t, st, magicchess.Planning)
			st = decideAll(t, st, match.Resign{PlayerID: "p1", At: st.StartedAt.Add(time.Second)})
			if st.Status != match.Finished || st.Result == nil || st.Result.Reason != tc.reason {
				t.Fatalf("after p1 resigned in the planning: status %s, result %+v, want a %s", st.Status, st.Result, tc.reason)
			}
			if got := (magicchess.Rules{}).Status(st.GameState).Over; got != tc.gameEnds {
				t.Fatalf("the game's own state over: %v, want %v", got, tc.gameEnds)
			}
			phasesSeen(t, st, magicchess.Over)
		})
	}
}
