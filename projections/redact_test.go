package projections

import (
	"encoding/json"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// These tests are the security boundary: what a viewer may see of a match.

// secretDrawn is a private event with a public shadow, as a card game would have.
type secretDrawn struct {
	Seat int    `json:"seat"`
	Card string `json:"card,omitempty"`
}

func (secretDrawn) EventType() string { return "SecretDrawn" }
func (e secretDrawn) Shadow() game.Event {
	return secretDrawn{Seat: e.Seat} // who drew, never what
}

// trapSet is a private event whose very type is a secret: others are shown unseen, the
// type of every such secret, in its place.
type trapSet struct {
	Square string `json:"square"`
}

type unseen struct{}

func (trapSet) EventType() string  { return "TrapSet" }
func (trapSet) Shadow() game.Event { return unseen{} }
func (unseen) EventType() string   { return "Unseen" }

// cardRules is just enough of a game to decode secretDrawn and trapSet.
type cardRules struct{ game.Rules }

func (cardRules) Events() *game.Codec {
	c := game.NewCodec()
	game.Register[secretDrawn](c, 1)
	game.Register[trapSet](c, 1)
	return c
}

// fourSeats is a 2v2 match: seats 0 and 2 are team 0, seats 1 and 3 team 1.
func fourSeats(status match.Status) match.State {
	return match.State{
		Status: status,
		Plan:   game.Plan{Seats: 4, Teams: []int{0, 1, 0, 1}},
		Seats:  []match.Seat{{PlayerID: "ann"}, {PlayerID: "bob"}, {PlayerID: "cid"}, {PlayerID: "dee"}},
	}
}

func TestWhoSeesWhat(t *testing.T) {
	live := fourSeats(match.Live)
	cases := []struct {
		vis  visibility.Visibility
		sees map[string]bool // player -> may see; "" is a spectator
	}{
		{visibility.Public, map[string]bool{"": true, "ann": true, "bob": true}},
		{visibility.Server, map[string]bool{"": false, "ann": false, "bob": false, "cid": false, "dee": false}},
		{visibility.Seat(0), map[string]bool{"": false, "ann": true, "bob": false, "cid": false, "dee": false}},
		{visibility.Team(1), map[string]bool{"": false, "ann": false, "bob": true, "cid": false, "dee": true}},
		{visibility.Team(0), map[string]bool{"": false, "ann": true, "bob": false, "cid": true, "dee": false}},
		{visibility.Seat(4), map[string]bool{"": false, "ann": false, "bob": false, "cid": false, "dee": false}},
	}
	for _, c := range cases {
		for player, want := range c.sees {
			if got := ViewerOf(live, player).CanSee(c.vis); got != want {
				t.Errorf("%q sees %q: got %v, want %v", player, c.vis, got, want)
			}
		}
	}
	// Once the match is over its secrets are revealed to everyone, for replay and review.
	over := fourSeats(match.Finished)
	if !ViewerOf(over, "").CanSee(visibility.Server) || !ViewerOf(over, "").CanSee(visibility.Seat(3)) {
		t.Errorf("a finished match hides something from a spectator")
	}
}

func TestHiddenEventsKeepOnlyTheirShadow(t *testing.T) {
	live := fourSeats(match.Live)
	payload, _ := json.Marshal(map[string]any{"seat": 1, "card": "poison", "salt": "00ff"})
	ev := eventstore.Event{Proposed: eventstore.Proposed{ID: "e1", Type: "SecretDrawn", SchemaVersion: 1, Payload: payload,
		CommandID: "bob-draw-1", Visibility: visibility.Seat(1)}, Stream: "match-m", Version: 9, Hash: "h9", PrevHash: "h8"}

	own := ViewerOf(live, "bob").Event(cardRules{}, ev)
	if own.Redacted || string(own.Payload) != string(payload) {
		t.Fatalf("the drawing seat must see its card: %+v", own)
	}
	for _, who := range []string{"", "ann", "cid", "dee"} {
		s := ViewerOf(live, who).Event(cardRules{}, ev)
		if !s.Redacted || s.CommandID != "" {
			t.Fatalf("%q: not redacted: %+v", who, s)
		}
		if string(s.Payload) != `{"seat":1}` {
			t.Fatalf("%q sees %s, want only the shadow {\"seat\":1}", who, s.Payload)
		}
		if s.Version != 9 || s.Type != "SecretDrawn" {
			t.Fatalf("%q: the envelope must stay so versions have no gap: %+v", who, s)
		}
	}
	// A shadow of another type stands in the event's place under its own type: nothing
	// of the event's type nor payload is shown.
	trap := ev
	trap.Type, trap.Visibility, trap.Payload = "TrapSet", visibility.Team(0), []byte(`{"square":"e4"}`)
	if s := ViewerOf(live, "cid").Event(cardRules{}, trap); s.Redacted || s.Type != "TrapSet" || string(s.Payload) != `{"square":"e4"}` {
		t.Fatalf("the layer's teammate sees %+v", s)
	}
	for _, who := range []string{"", "bob", "dee"} {
		if s := ViewerOf(live, who).Event(cardRules{}, trap); !s.Redacted || s.Type != "Unseen" || string(s.Payload) != `{}` || s.Version != 9 {
			t.Fatalf("%q sees a trap set as %s %s (redacted %v, version %d)", who, s.Type, s.Payload, s.Redacted, s.Version)
		}
	}
	// An event with no shadow shows nothing at all.
	seed := ev
	seed.Type, seed.Visibility = "SeedDrawn", visibility.Server
	seed.Payload = []byte(`{"seed":"c2VjcmV0"}`)
	if s := ViewerOf(live, "ann").Event(cardRules{}, seed); !s.Redacted || s.Payload != nil {
		t.Fatalf("a seated player sees a server-only event: %+v", s)
	}
	// An event whose payload cannot be decoded is hidden, not shown raw.
	broken := ev
	broken.Payload = []byte(`{"seat":"not a number","card":"poison"}`)
	if s := ViewerOf(live, "").Event(cardRules{}, broken); s.Payload != nil {
		t.Fatalf("an undecodable hidden event leaked %s", s.Payload)
	}
}

// A reviewer of disputes sees every event of a finished match whole, also those a stream
// showed others redacted before the end; of a match not over, what a spectator sees.
func TestAReviewerSeesEverythingOnlyOnceTheMatchIsOver(t *testing.T) {
	st := match.State{Status: match.Live, Seats: []match.Seat{{PlayerID: "ann"}, {PlayerID: "bob"}}, Plan: game.Plan{Seats: 2, Teams: []int{0, 1}}}
	live := ViewerOf(st, "rev").Reviewing()
	for _, vis := range []visibility.Visibility{visibility.Seat(0), visibility.Team(1), visibility.Server} {
		if live.CanSee(vis) || live.AsOf(0, 3).CanSee(vis) {
			t.Fatalf("a reviewer of a live match sees a %v event", vis)
		}
	}
	st.Status = match.Finished
	ended := ViewerOf(st, "rev").Reviewing()
	spectator := ViewerOf(st, "")
	for _, vis := range []visibility.Visibility{visibility.Seat(0), visibility.Team(1), visibility.Server} {
		if !ended.AsOf(10, 3).CanSee(vis) {
			t.Fatalf("a reviewer of a finished match does not see a %v event recorded before its end", vis)
		}
		if spectator.AsOf(10, 3).CanSee(vis) {
			t.Fatalf("a spectator's stream shows a %v event recorded before the end", vis)
		}
	}
	if p := ViewerOf(st, "ann").Reviewing(); len(p.Seats) != 0 || !p.Reviewer {
		t.Fatalf("a player reviewing its own match keeps its seats: %+v", p)
	}
}

// coveringRules is cardRules with hidden team streams, as Solwaris and Ajedrez Mágico
// doubles keep.
type coveringRules struct{ cardRules }

func (coveringRules) Covering(game.Plan) bool { return true }

// An event's position, as every viewer is shown it in every game, is its place in the
// match's own stream (its version), never the store's global position, which counts the
// events of every other stream, hidden ones too, and whose gaps would tell how many came
// between two of the match's; nor is the store's global hash shown.
func TestAnEventShowsItsPlaceInItsMatchAlone(t *testing.T) {
	for _, rules := range []game.Rules{nil, cardRules{}, coveringRules{}} {
		for _, st := range []match.State{fourSeats(match.Live), fourSeats(match.Finished)} {
			for _, player := range []string{"", "ann", "bob"} {
				for _, v := range []Viewer{ViewerOf(st, player), ViewerOf(st, player).Reviewing()} {
					for _, vis := range []visibility.Visibility{visibility.Public, visibility.Seat(0), visibility.Team(1), visibility.Server} {
						ev := eventstore.Event{Stream: "match-m", Version: 3, Position: 917, GlobalHash: "global",
							Proposed: eventstore.Proposed{Type: "SecretDrawn", SchemaVersion: 1, Payload: []byte(`{"seat":0,"card":"7h"}`), Visibility: vis}}
						s := v.Event(rules, ev)
						if s.Position != 3 || s.GlobalHash != "" {
							t.Fatalf("%T, %s, viewer %q (reviewer %v), %s: shown position %d, global hash %q; want 3 and none",
								rules, st.Status, player, v.Reviewer, vis, s.Position, s.GlobalHash)
						}
					}
				}
			}
		}
	}
}
