// Package gametest is the conformance suite that every game must pass: the contract of
// game.Rules written once and checked by seeded random matches played through the engine
// on the in-memory store, as eventstore/conformance is for stores.
//
// A game's test calls Run with its rules and the options to try; the suite's players
// take the plays that the game's views list:
//
//	func TestConformance(t *testing.T) {
//		gametest.Run(t, gametest.Game{Rules: Rules{}, Options: map[string]game.Options{
//			"": nil, "clock": {"clock": "1+0"},
//		}})
//	}
//
// It is a test kit, as net/http/httptest is: it imports the engine, the in-memory store,
// the projections and the verifier, which the layering forbids to domain/ itself.
package gametest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/internal/longtest"
)

// Game is a game under test.
type Game struct {
	Rules game.Rules
	// Options are the option sets to play, each as a subtest named by its key ("" plays
	// a match with no options). nil plays the game with no options.
	Options map[string]game.Options
	// Act, if set, returns a random action of seat, one of the seats to act in st, drawn
	// with rng alone: it then chooses three actions in four, for a game whose views do
	// not list every kind of action (a card played with its move in one command). It may
	// call the rules; it must not change st. The other actions are drawn from the plays
	// that the view of the seat's player lists (game.View.Plays), three times in four
	// among those the game scores best, so that matches end. The suite fails a match
	// whose action the game refuses.
	Act func(rng *rand.Rand, st game.State, seat int) any
	// MaxActions bounds a match: one that has not ended after this many actions fails
	// the "the game ends" check. 0 is 2000.
	MaxActions int
	// EndsByAgreement says that the rules leave some matches to the players to end
	// (UnfairChess ends by mate, stalemate, an agreed draw or a resignation: two bare
	// kings play on): a match still live after MaxActions is then drawn by agreement
	// and checked like any other.
	EndsByAgreement bool
	// Matches is how many seeded matches each option set plays in the default run (0 is
	// 4; one under -short). GAMETEST_MATCHES=N plays N instead, for a long run.
	Matches int
}

// Run runs the whole suite as subtests of t. Every check holds for every seed: a failure
// names the seed, and the same seed plays the same match again.
func Run(t *testing.T, g Game) {
	t.Helper()
	if g.Rules == nil {
		t.Fatal("gametest: Game.Rules is required")
	}
	if g.MaxActions <= 0 {
		g.MaxActions = 2000
	}
	if g.Matches <= 0 {
		g.Matches = 4
	}
	opts := g.Options
	if opts == nil {
		opts = map[string]game.Options{"": nil}
	}
	names := make([]string, 0, len(opts))
	for name := range opts {
		names = append(names, name)
	}
	slices.Sort(names)
	matches, _ := longtest.Games(t, "GAMETEST_MATCHES", max(1, g.Matches/4), g.Matches)
	for _, name := range names {
		o := opts[name]
		t.Run(fmt.Sprintf("options=%s", name), func(t *testing.T) {
			if _, err := g.Rules.Plan(o); err != nil {
				t.Fatalf("the options %v are refused: %v", o, err)
			}
			t.Run("SetupIsDeterministic", func(t *testing.T) { testSetup(t, g, o) })
			t.Run("Playouts", func(t *testing.T) {
				actions, endings := 0, map[string]int{}
				for seed := range uint64(matches) {
					n, ending := playout(t, g, o, seed)
					actions += n
					endings[ending]++
				}
				t.Logf("%d matches, %d actions, ended by %v", matches, actions, endings)
			})
		})
	}
}

// testSetup checks that Setup deals the same opening from the same seed, and that a
// game with more than one possible opening deals from the seed (not from anything else).
func testSetup(t *testing.T, g Game, opts game.Options) {
	plan, err := g.Rules.Plan(opts)
	if err != nil {
		t.Fatal(err)
	}
	for seed := range 16 {
		s := game.Setup{Plan: plan, Options: opts, Seed: []byte(fmt.Sprintf("gametest-seed-%d", seed)), At: Noon}
		first, err := g.Rules.Setup(s)
		if err != nil {
			t.Fatalf("seed %d: Setup: %v", seed, err)
		}
		again, err := g.Rules.Setup(game.Setup{Plan: plan, Options: opts, Seed: slices.Clone(s.Seed), At: Noon})
		if err != nil {
			t.Fatalf("seed %d: Setup again: %v", seed, err)
		}
		if a, b := encodeAll(t, first), encodeAll(t, again); !slices.Equal(a, b) {
			t.Fatalf("seed %d: Setup dealt two openings from one seed:\n%v\n%v", seed, a, b)
		}
		if len(first) == 0 {
			t.Fatalf("seed %d: Setup dealt no event: a match must start from a recorded opening", seed)
		}
	}
}

// encodeAll is each event's type, visibility and payload, for comparing them.
func encodeAll(t *testing.T, evs []game.Emitted) []string {
	t.Helper()
	out := make([]string, len(evs))
	for i, e := range evs {
		p, err := game.Encode(e.Event)
		if err != nil {
			t.Fatalf("%s does not encode: %v", e.Event.EventType(), err)
		}
		out[i] = fmt.Sprintf("%s %q %s", e.Event.EventType(), e.Visibility, p)
	}
	return out
}
