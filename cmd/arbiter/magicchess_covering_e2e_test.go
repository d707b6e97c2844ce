package main

import (
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/domain/games/magicchess"
)

// A match of Ajedrez Mágico on one board keeps no hidden streams from magic-2026.4 on, since
// it has no team channel (game.Covering answers per match), and a doubles match of the same
// rules keeps them: both show each event's place in the match (its version) as its
// position, never the store's, which would count the doubles teams' covert signals.
func TestOneBoardAndDoublesShowTheirPlaceInTheMatch(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:MAGIC_CHESS, mode:ADVANCED}){match{id}}}`, nil, &c)
	one := c.CreateMatch.Match.ID
	srv.seatAll(t, one, []string{ann, bob})
	tokens, doubles := doublesPlayers(t, srv, "", false)
	srv.must(t, tokens[0], `mutation($m:ID!){signal(matchId:$m, signal:SAVE_READY){match{version}}}`, map[string]any{"m": doubles}, nil)
	type events struct {
		Match struct {
			RulesVersion string
			Events       []struct{ Version, Position int }
		}
	}
	const q = `query($m:ID!){match(id:$m){rulesVersion events(first:100){version position}}}`
	for _, viewer := range []string{ann, ""} {
		var e, d events
		srv.must(t, viewer, q, map[string]any{"m": one}, &e)
		if e.Match.RulesVersion != magicchess.RulesVersion || len(e.Match.Events) < 4 {
			t.Fatalf("the one-board match: %+v", e.Match)
		}
		srv.must(t, viewer, q, map[string]any{"m": doubles}, &d)
		for name, evs := range map[string][]struct{ Version, Position int }{"one-board": e.Match.Events, "doubles": d.Match.Events} {
			for i, ev := range evs {
				if ev.Version != i+1 || ev.Position != i+1 {
					t.Fatalf("event %d of the %s match shows version %d, position %d", i, name, ev.Version, ev.Position)
				}
			}
		}
	}
}
