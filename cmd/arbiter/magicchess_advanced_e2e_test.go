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

// Ajedrez Mágico's advanced mode over the real API: reaction windows read and answered
// through GraphQL, secrets checked from outside, and the file verified.

// magicSeen is a match of Ajedrez Mágico as one caller reads it.
type magicSeen struct {
	Match struct {
		Status  string
		Phase   *string
		ToAct   []int
		Choices []string
		Result  *struct{ Reason string }
		State   struct {
			Phase string
			Board struct{ LegalMoves []string }
			Hand  []struct {
				Slot     int
				Playable bool
				Targets  [][]string
				Card     struct{ ID string }
			}
			Reaction *struct {
				Window      string
				Seat        int
				Triggers    []string
				Card        *string
				AnswersFrom time.Time
				Closes      time.Time
				Answering   bool
			}
		}
	}
}

const magicQuery = `query($m:ID!){match(id:$m){status phase toAct choices result{reason}
	state{... on MagicChessState{phase board{legalMoves} hand{slot playable targets card{id}}
	reaction{window seat triggers card answersFrom closes answering}}}}}`

// magicRead is the match as token reads it.
func (s *server) magicRead(t *testing.T, token, id string) magicSeen {
	t.Helper()
	var v magicSeen
	s.must(t, token, magicQuery, map[string]any{"m": id}, &v)
	return v
}

// magicAdvanced creates an advanced match with opts and seats the players of tokens in
// order ("bot" adds the house bot there); it returns its ID.
func (s *server) magicAdvanced(t *testing.T, opts string, tokens ...string) string {
	t.Helper()
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, tokens[0], `mutation{createMatch(input:{game:MAGIC_CHESS, mode:ADVANCED, options:[`+opts+`]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	s.seatAll(t, id, tokens)
	return id
}

// seatAll seats the players of tokens in match id in order, "bot" the house bot (added by
// tokens[0], who created the match).
func (s *server) seatAll(t *testing.T, id string, tokens []string) {
	t.Helper()
	for seat, tok := range tokens {
		if tok == "bot" {
			s.must(t, tokens[0], `mutation($m:ID!,$s:Int){addBot(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
			continue
		}
		s.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
}

// lateAnswer says whether resp refused a pass or a reaction because no window is open:
// what the rules answer when the window was lapsed by its timer between the client's
// read and its answer. The caller checks that the window it answered is indeed gone.
func lateAnswer(resp gqlResponse) bool {
	return resp.code() == "ILLEGAL_MOVE" && strings.Contains(resp.Errors[0].Message, "no reaction window is open")
}

// awaitGone waits for the window that closes at closes, whose answer resp refused as late
// (lateAnswer), to be gone from what read sees (the deadline of the window open, nil for
// none): the engine refused on the lapse recorded, which the read side applies next. A
// window still open after a minute was refused wrongly.
func (s *server) awaitGone(t *testing.T, resp gqlResponse, closes time.Time, read func() *time.Time) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; {
		if c := read(); c == nil || !c.Equal(closes) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("an answer to the window open until %s was refused: %+v", closes, resp.Errors)
		}
		time.Sleep(10 * time.Millisecond) // the read side applying the lapse
	}
}

// holds lists the catalog IDs of a hand.
func (v magicSeen) holds() []string {
	var out []string
	for _, h := range v.Match.State.Hand {
		out = append(out, h.Card.ID)
	}
	return out
}

// Ann, a client of the API, plays an advanced match against the house bot to its end:
// each of her actions is one her own reading of the match lists (the planning's choice, a
// legal move, a playable card, and in a reaction window a playable reaction or the pass);
// she reacts whenever a reaction of hers may be laid. The windows show their reading time
// (nobody to act) and then Ann as the one to act, until their deadline; the file verifies,
// windows, reactions and held cards included. Ann is dealt again until she holds a
// Counterspell or a Rewind, which she may lay after any card or any capture or check of
// the bot's, so that the match meets a reaction.
func TestAnAdvancedMagicChessMatchToTheEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	const opts = `{key:"clock", value:"0.5+0"}, {key:"reaction", value:"1"}`
	var id string
	for try := 0; ; try++ {
		id = srv.magicAdvanced(t, opts, ann, "bot")
		h := srv.magicRead(t, ann, id).holds()
		if slices.Contains(h, "counterspell") || slices.Contains(h, "rewind") {
			break
		}
		if try == 40 {
			t.Fatal("forty deals without a Counterspell nor a Rewind for Ann")
		}
		srv.must(t, ann, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	}
	rng := rand.New(rand.NewPCG(14, 2026))
	vars := map[string]any{"m": id}
	reactable, reacted, reads := 0, 0, 0
	for deadline := time.Now().Add(4 * time.Minute); ; {
		if time.Now().After(deadline) {
			t.Fatal("the match has not ended in four minutes")
		}
		v := srv.magicRead(t, ann, id)
		m := v.Match
		if m.Status == "FINISHED" {
			break
		}
		r := m.State.Reaction
		if m.Phase != nil && strings.HasPrefix(*m.Phase, "reaction-") {
			if r == nil || "reaction-"+r.Window != *m.Phase || r.Closes.Sub(r.AnswersFrom) != 800*time.Millisecond {
				t.Fatalf("phase %s with the window %+v", *m.Phase, r)
			}
			if !r.Answering {
				reads++
				if len(m.ToAct) != 0 {
					t.Fatalf("in the reading time %v are to act", m.ToAct)
				}
			}
		} else if r != nil {
			t.Fatalf("a window %+v in the phase %v", r, m.Phase)
		}
		if !slices.Contains(m.ToAct, 0) {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		var resp gqlResponse
		switch {
		case *m.Phase == "planning":
			resp = srv.post(t, ann, `mutation($m:ID!){act(matchId:$m, action:{choose:{option:"ready"}}){version}}`, vars)
		case r != nil:
			if r.Seat != 0 || !r.Answering || !slices.Equal(m.Choices, []string{"pass"}) {
				t.Fatalf("Ann is to act in the window %+v, choices %v", r, m.Choices)
			}
			passes := true
			for _, h := range m.State.Hand {
				if h.Playable {
					reactable, passes = reactable+1, false
					resp = srv.post(t, ann, `mutation($m:ID!,$s:Int,$t:[String!]){react(matchId:$m, slot:$s, targets:$t){version}}`,
						map[string]any{"m": id, "s": h.Slot, "t": h.Targets[rng.IntN(len(h.Targets))]})
					if len(resp.Errors) == 0 {
						reacted++
					}
					break
				}
			}
			if passes {
				resp = srv.post(t, ann, `mutation($m:ID!){passReaction(matchId:$m){version}}`, vars)
			}
			if lateAnswer(resp) {
				// The window lapsed at its deadline just before Ann's answer came: the
				// match moved on, and the read side shows it once it has applied the lapse.
				srv.awaitGone(t, resp, r.Closes, func() *time.Time {
					if w := srv.magicRead(t, ann, id).Match.State.Reaction; w != nil {
						return &w.Closes
					}
					return nil
				})
				continue
			}
		default:
			var playable []int
			for i, h := range m.State.Hand {
				if h.Playable {
					playable = append(playable, i)
				}
			}
			if len(playable) > 0 && (rng.IntN(4) == 0 || len(m.State.Board.LegalMoves) == 0) {
				h := m.State.Hand[playable[rng.IntN(len(playable))]]
				resp = srv.post(t, ann, `mutation($m:ID!,$s:Int,$t:[String!]){playCard(matchId:$m, slot:$s, targets:$t){version}}`,
					map[string]any{"m": id, "s": h.Slot, "t": h.Targets[rng.IntN(len(h.Targets))]})
			} else if moves := m.State.Board.LegalMoves; len(moves) > 0 {
				resp = srv.play(t, ann, id, moves[rng.IntN(len(moves))])
			} else {
				t.Fatalf("Ann is to act with no move nor card: %+v", m)
			}
		}
		// A refusal is the match moving on under Ann's feet (the bot, a timer): she reads
		// again. Anything else is a failure.
		if c := resp.code(); c != "" && c != "NOT_YOUR_TURN" && c != "CONFLICT" {
			t.Fatalf("Ann's action in %+v was refused: %+v", m, resp.Errors)
		}
	}
	count := map[string]int{}
	held, reason := 0, ""
	for after := 0; ; {
		var ev struct {
			Match struct {
				Result struct{ Reason string }
				Events []struct {
					Version int
					Type    string
					Data    map[string]any
				}
			}
		}
		srv.must(t, "", `query($m:ID!,$a:Int){match(id:$m){result{reason} events(after:$a, first:1000){version type data}}}`, map[string]any{"m": id, "a": after}, &ev)
		reason = ev.Match.Result.Reason
		for _, e := range ev.Match.Events {
			count[e.Type]++
			if e.Type == "CardPlayed" && e.Data["result"] == "held" {
				held++
			}
			after = e.Version
		}
		if len(ev.Match.Events) < 1000 {
			break
		}
	}
	t.Logf("ended by %s; Ann saw %d readings, reacted %d times of %d; events %v", reason, reads, reacted, reactable, count)
	w := count["ReactionWindowOpened"]
	switch {
	case w == 0:
		t.Fatal("no reaction window opened in a whole match")
	case count["ReactionReadingEnded"]+1 < w || count["ReactionPassed"]+count["ReactionPlayed"]+1 < w:
		t.Fatalf("%d windows, %d readings ended, %d passed, %d reactions", w, count["ReactionReadingEnded"], count["ReactionPassed"], count["ReactionPlayed"])
	case count["CardResolved"]+1 < held:
		t.Fatalf("%d cards held, %d resolved", held, count["CardResolved"])
	case reactable > 0 && count["ReactionPlayed"] == 0:
		t.Fatal("Ann could react and did, but no reaction was recorded")
	}
	srv.stop(t)
	verifyAll(t, db)
}

// No leak, from outside: Ann lays a card in matches where Bob holds a reaction he may lay
// at once (Counterspell, or Ward on a piece of his the card is aimed at) and in matches
// where he holds none he may lay; the window Ann and
// a spectator see is the same in both to the last field but the times (its kind, its seat,
// its reading time with nobody to act, then Bob to act until its deadline), and nothing
// Ann or the spectator receives, by query or by subscription, names a card of Bob's hand.
func TestReactionWindowsLeakNoHand(t *testing.T) {
	// The deals come from a seeded stream of random bytes (the twins' own), not from
	// crypto/rand, so that the deals the loop below meets are the same on every run: with
	// the system's randomness thirty deals without both kinds of hand was a failure by chance.
	seeded := twinOf(context.Background(), time.Now, &twinRandom{bySize: map[int]*rand.ChaCha8{}})
	srv := startServerIn(t, seeded, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	type shape struct {
		Phase, Window string
		ToAct         []int
		Seat          int
		Triggers      []string
		Card          string
		Reading, Span time.Duration
		Choices       []string
	}
	shapes := map[bool][]shape{} // by whether Bob could react at once
	for try := 0; len(shapes[true]) == 0 || len(shapes[false]) == 0; try++ {
		if try == 30 {
			t.Fatalf("thirty deals without both kinds of hand for Bob: %v", shapes)
		}
		t.Logf("deal %d", try+1)
		id := srv.magicAdvanced(t, `{key:"clock", value:"5+0"}, {key:"reaction", value:"2"}`, ann, bob)
		vars := map[string]any{"m": id}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		seen := srv.subscribe(t, ctx, "graphql-transport-ws", ann, id, 0)
		const updates = `subscription($m:ID!){matchUpdates(matchId:$m){version phase toAct choices moves hand{card{id}}
			cards{handSize discardPile{id}} state{... on MagicChessState{hand{card{id} reason} seats{handSize} reaction{window seat triggers card answering}}}}}`
		annUpdates := srv.subscribeRaw(t, ctx, "graphql-transport-ws", ann, updates, vars)
		spectUpdates := srv.subscribeRaw(t, ctx, "graphql-transport-ws", "", updates, vars)
		for _, tok := range []string{ann, bob} {
			srv.must(t, tok, `mutation($m:ID!){act(matchId:$m, action:{choose:{option:"ready"}}){version}}`, vars, nil)
		}
		bobs := srv.magicRead(t, bob, id).holds()
		a := srv.magicRead(t, ann, id)
		var card string
		for _, h := range a.Match.State.Hand {
			if h.Playable && len(h.Targets) > 0 {
				srv.must(t, ann, `mutation($m:ID!,$s:Int,$t:[String!]){playCard(matchId:$m, slot:$s, targets:$t){version}}`,
					map[string]any{"m": id, "s": h.Slot, "t": h.Targets[0]}, nil)
				card = h.Card.ID
				break
			}
		}
		if card == "" {
			t.Fatal("Ann has no card to lay at the first move")
		}
		read := func(token string) (magicSeen, shape) {
			v := srv.magicRead(t, token, id)
			m := v.Match
			r := m.State.Reaction
			if r == nil || m.Phase == nil {
				t.Fatalf("no window after Ann's card: %+v", m)
			}
			c := ""
			if r.Card != nil {
				c = *r.Card
			}
			return v, shape{Phase: *m.Phase, Window: r.Window, ToAct: m.ToAct, Seat: r.Seat, Triggers: r.Triggers, Card: c,
				Span: r.Closes.Sub(r.AnswersFrom), Choices: m.Choices}
		}
		_, reading := read(ann)
		_, spect := read("")
		if !reflect2(reading, spect) || len(reading.ToAct) != 0 || reading.Phase != "reaction-R1" || reading.Card != card {
			t.Fatalf("the reading time, as Ann sees it: %+v; as a spectator: %+v", reading, spect)
		}
		var answer shape
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the reading time never ended")
			}
			if _, answer = read(ann); len(answer.ToAct) > 0 {
				break
			}
		}
		b, _ := read(bob)
		counter := false // any reaction Bob may lay now: in an R1 window only a reaction is playable
		for _, h := range b.Match.State.Hand {
			counter = counter || h.Playable
		}
		answer.Card = "" // each match lays its own
		shapes[counter] = append(shapes[counter], answer)
		srv.must(t, bob, `mutation($m:ID!){passReaction(matchId:$m){version}}`, vars, nil)
		after := srv.magicRead(t, ann, id)
		if after.Match.State.Reaction != nil || len(after.Match.ToAct) != 1 { // Ann's move, after a card a move follows
			t.Fatalf("after Bob's pass: %+v", after.Match)
		}
		// Everything Ann and a spectator received names no card of Bob's.
		var full struct{ Match json.RawMessage }
		for _, tok := range []string{ann, ""} {
			srv.must(t, tok, `query($m:ID!){match(id:$m){phase toAct choices events(first:100){type data visibility}
				state{... on MagicChessState{moves hand{card{id}} seats{handSize discardPile{id} played{card{id} count}} reaction{card triggers}}}}}`, vars, &full)
			for _, c := range bobs {
				if strings.Contains(string(full.Match), `"`+c+`"`) {
					t.Fatalf("Bob's %s reaches a viewer who may not see it: %s", c, full.Match)
				}
			}
		}
		// Each subscription reaches the version after Bob's pass (a wait that ends with the
		// update that must come), and none of what it sent names a card of Bob's.
		var ver struct{ Match struct{ Version int } }
		srv.must(t, "", `query($m:ID!){match(id:$m){version}}`, vars, &ver)
		for who, ch := range map[string]<-chan json.RawMessage{"Ann": annUpdates, "a spectator": spectUpdates} {
			for last := 0; last < ver.Match.Version; {
				u, ok := <-ch
				if !ok {
					t.Fatalf("%s's matchUpdates ended at version %d, before %d", who, last, ver.Match.Version)
				}
				for _, c := range bobs {
					if strings.Contains(string(u), `"`+c+`"`) {
						t.Fatalf("Bob's %s reaches %s's matchUpdates: %s", c, who, u)
					}
				}
				var m struct{ MatchUpdates struct{ Version int } }
				if err := json.Unmarshal(u, &m); err != nil {
					t.Fatal(err)
				}
				last = m.MatchUpdates.Version
			}
		}
		cancel()
		for e := range seen {
			for _, c := range bobs {
				if strings.Contains(string(e.Data), `"`+c+`"`) {
					t.Fatalf("Bob's %s reaches Ann's subscription: %s %s", c, e.Type, e.Data)
				}
			}
		}
	}
	a, b := shapes[true][0], shapes[false][0]
	if !reflect2(a, b) || !slices.Equal(a.ToAct, []int{1}) || !slices.Equal(a.Choices, []string{"pass"}) || a.Span != 1600*time.Millisecond {
		t.Fatalf("the window differs with Bob's hand:\nholding a playable reaction: %+v\nholding none:                %+v", a, b)
	}
}

// reflect2 compares two shapes, the card laid aside (each match lays its own).
func reflect2[T any](a, b T) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
