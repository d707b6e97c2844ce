package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

// An event's position, in every game and to every viewer, is its place in its match's
// public sequence (its version: 1, 2, 3... with no gap), however many events other matches
// and hidden streams (Solwaris's traps, Ajedrez Mágico doubles' signals) stored in
// between, and a subscription resumed after a position starts at the next event. The
// matches here are played in turns, one action each, so that the store's global positions
// of each match's events have gaps.
func TestEveryGamesEventsShowTheirPlaceInTheMatch(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	games := append([]snapshotGame{{name: "Chess", create: `{game:CHESS}`, players: 2, next: chessLikeStep}}, snapshotGames...)
	type played struct {
		g      snapshotGame
		tokens []string
		id     string
	}
	var all []played
	for _, g := range games {
		p := played{g: g}
		for i := range g.players {
			_, tok := srv.register(t, g.name+string(rune('A'+i)))
			p.tokens = append(p.tokens, tok)
		}
		var c struct {
			CreateMatch struct{ Match struct{ ID string } }
		}
		srv.must(t, p.tokens[0], `mutation{createMatch(input:`+g.create+`){match{id}}}`, nil, &c)
		p.id = c.CreateMatch.Match.ID
		for seat, tok := range p.tokens {
			srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": p.id, "s": seat}, nil)
		}
		all = append(all, p)
	}
	for range 6 {
		for _, p := range all {
			s := p.g.next(t, srv, p.tokens, p.id)
			if r := srv.post(t, s.token, s.query, s.vars); len(r.Errors) > 0 {
				t.Fatalf("%s: %s %v: %+v", p.g.name, s.query, s.vars, r.Errors)
			}
		}
	}
	type event struct{ Version, Position int }
	for _, p := range all {
		for _, viewer := range append([]string{""}, p.tokens...) {
			var e struct{ Match struct{ Events []event } }
			srv.must(t, viewer, `query($m:ID!){match(id:$m){events(first:1000){version position}}}`, map[string]any{"m": p.id}, &e)
			if len(e.Match.Events) < 8 {
				t.Fatalf("%s: %d events", p.g.name, len(e.Match.Events))
			}
			for i, ev := range e.Match.Events {
				if ev.Version != i+1 || ev.Position != i+1 {
					t.Fatalf("%s, viewer %q: event %d shows version %d, position %d; want both %d", p.g.name, viewer, i, ev.Version, ev.Position, i+1)
				}
			}
		}
		// Live, a subscription resumed after the position of the third event: the fourth on.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		raw := srv.subscribeRaw(t, ctx, "graphql-transport-ws", p.tokens[0],
			`subscription($m:ID!,$a:Int){matchEvents(matchId:$m, after:$a){version position}}`, map[string]any{"m": p.id, "a": 3})
		for want := 4; want <= 6; want++ {
			data, ok := <-raw
			if !ok {
				t.Fatalf("%s: the subscription ended before position %d", p.g.name, want)
			}
			var got struct{ MatchEvents event }
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			if got.MatchEvents.Version != want || got.MatchEvents.Position != want {
				t.Fatalf("%s: resumed after position 3, event %+v; want position %d", p.g.name, got.MatchEvents, want)
			}
		}
		cancel()
	}
}
