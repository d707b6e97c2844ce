package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A reaction named by its card over the API, by react's cardId (no slot) and by act's
// react input: Ann lays a card, Bob, who holds a Counterspell, waits for the window to
// take answers and counters it. A reaction he does not hold, no card named, or a card ID
// with the slot of another card (react's and playCard's alike: the server plays neither
// the slot's card nor the named one) are refused with a typed error that changes nothing.
// It waits for each window's reading time (2 s) asleep: waitsOnTheClock.
func TestAReactionNamedByItsCard(t *testing.T) {
	waitsOnTheClock(t)
	// The deals come from a seeded stream of random bytes, so that the deals the loop
	// meets are the same on every run.
	seeded := twinOf(context.Background(), time.Now, &twinRandom{bySize: map[int]*rand.ChaCha8{}})
	srv := startServerIn(t, seeded, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	answers := []struct {
		how, mutation string
	}{
		{"react's cardId", `mutation($m:ID!){react(matchId:$m, cardId:"counterspell"){version}}`},
		{"act's react", `mutation($m:ID!){act(matchId:$m, action:{react:{card:"counterspell"}}){version}}`},
	}
	for try, done := 0, 0; done < len(answers); try++ {
		if try == 40 {
			t.Fatalf("forty deals gave Bob a Counterspell %d times, not %d", done, len(answers))
		}
		id := srv.magicAdvanced(t, `{key:"clock", value:"5+0"}, {key:"reaction", value:"10"}`, ann, bob)
		vars := map[string]any{"m": id}
		if !slices.Contains(srv.magicRead(t, bob, id).holds(), "counterspell") {
			srv.must(t, ann, `mutation($m:ID!){resign(matchId:$m){version}}`, vars, nil)
			continue
		}
		answer := answers[done]
		done++
		t.Run(answer.how, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			updates := srv.subscribeRaw(t, ctx, "graphql-transport-ws", bob, `subscription($m:ID!){matchUpdates(matchId:$m){version phase toAct}}`, vars)
			for _, tok := range []string{ann, bob} {
				srv.must(t, tok, `mutation($m:ID!){act(matchId:$m, action:{choose:{option:"ready"}}){version}}`, vars, nil)
			}
			version := func() int {
				var v struct{ Match struct{ Version int } }
				srv.must(t, "", `query($m:ID!){match(id:$m){version}}`, vars, &v)
				return v.Match.Version
			}
			var card string
			seen := srv.magicRead(t, ann, id)
			for _, h := range seen.Match.State.Hand {
				if h.Playable && len(h.Targets) > 0 {
					mismatched(t, srv, ann, id, version, h.Slot, h.Card.ID, h.Targets[0], seen.holds())
					srv.must(t, ann, `mutation($m:ID!,$s:Int,$t:[String!]){playCard(matchId:$m, slot:$s, targets:$t){version}}`,
						map[string]any{"m": id, "s": h.Slot, "t": h.Targets[0]}, nil)
					card = h.Card.ID
					break
				}
			}
			if card == "" {
				t.Fatal("Ann has no card to lay at the first move")
			}
			// The window takes answers once its reading time is over, which an update
			// brings (the reading's end is recorded).
			for {
				raw, ok := <-updates
				if !ok {
					t.Fatal("Bob's matchUpdates ended before the window took answers")
				}
				var u struct {
					MatchUpdates struct {
						Phase *string
						ToAct []int
					}
				}
				if err := json.Unmarshal(raw, &u); err != nil {
					t.Fatal(err)
				}
				if p := u.MatchUpdates.Phase; p != nil && *p == "reaction-R1" && slices.Equal(u.MatchUpdates.ToAct, []int{1}) {
					break
				}
			}
			before := version()
			reactions := []string{"counterspell", "rewind", "ward", "deflect", "last-stand", "miracle", "setback"}
			seen = srv.magicRead(t, bob, id)
			other, missing := -1, ""
			for _, h := range seen.Match.State.Hand {
				if !slices.Contains(reactions, h.Card.ID) {
					other = h.Slot
				}
			}
			for _, c := range reactions {
				if !slices.Contains(seen.holds(), c) {
					missing = c
					break
				}
			}
			if other < 0 || missing == "" {
				t.Fatalf("Bob holds %v: no card but reactions, or every reaction", seen.holds())
			}
			for _, bad := range []struct {
				what, query, code string
				args              map[string]any
			}{
				{"a reaction Bob does not hold", `mutation($m:ID!,$c:ID){react(matchId:$m, cardId:$c){version}}`, "ILLEGAL_MOVE", map[string]any{"c": missing}},
				{"no card named", `mutation($m:ID!){act(matchId:$m, action:{react:{}}){version}}`, "BAD_USER_INPUT", nil},
				// A card ID and the slot of another card: neither is laid, though Bob holds both.
				{"a card ID and the slot of another card", `mutation($m:ID!,$s:Int){react(matchId:$m, cardId:"counterspell", slot:$s){version}}`, "BAD_USER_INPUT", map[string]any{"s": other}},
				{"act: a card ID and the slot of another card", `mutation($m:ID!,$s:Int!){act(matchId:$m, action:{react:{card:"counterspell", slot:$s}}){version}}`, "BAD_USER_INPUT", map[string]any{"s": other}},
			} {
				args := map[string]any{"m": id}
				for k, v := range bad.args {
					args[k] = v
				}
				if r := srv.post(t, bob, bad.query, args); r.code() != bad.code {
					t.Fatalf("%s: answered %+v, want %s", bad.what, r.Errors, bad.code)
				}
				if v := version(); v != before {
					t.Fatalf("%s moved the match from version %d to %d", bad.what, before, v)
				}
			}
			srv.must(t, bob, answer.mutation, vars, nil)
			after := srv.magicRead(t, bob, id)
			if after.Match.State.Reaction != nil || slices.Contains(after.holds(), "counterspell") {
				t.Fatalf("after Bob's Counterspell: %+v", after.Match)
			}
			var evs struct {
				Match struct {
					Events []struct {
						Type string
						Data struct {
							Seat         int
							Card, Result string
						}
					}
				}
			}
			srv.must(t, "", `query($m:ID!,$a:Int){match(id:$m){events(after:$a, first:100){type data}}}`, map[string]any{"m": id, "a": before}, &evs)
			var played, resolved bool
			for _, e := range evs.Match.Events {
				switch e.Type {
				case "ReactionPlayed":
					played = e.Data.Seat == 1 && e.Data.Card == "counterspell"
				case "CardResolved":
					resolved = e.Data.Seat == 0 && e.Data.Card == card && e.Data.Result == "cancelled"
				}
			}
			if !played || !resolved {
				t.Fatalf("Bob's Counterspell against Ann's %s is recorded as %+v", card, evs.Match.Events)
			}
		})
		srv.must(t, ann, `mutation($m:ID!){resign(matchId:$m){version}}`, vars, nil)
	}
}

// mismatched checks that playCard (the mutation and act's input) naming the card of one
// slot with the slot of another is refused with BAD_USER_INPUT, the match unchanged: the
// slot's card, which is playable on targets, is not laid in the named card's place.
func mismatched(t *testing.T, srv *server, token, id string, version func() int, slot int, card string, targets []string, holds []string) {
	t.Helper()
	other := ""
	for _, c := range holds {
		if c != card {
			other = c
			break
		}
	}
	if other == "" {
		t.Fatalf("a hand of %v holds no card but %s", holds, card)
	}
	before := version()
	for _, q := range []string{
		`mutation($m:ID!,$c:ID,$s:Int,$t:[String!]){playCard(matchId:$m, cardId:$c, slot:$s, targets:$t){version}}`,
		`mutation($m:ID!,$c:ID,$s:Int!,$t:[String!]){act(matchId:$m, action:{playCard:{card:$c, slot:$s, targets:$t}}){version}}`,
	} {
		r := srv.post(t, token, q, map[string]any{"m": id, "c": other, "s": slot, "t": targets})
		if r.code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, "holds "+card+", not "+other) {
			t.Fatalf("%s with card %s and the slot %d of %s: answered %+v, want BAD_USER_INPUT naming both", q, other, slot, card, r.Errors)
		}
		if v := version(); v != before {
			t.Fatalf("a card named with another card's slot moved the match from version %d to %d", before, v)
		}
	}
}
