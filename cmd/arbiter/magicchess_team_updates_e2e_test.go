package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A player who opens matchUpdates before it takes its seat watches its team's hidden
// stream from the moment it is seated, over both websocket protocols: its partner's
// covert signal (magic-2026.4) reaches it at once, with no public event to carry it. A
// spectator who subscribed as early is sent nothing of it.
func TestASeatTakenAfterSubscribingWatchesItsTeam(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	var tokens []string
	for _, name := range []string{"Ann", "Bob", "Cid", "Dee"} {
		_, tok := srv.register(t, name)
		tokens = append(tokens, tok)
	}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, tokens[0], `mutation{createMatch(input:{game:MAGIC_CHESS, options:[{key:"boards", value:"2"}]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	vars := map[string]any{"m": id}
	const q = `subscription($m:ID!){matchUpdates(matchId:$m){version mySeat state{... on MagicChessState{signals{seat signal}}}}}`
	type update struct {
		MatchUpdates struct {
			Version int
			MySeat  *int
			State   struct {
				Signals []struct {
					Seat   int
					Signal string
				}
			}
		}
	}
	protocols := []string{"graphql-transport-ws", "graphql-ws"}
	dee, spectators := map[string]<-chan json.RawMessage{}, map[string]<-chan json.RawMessage{}
	for _, p := range protocols {
		// Dee is not seated yet: each subscription is under way once its first view came.
		dee[p] = srv.subscribeRaw(t, ctx, p, tokens[3], q, vars)
		spectators[p] = srv.subscribeRaw(t, ctx, p, "", q, vars)
		for _, ch := range []<-chan json.RawMessage{dee[p], spectators[p]} {
			var u update
			if raw, ok := <-ch; !ok || json.Unmarshal(raw, &u) != nil || u.MatchUpdates.MySeat != nil {
				t.Fatalf("%s: the first view before the seats are taken: %s", p, raw)
			}
		}
	}
	srv.seatAll(t, id, tokens)
	var sent struct {
		Signal struct{ Match struct{ Version int } }
	}
	srv.must(t, tokens[0], `mutation($m:ID!){signal(matchId:$m, signal:SAVE_READY){match{version}}}`, vars, &sent)
	// Nothing public happens until Dee has read the signal on both protocols: only the
	// hidden stream can wake its subscriptions.
	for _, p := range protocols {
		for {
			raw, ok := <-dee[p]
			if !ok {
				t.Fatalf("%s: Dee's matchUpdates ended before the signal of her partner came", p)
			}
			var u update
			if err := json.Unmarshal(raw, &u); err != nil {
				t.Fatal(err)
			}
			if s := u.MatchUpdates.State.Signals; len(s) == 1 && s[0].Seat == 0 && s[0].Signal == "SAVE_READY" {
				if u.MatchUpdates.MySeat == nil || *u.MatchUpdates.MySeat != 3 || u.MatchUpdates.Version != sent.Signal.Match.Version {
					t.Fatalf("%s: Dee's view with the signal: %s", p, raw)
				}
				break
			}
		}
	}
	var ready struct {
		Act struct{ Match struct{ Version int } }
	}
	srv.must(t, tokens[1], `mutation($m:ID!){act(matchId:$m, action:{choose:{option:"ready"}}){match{version}}}`, vars, &ready)
	for _, p := range protocols {
		for {
			raw, ok := <-spectators[p]
			if !ok {
				t.Fatalf("%s: the spectator's matchUpdates ended", p)
			}
			if s := string(raw); strings.Contains(s, "SAVE_READY") || strings.Contains(s, `"seat":0,"signal"`) {
				t.Fatalf("%s: a spectator is sent team 0's signal: %s", p, s)
			}
			var u update
			if err := json.Unmarshal(raw, &u); err != nil {
				t.Fatal(err)
			}
			if u.MatchUpdates.Version >= ready.Act.Match.Version {
				break
			}
		}
	}
}
