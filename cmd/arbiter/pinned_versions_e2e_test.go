package main

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// Every stored match plays and verifies by the rules it was played under. Each store of
// testdata/<rules version> was recorded by the build of that version of UnfairChess or
// Sovereign Chess (its README.md says which, and how): today's server shows each match
// with its version, `verify --fairness` and `replay` re-derive every one with that
// version's rules (game.Pinned), and the match left unfinished plays on under them. unfair-2026.2's
// store was recorded by the build before the move generator's fix of magic-2026.3
// (8726897), which changed no UnfairChess play; unfair-2026.3 (a swapped rook loses its
// castling right) and unfair-2026.4 (a pawn a card brought takes no en passant) have no
// store of their own: their builds are today's, and the corpus holds a match of each.
func TestEveryStoredVersionLoadsVerifiesAndPlaysOn(t *testing.T) {
	for _, c := range []struct {
		version, game string
		finished      map[string]string // match ID: the end verify reports
		live          string            // the match left unfinished
	}{
		{"unfair-2026.1", "UNFAIR_CHESS", map[string]string{"tcih7a2tsopfrceo": "wins by checkmate"}, "fsqtbbsoissthldk"},
		{"unfair-2026.2", "UNFAIR_CHESS", map[string]string{"vgpeqwly22teltzn": "wins by checkmate"}, "ca47kfyqhgftxxdv"},
		{"rulebook-2017.1", "SOVEREIGN_CHESS", map[string]string{
			"d5f5ads4rjcwmc77": "draw claimed (threefold repetition)",
			"rkk6vezogmiiz4fo": "wins by checkmate",
			"bw2x4g6oxzzv5kcg": "wins (last king standing)",
		}, "mespro7imlgnkpnb"},
		{"rulebook-2017.2", "SOVEREIGN_CHESS", map[string]string{
			"ty3zqmfhbc55r4gv": "wins by resignation",
			"l6ttxikmzde5o3uo": "wins by resignation",
		}, "artmjpee77cz5ddq"},
	} {
		t.Run(c.version, func(t *testing.T) {
			db := copyStore(t, filepath.Join("testdata", c.version))
			last, out := lastLine(t, "verify", "--fairness", "--db", db)
			if !strings.HasSuffix(last, "all ok") {
				t.Fatalf("verify of the %s store:\n%s", c.version, out)
			}
			for id, end := range c.finished {
				if !strings.Contains(out, id+" "+c.game) || !strings.Contains(lineOf(out, id), end) {
					t.Errorf("verify shows %s as %q, want %q", id, lineOf(out, id), end)
				}
			}
			ids := slices.Sorted(maps.Keys(c.finished))
			if c.live != "" {
				ids = append(ids, c.live)
			}
			for _, id := range ids {
				if _, out := lastLine(t, "replay", "--db", db, "--match", id); !strings.Contains(out, "(rules "+c.version+")") {
					t.Errorf("replay of %s:\n%s", id, out)
				}
			}
			if c.live != "" {
				playOn(t, db, c.live, c.version)
				if last, out := lastLine(t, "verify", "--db", db); !strings.HasSuffix(last, "all ok") {
					t.Fatalf("verify after the match played on:\n%s", out)
				}
			}

			srv := startServer(t, db)
			for _, id := range ids {
				var v struct {
					Match struct{ Status, RulesVersion string }
				}
				srv.must(t, "", `query($m:ID!){match(id:$m){status rulesVersion}}`, map[string]any{"m": id}, &v)
				want := "FINISHED"
				if id == c.live {
					want = "LIVE"
				}
				if v.Match.Status != want || v.Match.RulesVersion != c.version {
					t.Errorf("%s as the server shows it: %+v, want %s under %s", id, v.Match, want, c.version)
				}
			}
			srv.stop(t)
		})
	}
}

// lineOf is the line of out that names id.
func lineOf(out, id string) string {
	for line := range strings.Lines(out) {
		if strings.Contains(line, id) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// playOn has the seat to act of the live match id play its first legal move, through
// today's engine on the store: the rules it decides with are the match's version's.
func playOn(t *testing.T, db, id, version string) {
	t.Helper()
	ctx := context.Background()
	store, err := openStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	e := engine.New(engine.Config{Store: store, Games: games()})
	before, err := e.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := before.Rules.Info().RulesVersion; got != version || before.State.Status != match.Live {
		t.Fatalf("the engine loads %s under %s, %s", id, got, before.State.Status)
	}
	seat := before.State.GameStatus(before.Rules).ToAct[0]
	legal := before.Rules.(game.Boarded).Board(before.State.GameState).LegalMoves
	if len(legal) == 0 {
		t.Fatalf("seat %d of %s has no legal move", seat, id)
	}
	ack, err := e.Handle(ctx, id, match.Act{PlayerID: before.State.Seats[seat].PlayerID, Do: game.Move{Notation: legal[0]}}, engine.Meta{})
	if err != nil {
		t.Fatalf("%s: seat %d plays %s: %v", id, seat, legal[0], err)
	}
	after, err := e.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version <= before.Version || ack.LastVersion != after.Version || after.Rules.Info().RulesVersion != version {
		t.Fatalf("%s after %s: version %d to %d (ack %d), rules %s", id, legal[0], before.Version, after.Version, ack.LastVersion, after.Rules.Info().RulesVersion)
	}
	t.Logf("%s (%s): seat %d played %s, version %d to %d", id, version, seat, legal[0], before.Version, after.Version)
}
