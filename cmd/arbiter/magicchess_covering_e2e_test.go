package main

import (
	"path/filepath"
	"testing"
)

// A match of Ajedrez Mágico on one board keeps no hidden streams under magic-2026.4, since
// it has no team channel (game.Covering answers per match): its events show their store
// positions, as every match without hidden streams does, while a doubles match of the
// same rules shows none (they would count its teams' covert signals).
func TestOnlyDoublesHideTheirEventsPositions(t *testing.T) {
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
		var e events
		srv.must(t, viewer, q, map[string]any{"m": one}, &e)
		if e.Match.RulesVersion != "magic-2026.4" || len(e.Match.Events) < 4 {
			t.Fatalf("the one-board match: %+v", e.Match)
		}
		last := 0
		for _, ev := range e.Match.Events {
			if ev.Position <= last {
				t.Fatalf("event %d of a one-board match shows position %d after %d", ev.Version, ev.Position, last)
			}
			last = ev.Position
		}
		srv.must(t, viewer, q, map[string]any{"m": doubles}, &e)
		for _, ev := range e.Match.Events {
			if ev.Position != 0 {
				t.Fatalf("event %d of a doubles match of %s shows position %d", ev.Version, e.Match.RulesVersion, ev.Position)
			}
		}
	}
}
