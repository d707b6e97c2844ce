package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// Under rulebook-2017.1 a Royale seat that resigned keeps its turns: the game withdraws
// nothing, and the match lets no resigned seat act. In the live match of
// testdata/rulebook-2017.1 (seat 2 resigned) the game therefore waits at seat 2's turn,
// as it did under that version (docs/games/sovereign.md, "Rules versions"): seat 2's
// move is refused, no clock or forfeit is due, and the three seats still playing end the
// match by agreeing a draw, seat 2's acceptance not awaited.
func TestASovereign20171ResignedSeatsTurnWaitsForADraw(t *testing.T) {
	const id = "mespro7imlgnkpnb"
	ctx := context.Background()
	db := copyStore(t, filepath.Join("testdata", "rulebook-2017.1"))
	store, err := openStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	e := engine.New(engine.Config{Store: store, Games: games()})
	handle := func(cmd match.Command) error {
		t.Helper()
		_, err := e.Handle(ctx, id, cmd, engine.Meta{})
		return err
	}
	m, err := e.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if st := m.State.GameStatus(m.Rules); m.Rules.Info().RulesVersion != "rulebook-2017.1" || !slices.Equal(m.State.Resigned, []int{2}) || !slices.Equal(st.ToAct, []int{0}) {
		t.Fatalf("the stored match: rules %s, resigned %v, to act %v", m.Rules.Info().RulesVersion, m.State.Resigned, st.ToAct)
	}
	legal := m.Rules.(game.Boarded).Board(m.State.GameState).LegalMoves
	if err := handle(match.Act{PlayerID: "player-0", Do: game.Move{Notation: legal[0]}}); err != nil {
		t.Fatalf("seat 0 plays %s: %v", legal[0], err)
	}

	m, err = e.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if st := m.State.GameStatus(m.Rules); !slices.Equal(st.ToAct, []int{2}) || st.Out != nil {
		t.Fatalf("after seat 0's move: to act %v, out %v; want the resigned seat 2 to act, nobody out", st.ToAct, st.Out)
	}
	if d := m.State.Deadline(m.Rules); !d.IsZero() {
		t.Fatalf("a deadline at %s: nothing is due in a match without a clock", d)
	}
	legal = m.Rules.(game.Boarded).Board(m.State.GameState).LegalMoves
	if err := handle(match.Act{PlayerID: "player-2", Do: game.Move{Notation: legal[0]}}); game.CodeOf(err) != game.Forbidden {
		t.Fatalf("the resigned seat 2 plays %s: %v, want FORBIDDEN", legal[0], err)
	}
	for _, p := range []string{"player-0", "player-1", "player-3"} {
		if err := handle(match.Act{PlayerID: p, Do: game.Move{Notation: legal[0]}}); game.CodeOf(err) == "" {
			t.Fatalf("%s moves at seat 2's turn", p)
		}
	}

	if err := handle(match.OfferDraw{PlayerID: "player-1"}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"player-0", "player-3"} {
		if err := handle(match.AcceptDraw{PlayerID: p}); err != nil {
			t.Fatalf("%s accepts the draw: %v", p, err)
		}
	}
	m, err = e.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if m.State.Status != match.Finished || m.State.Result.Reason != "agreement" || len(m.State.Result.Winners) != 0 {
		t.Fatalf("after the draw of seats 0, 1 and 3: %s %+v", m.State.Status, m.State.Result)
	}
	store.Close()
	if last, out := lastLine(t, "verify", "--db", db, "--match", id); !strings.HasSuffix(last, "all ok") || !strings.Contains(lineOf(out, id), "agreement") {
		t.Fatalf("verify of the match drawn:\n%s", out)
	}
}
