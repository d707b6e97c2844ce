package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/arbiter-games/arbiter/graph"
	"github.com/arbiter-games/arbiter/matchstream"
)

// These tests are attacks by a player with a free account (docs/api.md, "What an attacker
// was tried with (session 15)"): each found a leak, and fails if it comes back. Several
// attacks share one server, since this package's tests already take minutes.

// TestASpectatorDelayHoldsOnEveryPath: a match with a spectator delay holds its events
// back from anyone seated nowhere in it, on every path, not only the match's own fields:
// the cards a player has played (and the badges they unlock) did not wait, and a
// subscription's after told a spectator the match's live version by its refusal.
func TestASpectatorDelayHoldsOnEveryPath(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	annID, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	_, eve := srv.register(t, "Eve") // the attacker: a free account, seated nowhere
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:UNFAIR_CHESS, options:[{key:"spectatorDelay", value:"600"}]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	tokens := []string{ann, bob}
	cancels := []string{cancelRefusal(t, srv, eve, id)} // Eve's refusal, before the start then at each step
	var waiting struct{ Match struct{ Version int } }   // what a spectator reads until the start is 10 minutes old
	for seat, tok := range tokens {
		if seat == 1 {
			srv.must(t, "", `query($m:ID!){match(id:$m){version}}`, map[string]any{"m": id}, &waiting)
		}
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}

	// Ann plays a card, so that one is on the record of a match its spectators see as it
	// was created.
	playACard(t, srv, tokens, id)
	cancels = append(cancels, cancelRefusal(t, srv, eve, id))
	var live struct{ Match struct{ Version int } }
	srv.must(t, ann, `query($m:ID!){match(id:$m){version}}`, map[string]any{"m": id}, &live)

	type profile struct {
		Match  struct{ Version int }
		Player struct {
			CardsPlayed []struct{ Card struct{ ID string } }
			Badges      []struct{ ID string }
		}
	}
	const profileQuery = `query($m:ID!,$p:ID!){match(id:$m){version} player(id:$p){cardsPlayed{card{id}} badges{id}}}`
	for name, tok := range map[string]string{"a spectator": "", "Eve": eve} {
		var p profile
		srv.must(t, tok, profileQuery, map[string]any{"m": id, "p": annID}, &p)
		if p.Match.Version != waiting.Match.Version {
			t.Fatalf("%s reads version %d of a match delayed by 10 minutes, want %d, as it waited for Bob", name, p.Match.Version, waiting.Match.Version)
		}
		if len(p.Player.CardsPlayed) != 0 || len(p.Player.Badges) != 0 {
			t.Errorf("%s, held 10 minutes behind, reads on Ann's profile the card she has just played: %+v", name, p.Player)
		}

		// The versions a spectator may resume from are those it sees: a refusal that
		// names the match's live version, or a subscription accepted past the version
		// shown, would tell it how many events the delay holds back.
		code, msg := firstSubscriptionAnswer(t, ctx, srv, tok, `subscription($m:ID!,$a:Int){matchEvents(matchId:$m, after:$a){version}}`,
			map[string]any{"m": id, "a": live.Match.Version})
		if code != "BAD_USER_INPUT" || strings.Contains(msg, fmt.Sprintf("to %d", live.Match.Version)) {
			t.Errorf("%s subscribing after the live version %d: %s %q, want BAD_USER_INPUT naming the version shown alone", name, live.Match.Version, code, msg)
		}
		code, msg = firstSubscriptionAnswer(t, ctx, srv, tok, `subscription($m:ID!,$a:Int){replay(matchId:$m, after:$a){version}}`,
			map[string]any{"m": id, "a": live.Match.Version + 1})
		if code != "BAD_USER_INPUT" || strings.Contains(msg, fmt.Sprintf("to %d", live.Match.Version)) {
			t.Errorf("%s replaying after the version %d: %s %q, want BAD_USER_INPUT naming the version shown alone", name, live.Match.Version+1, code, msg)
		}
	}
	// A dispute's cites were checked against the match's events before its player was:
	// anyone's cite past the end named how many there are.
	r := srv.post(t, eve, `mutation($m:ID!){openDispute(matchId:$m, reason:"probe", cite:[100000]){dispute{id}}}`, map[string]any{"m": id})
	if r.code() != "FORBIDDEN" || strings.Contains(r.Errors[0].Message, fmt.Sprintf("to %d", live.Match.Version)) {
		t.Errorf("Eve disputing a match she does not play, citing event 100000: %+v, want FORBIDDEN naming no version", r.Errors)
	}

	// Over, and Ann asks for the rematch: to a spectator the match is still live, without
	// a rematch, and Ann's profile counts the card for nobody until the end is 10 minutes
	// old (TestCardsOfADelayedMatchCountOnceItsDelayIsOver sees it counted then). The
	// profile used to count it at the end, and match(id){rematch} named the rematch at
	// once: each told a spectator that the match had ended.
	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	var asked struct {
		Rematch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation($m:ID!){rematch(matchId:$m){match{id}}}`, map[string]any{"m": id}, &asked)
	rematch := asked.Rematch.Match.ID
	cancels = append(cancels, cancelRefusal(t, srv, eve, id))
	// The rematch, whose ID anyone derives from the match's, answers everyone held back
	// as a match that does not exist, on every surface, until the end is shown.
	for name, tok := range map[string]string{"a spectator": "", "Eve": eve} {
		if got, none := probeMatch(t, ctx, srv, tok, rematch), probeMatch(t, ctx, srv, tok, "nosuchmatch00000"); got != none {
			t.Errorf("%s probing the rematch of a match over a moment ago, delayed by 10 minutes, reads:\n%s\nwhere a match that does not exist reads:\n%s", name, got, none)
		}
	}
	for name, tok := range map[string]string{"a spectator": "", "Eve": eve} {
		var p struct {
			Match struct {
				Status  string
				Rematch *struct{ ID string }
			}
			Player struct {
				CardsPlayed []struct{ Card struct{ ID string } }
				Badges      []struct{ ID string }
			}
		}
		srv.must(t, tok, `query($m:ID!,$p:ID!){match(id:$m){status rematch{id}} player(id:$p){cardsPlayed{card{id}} badges{id}}}`,
			map[string]any{"m": id, "p": annID}, &p)
		if p.Match.Status != "OPEN" || p.Match.Rematch != nil {
			t.Errorf("%s reads the match delayed by 10 minutes, over a moment ago, as %s with the rematch %+v: want OPEN, as it waited for Bob, and none",
				name, p.Match.Status, p.Match.Rematch)
		}
		if len(p.Player.CardsPlayed) != 0 || len(p.Player.Badges) != 0 {
			t.Errorf("%s reads Ann's cards %+v and badges %+v at the end of a match delayed by 10 minutes: want none yet", name, p.Player.CardsPlayed, p.Player.Badges)
		}
	}
	var mine struct {
		Match struct{ Rematch *struct{ ID string } }
	}
	srv.must(t, bob, `query($m:ID!){match(id:$m){rematch{id}}}`, map[string]any{"m": id}, &mine)
	if mine.Match.Rematch == nil || mine.Match.Rematch.ID != rematch {
		t.Errorf("Bob, a player of the match, reads the rematch %+v, want %s, which Ann asked for", mine.Match.Rematch, rematch)
	}
	srv.must(t, bob, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": rematch}, nil)
	// cancelMatch told whoever was seated nowhere the match's live status.
	for i, c := range cancels {
		if c != cancels[0] {
			t.Errorf("Eve cancelling the match is refused %q, then at step %d %q: want one refusal, whatever the match's progress", cancels[0], i, c)
		}
	}
}

// probeMatch is what the caller of token reads of match id on the surfaces that take a
// match ID: the query, the lobby (listed, and as a cursor), a receipt, a subscription, a join and a move
// (the last two as a free account), with the ID written ID.
func probeMatch(t *testing.T, ctx context.Context, srv *server, token, id string) string {
	t.Helper()
	var out strings.Builder
	vars := map[string]any{"m": id}
	for _, q := range []string{
		`query($m:ID!){match(id:$m){id}}`,
		`query($m:ID!){matches(after:$m){id}}`,
		`{matches(first:500){id}}`,
		`query($m:ID!){receipt(matchId:$m){size}}`,
		`mutation($m:ID!){joinMatch(matchId:$m){seat}}`,
		`mutation($m:ID!){playMove(matchId:$m, move:"e4"){version}}`,
	} {
		r := srv.post(t, token, q, vars)
		fmt.Fprintf(&out, "%s: %s", q, r.Data)
		for _, e := range r.Errors {
			fmt.Fprintf(&out, " %s %q", e.Extensions["code"], e.Message)
		}
		out.WriteByte('\n')
	}
	code, msg := firstSubscriptionAnswer(t, ctx, srv, token, `subscription($m:ID!){matchEvents(matchId:$m){version}}`, vars)
	fmt.Fprintf(&out, "matchEvents: %s %q\n", code, msg)
	return strings.ReplaceAll(out.String(), id, "ID")
}

// cancelRefusal is the code and message that refuse the caller of token cancelling match id.
func cancelRefusal(t *testing.T, srv *server, token, id string) string {
	t.Helper()
	r := srv.post(t, token, `mutation($m:ID!){cancelMatch(matchId:$m){version}}`, map[string]any{"m": id})
	if len(r.Errors) == 0 {
		t.Fatalf("the match %s was cancelled", id)
	}
	return r.code() + ": " + r.Errors[0].Message
}

// playACard plays UnfairChess match id (tokens by seat) until its seat 0 has played a
// card, moving whenever the seat to act has none to play, and returns the card.
func playACard(t *testing.T, srv *server, tokens []string, id string) string {
	t.Helper()
	for step := 0; step < 40; step++ {
		v := readView(t, srv, tokens[0], id)
		if v.Match.Status != "LIVE" || v.Match.Turn == nil {
			t.Fatalf("step %d: the match is %s, turn %v", step, v.Match.Status, v.Match.Turn)
		}
		seat := *v.Match.Turn
		v = readView(t, srv, tokens[seat], id)
		if seat == 0 && (v.Match.Phase == nil || *v.Match.Phase != "move-after-card") {
			for _, h := range v.Match.Hand {
				if !h.Playable {
					continue
				}
				targets := []string{}
				if len(h.Targets) > 0 {
					targets = h.Targets[0]
				}
				srv.must(t, tokens[0], `mutation($m:ID!,$s:Int,$t:[String!]){playCard(matchId:$m, slot:$s, targets:$t){version}}`,
					map[string]any{"m": id, "s": h.Slot, "t": targets}, nil)
				return h.Card.ID
			}
		}
		if len(v.Match.Board.LegalMoves) == 0 {
			t.Fatalf("step %d: seat %d has no legal move and no card was played", step, seat)
		}
		if r := srv.play(t, tokens[seat], id, v.Match.Board.LegalMoves[0]); len(r.Errors) > 0 {
			t.Fatalf("step %d: seat %d playing %s: %+v", step, seat, v.Match.Board.LegalMoves[0], r.Errors)
		}
	}
	t.Fatal("seat 0 found no card to play in 40 turns")
	return ""
}

// TestCardsOfADelayedMatchCountOnceItsDelayIsOver: a player's profile counts the cards of
// a match with a spectator delay once the match's end is as old as the delay, when the
// match shows its end to a spectator, and not sooner; its rematch shows then too.
func TestCardsOfADelayedMatchCountOnceItsDelayIsOver(t *testing.T) {
	const delay = 2 * time.Second
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	annID, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	_, eve := srv.register(t, "Eve")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:UNFAIR_CHESS, options:[{key:"spectatorDelay", value:"2"}]}){match{id}}}`, nil, &c)
	id, tokens := c.CreateMatch.Match.ID, []string{ann, bob}
	for seat, tok := range tokens {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	played := playACard(t, srv, tokens, id)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ended := time.Now() // the end's event is recorded after it
	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	srv.must(t, ann, `mutation($m:ID!){rematch(matchId:$m){seat}}`, map[string]any{"m": id}, nil)
	for {
		var p struct {
			Match struct {
				Status  string
				Rematch *struct{ ID string }
			}
			Player struct {
				CardsPlayed []struct{ Card struct{ ID string } }
			}
		}
		srv.must(t, eve, `query($m:ID!,$p:ID!){match(id:$m){status rematch{id}} player(id:$p){cardsPlayed{card{id}}}}`,
			map[string]any{"m": id, "p": annID}, &p)
		read := time.Now()
		shown := len(p.Player.CardsPlayed) > 0 || p.Match.Rematch != nil || p.Match.Status == "FINISHED"
		if shown && read.Before(ended.Add(delay)) {
			t.Fatalf("%v after the end, before its delay of %v, Eve reads the match %s, its rematch %+v and Ann's cards %+v",
				read.Sub(ended), delay, p.Match.Status, p.Match.Rematch, p.Player.CardsPlayed)
		}
		if len(p.Player.CardsPlayed) > 0 {
			// The fields of one request may each read the clock: the match is read again
			// after, so that the boundary falls between two reads, not within one.
			var after struct{ Match struct{ Status string } }
			srv.must(t, eve, `query($m:ID!){match(id:$m){status}}`, map[string]any{"m": id}, &after)
			if p.Player.CardsPlayed[0].Card.ID != played || after.Match.Status != "FINISHED" {
				t.Fatalf("Eve reads Ann's cards %+v, then the match %s: want %s, then FINISHED", p.Player.CardsPlayed, after.Match.Status, played)
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("Ann's card does not count a minute after the end of a match delayed by %v", delay)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// firstSubscriptionAnswer opens a websocket (graphql-transport-ws) as token and returns
// the code and message of the subscription's error, or "" and the data of its first
// result; "ACCEPTED" when the subscription is taken and sends nothing within 30 seconds
// (a refusal comes at once: the wait only bounds a failing test).
func firstSubscriptionAnswer(t *testing.T, ctx context.Context, srv *server, token, query string, vars map[string]any) (code, msg string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.url, "http")+"/graphql", &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	init := map[string]any{"type": "connection_init"}
	if token != "" {
		init["payload"] = map[string]any{"Authorization": "Bearer " + token}
	}
	var ack struct{ Type string }
	if err := wsjson.Write(ctx, conn, init); err != nil {
		t.Fatal(err)
	}
	if err := wsjson.Read(ctx, conn, &ack); err != nil || ack.Type != "connection_ack" {
		t.Fatalf("connection_init answered %+v, %v", ack, err)
	}
	if err := wsjson.Write(ctx, conn, map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{"query": query, "variables": vars}}); err != nil {
		t.Fatal(err)
	}
	for {
		var m struct {
			Type    string
			Payload json.RawMessage
		}
		if err := wsjson.Read(ctx, conn, &m); err != nil {
			if ctx.Err() != nil {
				return "ACCEPTED", "no answer in 30 seconds"
			}
			t.Fatalf("waiting for the subscription's answer: %v", err)
		}
		switch m.Type {
		case "error":
			var errs []struct {
				Message    string
				Extensions struct{ Code string }
			}
			if err := json.Unmarshal(m.Payload, &errs); err != nil || len(errs) == 0 {
				t.Fatalf("error payload %s: %v", m.Payload, err)
			}
			return errs[0].Extensions.Code, errs[0].Message
		case "next":
			var r gqlResponse
			if err := json.Unmarshal(m.Payload, &r); err != nil {
				t.Fatal(err)
			}
			if len(r.Errors) > 0 {
				return r.code(), r.Errors[0].Message
			}
			return "", string(r.Data)
		}
	}
}

// TestADelayedMatchIsFoldedOncePerRelease: a spectator's view of a match with a spectator
// delay is folded from the store, and it was folded again for every field that showed
// the match: one request of a hundred aliases of match(id), or of lobby pages that list
// it, read and replayed the match's whole stream a hundred times, at a free account's
// will. The view is now folded once each time it moves, whoever asks.
func TestADelayedMatchIsFoldedOncePerRelease(t *testing.T) {
	srv, store := countingServer(t, false)

	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id, waiting := delayedMatchWaiting(t, srv, white, black, "600")
	for i, mv := range []string{"e4", "e5", "Nf3", "Nc6"} {
		if r := srv.play(t, []string{white, black}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
	}
	name := matchstream.Name(id)
	store.stream.Store(&name)

	const aliases = 50 // each of two fields: the most aliases an operation may have
	q := `query($m:ID!){` + aliased(aliases, "m%[1]d: match(id:$m){version} l%[1]d: matches(status:OPEN, first:5){version} ") + "}"
	var got map[string]json.RawMessage
	srv.must(t, "", q, map[string]any{"m": id}, &got)
	for k, raw := range got {
		if strings.Contains(string(raw), `"version":`) && !strings.Contains(string(raw), fmt.Sprintf(`"version":%d}`, waiting)) {
			t.Fatalf("%s shows a spectator %s of a match delayed by 10 minutes, want version %d", k, raw, waiting)
		}
	}
	if n := store.reads.Load(); n > 2 {
		t.Errorf("one spectator's request of %d aliases read the delayed match's stream %d times; want it folded once", 2*aliases, n)
	}
	t.Logf("%d reads of the match's stream for %d aliases", store.reads.Load(), 2*aliases)
}

// TestAReceiptReadsTheMatchOnce: a receipt is the signed head of the tree over a match's
// events, and each field that asked for one read and hashed the whole match again, so a
// request of a hundred aliases of receipt (or eventProof, newerReceipt) read a long
// match a hundred times. The tree of a match's first n events is now built once.
func TestAReceiptReadsTheMatchOnce(t *testing.T) {
	srv, store := countingServer(t, true)

	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	for i, mv := range []string{"e4", "e5", "Nf3", "Nc6"} {
		if r := srv.play(t, []string{white, black}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
	}
	version := srv.versionOf(t, id)
	name := matchstream.Name(id)
	store.stream.Store(&name)

	const aliases = 100
	q := `query($m:ID!){` + aliased(aliases, "r%[1]d: receipt(matchId:$m){size root} ") + "}"
	var got map[string]struct {
		Size int
		Root string
	}
	srv.must(t, "", q, map[string]any{"m": id}, &got)
	want := got["r0"]
	for k, r := range got {
		if r != want || r.Size != version {
			t.Fatalf("%s is %+v, r0 %+v: every alias signs the same head of the whole match", k, r, want)
		}
	}
	if n := store.reads.Load(); n > 1 {
		t.Errorf("one request of %d receipts read the match's stream %d times; want once", aliases, n)
	}
	t.Logf("%d reads of the match's stream for %d receipts", store.reads.Load(), aliases)
}

// countingServer is a real server on an SQLite file whose store counts the reads of one
// stream (countingStore), signing receipts when signs is true.
func countingServer(t *testing.T, signs bool) (*server, *countingStore) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	sqlite, err := openStore(ctx, filepath.Join(dir, "arbiter.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sqlite.Close() })
	cfg := appConfig{limits: graph.Limits{Log: slog.New(slog.DiscardHandler)}}
	if signs {
		if cfg.key, _, err = signingKey(filepath.Join(dir, "receipts.key")); err != nil {
			t.Fatal(err)
		}
	}
	store := &countingStore{Store: sqlite}
	a, err := startApp(ctx, store, cfg, cfg.limits.Log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.stop)
	ts := httptest.NewServer(a.handler())
	t.Cleanup(ts.Close)
	return &server{url: ts.URL}, store
}
