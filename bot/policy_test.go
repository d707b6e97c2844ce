package bot

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// dealt is a game's state once its Setup events are folded.
func dealt(t *testing.T, rules game.Rules, opts game.Options, seed byte) game.State {
	t.Helper()
	plan, err := rules.Plan(opts)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := rules.Setup(game.Setup{Plan: plan, Options: opts, Seed: slices.Repeat([]byte{seed}, 32), At: time.Unix(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	var st game.State
	for _, e := range evs {
		st = rules.Evolve(st, e.Event)
	}
	return st
}

// seated is a live match of rules in the state gs, with the bot at seat and people at
// the other seats, as the engine would give it at version.
func seated(rules game.Rules, gs game.State, seat int, version int64) engine.Snapshot {
	st := match.State{Status: match.Live, GameState: gs, Plan: game.Plan{Seats: 2, Teams: []int{0, 1}}, DrawOfferBy: -1}
	st.Seats = []match.Seat{{PlayerID: "ann", Name: "Ann"}, {PlayerID: "bob", Name: "Bob"}}
	st.Seats[seat] = match.Seat{PlayerID: ID, Name: Name}
	return engine.Snapshot{ID: "m1", Rules: rules, State: st, Version: version}
}

// acted is gs after seat's action, which the rules must accept.
func acted(t *testing.T, rules game.Rules, gs game.State, seat int, do any) game.State {
	t.Helper()
	evs, err := rules.Decide(gs, game.Action{Seat: seat, At: time.Unix(1, 0), Do: do})
	if err != nil {
		t.Fatalf("the rules refuse %+v: %v", do, err)
	}
	for _, e := range evs {
		gs = rules.Evolve(gs, e.Event)
	}
	return gs
}

func TestChessTakesTheMateInOne(t *testing.T) {
	// Rd1-d8 mates; Nc3xa4 wins a rook; anything else is quiet.
	const fen = "6k1/5ppp/8/8/r7/2N5/1q3PPP/3R2K1 w - - 0 1"
	rules := classic.Rules{}
	gs := dealt(t, rules, game.Options{"fen": fen}, 1)
	for version := range int64(20) {
		choices := Decide(ViewOf(seated(rules, gs, 0, version), 0))
		if len(choices) < 10 || choices[0] != (game.Move{Notation: "d1d8"}) || choices[1] != (game.Move{Notation: "c3a4"}) {
			t.Fatalf("version %d: the bot's choices %v, want the mate d1d8, then the rook c3a4", version, choices)
		}
	}
	after := acted(t, rules, gs, 0, game.Move{Notation: "d1d8"})
	if st := rules.Status(after); !st.Over || st.Outcome.Reason != "checkmate" {
		t.Fatalf("after d1d8: %+v", st)
	}
}

func TestCapturesTheMostValuablePieceFirst(t *testing.T) {
	// The knight may take a rook (a4) or a pawn (e4); the queen may take the pawn too.
	const fen = "6k1/5ppp/8/8/r3p3/2N5/4QPPP/6K1 w - - 0 1"
	gs := dealt(t, classic.Rules{}, game.Options{"fen": fen}, 1)
	choices := Decide(ViewOf(seated(classic.Rules{}, gs, 0, 3), 0))
	want := []any{game.Move{Notation: "c3a4"}, game.Move{Notation: "c3e4"}}
	if !reflect.DeepEqual(choices[:2], want) {
		t.Fatalf("choices %v, want %v first (the rook, then the pawn with the knight before the queen)", choices[:4], want)
	}
}

func TestUnfairPlaysACardWhenNoMoveIsLegal(t *testing.T) {
	// White is mated on the board, but a teleport can block the queen on h4.
	const foolsMate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
	rules := unfair.Rules{}
	gs := rules.Evolve(nil, unfair.GameStarted{FEN: foolsMate}).(unfair.State)
	gs.Sides[0].Hand = [unfair.HandSize]string{"wall", "teleport"}
	gs.Sides[0].Deck = []string{"truce", "spy"}
	gs.Sides[1].Hand = [unfair.HandSize]string{"poison", "sleep", "frost", "purge"}
	snap := seated(rules, gs, 0, 9)
	v := ViewOf(snap, 0)
	if v.Phase != "check" || len(v.Plays) == 0 || slices.ContainsFunc(v.Plays, func(p game.Play) bool { return p.Kind != game.KindCard }) {
		t.Fatalf("the bot's view: phase %q, plays %+v, want cards alone", v.Phase, v.Plays)
	}
	choices := Decide(v)
	if len(choices) == 0 {
		t.Fatal("the bot finds nothing to do, and a teleport saves its king")
	}
	for _, c := range choices {
		if pc, ok := c.(cards.PlayCard); !ok || pc.Card != "teleport" {
			t.Fatalf("a choice that is not the teleport: %+v", c)
		}
	}
	saved := acted(t, rules, gs, 0, choices[0])
	if st := rules.Status(saved); st.Over || !slices.Equal(st.ToAct, []int{1}) {
		t.Fatalf("after the bot's teleport: %+v", st)
	}

	// With nothing playable either, the game is over and the bot does nothing.
	gs.Sides[0].Hand = [unfair.HandSize]string{"wall"}
	if choices := Decide(ViewOf(seated(rules, gs, 0, 9), 0)); len(choices) != 0 {
		t.Fatalf("mated with nothing to play, the bot chooses %v", choices)
	}
}

func TestUnfairCardsSometimesAndTheMoveAfterTheCard(t *testing.T) {
	rules := unfair.Rules{}
	gs := rules.Evolve(nil, unfair.GameStarted{FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}).(unfair.State)
	gs.Sides[0].Hand = [unfair.HandSize]string{"shield"}
	cardFirst := 0
	for version := range int64(200) {
		first := Decide(ViewOf(seated(rules, gs, 0, version), 0))[0]
		if pc, ok := first.(cards.PlayCard); ok {
			cardFirst++
			if version == 0 || cardFirst == 1 {
				// A card that adds to the move, then the move it owes.
				after := acted(t, rules, gs, 0, pc)
				v := ViewOf(seated(rules, after, 0, version+1), 0)
				if v.Phase != "move-after-card" {
					t.Fatalf("after %+v the phase is %q", pc, v.Phase)
				}
				next := Decide(v)
				if _, ok := next[0].(game.Move); !ok {
					t.Fatalf("after the shield the bot chooses %v, not its move", next)
				}
				acted(t, rules, after, 0, next[0])
			}
		}
	}
	if cardFirst < 20 || cardFirst > 90 {
		t.Fatalf("the bot put its playable card first in %d turns of 200: want about one in %d", cardFirst, cardOdds)
	}
}

func TestSovereignOpeningChoice(t *testing.T) {
	rules := sovereignchess.Rules{}
	kept := map[string]int{}
	for seed := range byte(16) {
		gs := dealt(t, rules, game.Options{}, seed)
		first := rules.Status(gs).ToAct[0]
		// The bot plays White's first move when it is drawn for it.
		move := Decide(ViewOf(seated(rules, gs, first, int64(seed)), first))
		gs = acted(t, rules, gs, first, move[0])
		chooser := 1 - first
		v := ViewOf(seated(rules, gs, chooser, int64(seed)+1), chooser)
		if v.Phase != sovereignchess.PhaseOpening {
			t.Fatalf("after White's first move the phase is %q", v.Phase)
		}
		choices := Decide(v)
		choice, ok := choices[0].(game.Choose)
		if !ok || len(choices) != 2 {
			t.Fatalf("the opening choice: %v", choices)
		}
		gs = acted(t, rules, gs, chooser, choice)
		if st := rules.Status(gs); st.Phase != sovereignchess.PhasePlay {
			t.Fatalf("after %s: %+v", choice.Option, st)
		}
		kept[choice.Option]++
	}
	if kept[sovereignchess.Keep] == 0 || kept[sovereignchess.Refuse] == 0 {
		t.Fatalf("the bot's choices over 16 matches: %v", kept)
	}
}

func TestDecideIsAFunctionOfTheView(t *testing.T) {
	gs := dealt(t, classic.Rules{}, game.Options{}, 1)
	v := ViewOf(seated(classic.Rules{}, gs, 0, 1), 0)
	if !reflect.DeepEqual(Decide(v), Decide(v)) {
		t.Fatal("two decisions on one view differ")
	}
	firsts := map[any]bool{}
	for version := range int64(30) {
		firsts[Decide(ViewOf(seated(classic.Rules{}, gs, 0, version), 0))[0]] = true
	}
	if len(firsts) < 5 {
		t.Fatalf("30 versions of the start position give %d first moves: the seed does not reach the choice", len(firsts))
	}
	if got := Decide(View{}); len(got) != 0 {
		t.Fatalf("nothing legal, nothing playable: %v", got)
	}
}

// The bot's randomness is keyed with the match's secret seed: the public match ID and
// version alone do not tell it, and the same secret gives the same choice on every node.
func TestSeedOfIsKeyedWithTheSecret(t *testing.T) {
	a := SeedOf("m1", 7, []byte("secret one"))
	if a != SeedOf("m1", 7, []byte("secret one")) {
		t.Fatal("the same match, version and secret gave two seeds")
	}
	if a == SeedOf("m1", 7, []byte("secret two")) {
		t.Fatal("another secret gave the same seed: the public ID and version decide it")
	}
	if a == SeedOf("m1", 8, []byte("secret one")) {
		t.Fatal("the next version gave the same seed")
	}
}
