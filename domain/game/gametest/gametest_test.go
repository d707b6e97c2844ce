package gametest_test

import (
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
	ttt "github.com/arbiter-games/arbiter/domain/game/gametest/internal/traptictactoe"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// The suite is only worth what it catches: each of these games breaks the contract in
// one way, and the suite, run on it in a child process, must fail saying so.
var broken = map[string]struct {
	rules game.Rules
	says  string
}{
	"a view shows the other seat's trap": {leakyView{}, "hidden from it"},
	"Decide changes its state":           {scribbler{}, "changed the state it was given"},
	"a trap is stored public":            {publicTraps{}, "is stored visible to"},
	"Setup draws on more than the seed":  {&restless{}, "two openings from one seed"},
	"the audit refuses a move":           {fussyAudit{}, "the audit refuses"},
	"a refusal has no code":              {untyped{}, "want a typed rejection"},
	"a refusal betrays the trap":         {betrayer{}, "refuse"},
}

func TestBrokenGamesFail(t *testing.T) {
	if name := os.Getenv("GAMETEST_BROKEN"); name != "" {
		gametest.Run(t, gametest.Game{Rules: broken[name].rules, Matches: 16})
		return
	}
	for name, b := range broken {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenGamesFail$")
			cmd.Env = append(os.Environ(), "GAMETEST_BROKEN="+name, "GAMETEST_MATCHES=")
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), b.says) {
				t.Fatalf("the suite on a game where %s: %v, want a failure saying %q:\n%s", name, err, b.says, out)
			}
		})
	}
}

// leakyView shows every trap to every viewer.
type leakyView struct{ ttt.Rules }

func (r leakyView) View(st game.State, p game.Viewpoint) game.View {
	v := r.Rules.View(st, p)
	if tv, ok := v.(*ttt.View); ok {
		s := st.(ttt.State)
		tv.Traps = []ttt.Trap{{Seat: 0, Cell: s.Traps[0]}, {Seat: 1, Cell: s.Traps[1]}}
	}
	return v
}

// scribbler's Decide writes into the burned cells it was given.
type scribbler struct{ ttt.Rules }

func (r scribbler) Decide(st game.State, a game.Action) ([]game.Emitted, error) {
	if s := st.(ttt.State); len(s.Burned) > 0 {
		s.Burned[0] = "scribbled"
	}
	return r.Rules.Decide(st, a)
}

// publicTraps stores the traps it deals for everyone to see.
type publicTraps struct{ ttt.Rules }

func (r publicTraps) Setup(s game.Setup) ([]game.Emitted, error) {
	evs, err := r.Rules.Setup(s)
	for i := range evs {
		evs[i].Visibility = visibility.Public
	}
	return evs, err
}

// restless deals from a counter as well as the seed.
type restless struct {
	ttt.Rules
	deals atomic.Int64
}

func (r *restless) Setup(s game.Setup) ([]game.Emitted, error) {
	s.Seed = append(s.Seed, byte(r.deals.Add(1)))
	return r.Rules.Setup(s)
}

// fussyAudit refuses every mark placed on b2.
type fussyAudit struct{ ttt.Rules }

func (r fussyAudit) Audit(before game.State, e game.Event) error {
	if m, ok := e.(ttt.MarkPlaced); ok && m.Cell == "b2" {
		return os.ErrInvalid
	}
	return r.Rules.Audit(before, e)
}

// untyped refuses what it does not take with an error that has no code.
type untyped struct{ ttt.Rules }

func (r untyped) Decide(st game.State, a game.Action) ([]game.Emitted, error) {
	if _, ok := a.Do.(game.Move); !ok {
		return nil, os.ErrInvalid
	}
	return r.Rules.Decide(st, a)
}

// betrayer refuses a move onto the other seat's trap, which tells the mover where it is.
type betrayer struct{ ttt.Rules }

func (r betrayer) Decide(st game.State, a game.Action) ([]game.Emitted, error) {
	if m, ok := a.Do.(game.Move); ok && m.Notation == st.(ttt.State).Traps[1-a.Seat] {
		return nil, game.Reject(game.IllegalMove, "a trap is there")
	}
	return r.Rules.Decide(st, a)
}
