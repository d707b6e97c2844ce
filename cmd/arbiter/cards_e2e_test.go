package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
)

// These tests play UnfairChess over the real API: a server on a free port with an SQLite
// file, two players and a spectator over HTTP and websockets. The players are seeded
// random bots that read their hand's playable cards and legal targets from the API, so
// every card the deal brings gets played through every layer.

// cardsView is what a player reads before acting.
type cardsView struct {
	Match struct {
		Status  string
		Turn    *int
		Phase   *string
		Version int
		Hand    []struct {
			Slot     int
			Playable bool
			Targets  [][]string
			Reason   *string
			Card     struct{ ID, Cost string }
		}
		Cards []struct {
			Seat, HandSize, DeckSize int
			DiscardPile              []struct{ ID string }
		}
		Board *struct {
			Fen        string
			InCheck    bool
			LegalMoves []string
		}
		Result *struct {
			Winner *int
			Reason string
		}
	}
}

const cardsViewQuery = `query($m:ID!){match(id:$m){status turn phase version
  hand{slot playable targets reason card{id cost}}
  cards{seat handSize deckSize discardPile{id}}
  board{fen inCheck legalMoves marks{square kind seat}}
  result{winner reason}}}`

// everythingQuery is every field of a match that a viewer may read, with the events after
// a version: what the transcripts keep.
const everythingQuery = `query($m:ID!,$a:Int){match(id:$m){status turn toAct phase version mySeat moves pgn drawOfferBy seed seedCommitment
  hand{slot playable targets reason card{id nameFr nameEn cost}}
  cards{seat handSize deckSize discardPile{id} played{card{id} count}}
  board{fen inCheck legalMoves marks{square kind seat note} checked}
  result{winner reason}
  events(after:$a){version type data redacted visibility}}}`

// transcript is everything one viewer received while the match was live.
type transcript struct {
	mu      sync.Mutex
	queries []json.RawMessage // everythingQuery, at each step
	updates []json.RawMessage // matchUpdates
	events  map[int]wsEvent   // by version, from its matchEvents subscription
}

func (tr *transcript) addUpdate(d json.RawMessage) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.updates = append(tr.updates, d)
}

func (tr *transcript) addQuery(d json.RawMessage) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.queries = append(tr.queries, d)
}

// follow records a subscription's events until it ends.
func (tr *transcript) follow(ch <-chan wsEvent, done *sync.WaitGroup) {
	tr.events = map[int]wsEvent{}
	done.Add(1)
	go func() {
		defer done.Done()
		for ev := range ch {
			tr.mu.Lock()
			tr.events[ev.Version] = ev
			tr.mu.Unlock()
		}
	}()
}

func TestUnfairChessOverGraphQL(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	cardIDs := checkCatalog(t, srv)

	annID, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:UNFAIR_CHESS, rated:true}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	tokens := []string{ann, bob}
	for seat, tok := range tokens {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	viewers := map[string]*transcript{"ann": {}, "bob": {}, "spectator": {}}
	var subs sync.WaitGroup
	viewers["ann"].follow(srv.subscribe(t, ctx, "graphql-transport-ws", ann, id, 0), &subs)
	viewers["bob"].follow(srv.subscribe(t, ctx, "graphql-ws", bob, id, 0), &subs)
	viewers["spectator"].follow(srv.subscribe(t, ctx, "graphql-transport-ws", "", id, 0), &subs)
	viewerTokens := map[string]string{"ann": ann, "bob": bob, "spectator": ""}
	updateQuery := `subscription($m:ID!){matchUpdates(matchId:$m){status version hand{card{id}} cards{handSize deckSize discardPile{id}} board{fen marks{square kind}} moves}}`
	updates := map[string]<-chan json.RawMessage{
		"bob":       srv.subscribeRaw(t, ctx, "graphql-ws", bob, updateQuery, map[string]any{"m": id}),
		"spectator": srv.subscribeRaw(t, ctx, "graphql-transport-ws", "", updateQuery, map[string]any{"m": id}),
	}
	for name, ch := range updates {
		subs.Add(1)
		go func() {
			defer subs.Done()
			for data := range ch {
				viewers[name].addUpdate(data)
			}
		}()
	}

	rng := rand.New(rand.NewPCG(20261130, 4))
	cardsPlayed, moves, lastVersion, cardsWithMove := 0, 0, 0, 0
	// 400 steps, some 50 cards; under the race detector 150, some 20: what it watches, the
	// hub, the subscriptions and the read side, runs alike on each step, and 250 more of
	// them were 15 s of CI's race step for no path the first 150 do not take.
	steps := 400
	if raceDetector {
		steps = 150
	}
	for step := 0; step < steps; step++ {
		var v cardsView
		for name, tok := range viewerTokens { // everyone looks; what they see is kept
			r := srv.post(t, tok, everythingQuery, map[string]any{"m": id, "a": max(0, lastVersion-8)})
			if len(r.Errors) > 0 {
				t.Fatalf("%s's view: %+v", name, r.Errors)
			}
			viewers[name].addQuery(r.Data)
		}
		if v = readView(t, srv, tokens[0], id); v.Match.Status == "FINISHED" {
			break
		}
		seat := *v.Match.Turn
		v = readView(t, srv, tokens[seat], id)
		lastVersion = v.Match.Version
		if len(v.Match.Hand) == 0 && v.Match.Cards[seat].HandSize > 0 {
			t.Fatalf("seat %d holds %d cards but its own hand reads empty", seat, v.Match.Cards[seat].HandSize)
		}
		playable := v.Match.Hand[:0:0]
		for _, h := range v.Match.Hand {
			if h.Playable {
				playable = append(playable, h)
			}
		}
		phase := ""
		if v.Match.Phase != nil {
			phase = *v.Match.Phase
		}
		cardTurn := len(playable) > 0 && (rng.IntN(3) == 0 || len(v.Match.Board.LegalMoves) == 0) && phase != "move-after-card"
		var r gqlResponse
		if cardTurn {
			h := playable[rng.IntN(len(playable))]
			targets := []string{}
			if len(h.Targets) > 0 {
				targets = h.Targets[rng.IntN(len(h.Targets))]
			}
			const playCard = `mutation($m:ID!,$s:Int,$t:[String!],$mv:String){playCard(matchId:$m, slot:$s, targets:$t, move:$mv){version}}`
			if h.Card.Cost == "ADDS_TO_MOVE" && rng.IntN(2) == 0 && len(v.Match.Board.LegalMoves) > 0 {
				// The card and its move in one command: all of it, or nothing when the
				// move is refused after the card.
				mv := v.Match.Board.LegalMoves[rng.IntN(len(v.Match.Board.LegalMoves))]
				r = srv.post(t, tokens[seat], playCard, map[string]any{"m": id, "s": h.Slot, "t": targets, "mv": mv})
				if len(r.Errors) == 0 {
					cardsPlayed++
					moves++
					cardsWithMove++
					continue
				}
				if after := readView(t, srv, tokens[seat], id); r.code() != "ILLEGAL_MOVE" || after.Match.Version != v.Match.Version {
					t.Fatalf("%s with the move %s: %+v, and the match went from version %d to %d", h.Card.ID, mv, r.Errors, v.Match.Version, after.Match.Version)
				}
			}
			r = srv.post(t, tokens[seat], playCard, map[string]any{"m": id, "s": h.Slot, "t": targets})
			if len(r.Errors) > 0 {
				t.Fatalf("seat %d playing %s on %v, listed as playable: %+v", seat, h.Card.ID, targets, r.Errors)
			}
			cardsPlayed++
			continue
		}
		if len(v.Match.Board.LegalMoves) == 0 {
			t.Fatalf("seat %d must act but has no legal move and no playable card, and the match is live: %+v", seat, v.Match)
		}
		mv := pickMove(v.Match.Board.Fen, v.Match.Board.LegalMoves, rng)
		if r = srv.play(t, tokens[seat], id, mv); len(r.Errors) > 0 {
			t.Fatalf("seat %d playing %s, listed as legal in %s: %+v", seat, mv, v.Match.Board.Fen, r.Errors)
		}
		moves++
	}
	v := readView(t, srv, ann, id)
	if v.Match.Status != "FINISHED" {
		srv.must(t, ann, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
		v = readView(t, srv, ann, id)
	}
	t.Logf("finished after %d moves and %d cards (%d with their move in the same command): %s", moves, cardsPlayed, cardsWithMove, v.Match.Result.Reason)
	if cardsPlayed == 0 {
		t.Fatalf("no card was played in %d moves: the bots never found a playable card", moves)
	}

	// The whole match, as anyone sees it now that it is over: every secret revealed.
	var full struct {
		Match struct {
			Version int
			Events  []wsEvent
		}
		Player struct {
			CardsPlayed []struct {
				Card  struct{ ID string }
				Count int
			}
			Badges []struct{ ID string }
		}
	}
	srv.must(t, "", `query($m:ID!,$p:ID!){match(id:$m){version events(first:1000){version type data hash redacted visibility}} player(id:$p){cardsPlayed{card{id} count} badges{id}}}`,
		map[string]any{"m": id, "p": annID}, &full)
	if len(full.Match.Events) != full.Match.Version {
		t.Fatalf("%d events read, the match has %d", len(full.Match.Events), full.Match.Version)
	}
	annCards := 0
	for _, x := range full.Player.CardsPlayed {
		annCards += x.Count
	}
	if annCards == 0 {
		t.Fatalf("Ann's cardsPlayed is empty after a match with %d cards played", cardsPlayed)
	}
	// Her profile shows, to anyone, the badge her first card unlocked (docs/economy.md).
	if !slices.ContainsFunc(full.Player.Badges, func(b struct{ ID string }) bool { return b.ID == "first-card" }) {
		t.Fatalf("Ann played %d cards and her profile shows the badges %+v, not first-card", annCards, full.Player.Badges)
	}
	subs.Wait() // every subscription completes once the finished match has been sent
	checkSecrets(t, full.Match.Events, viewers, cardIDs)
	checkLateStreams(t, ctx, srv, id, map[string]string{"ann": ann, "spectator": ""}, viewers)

	// The file reproduces the match exactly.
	srv.stop(t)
	if last, out := lastLine(t, "verify", "--db", db, "--match", id); !strings.HasPrefix(last, "1 matches") || strings.Contains(out, "MISMATCH") {
		t.Fatalf("verify:\n%s", out)
	}
	// The replay tool shows the final board and every move and card.
	_, out := lastLine(t, "replay", "--db", db, "--match", id)
	if !strings.Contains(out, "status: FINISHED") || !strings.Contains(out, "    a b c d e f g h") || !strings.Contains(out, "FEN: "+v.Match.Board.Fen) || !strings.Contains(out, "1. ") {
		t.Fatalf("replay:\n%s", out)
	}
}

// checkLateStreams subscribes again from version 0 once the match is over, as each viewer,
// and wants every event exactly as the live subscription received it: a stream shows each
// event as of its version (redacted before the end, revealed after), so what a subscriber
// gets never depends on when it reads, and one lagging across the end learns no secret.
func checkLateStreams(t *testing.T, ctx context.Context, srv *server, id string, tokens map[string]string, viewers map[string]*transcript) {
	t.Helper()
	for name, tok := range tokens {
		late := map[int]wsEvent{}
		for ev := range srv.subscribe(t, ctx, "graphql-ws", tok, id, 0) {
			if _, dup := late[ev.Version]; dup {
				t.Fatalf("%s's late stream sent version %d twice", name, ev.Version)
			}
			late[ev.Version] = ev
		}
		live := viewers[name].events
		if len(late) != len(live) {
			t.Fatalf("%s's late stream has %d events, the live one had %d", name, len(late), len(live))
		}
		for v, want := range live {
			got := late[v]
			if got.Redacted != want.Redacted || got.Type != want.Type || !jsonEqual(got.Data, want.Data) {
				t.Errorf("%s's version %d (%s, %s): live redacted=%v %s, late redacted=%v %s",
					name, v, want.Type, want.Visibility, want.Redacted, want.Data, got.Redacted, got.Data)
			}
		}
	}
}

// readView reads the match as a player sees it.
func readView(t *testing.T, srv *server, token, id string) cardsView {
	t.Helper()
	var v cardsView
	srv.must(t, token, cardsViewQuery, map[string]any{"m": id}, &v)
	return v
}

// pickMove prefers a move that mates on the board, then a capture, then any move: enough
// for random bots to finish some games.
func pickMove(fen string, legal []string, rng *rand.Rand) string {
	pos, err := chess.ParseFEN(fen)
	if err != nil {
		return legal[rng.IntN(len(legal))]
	}
	var captures []string
	for _, uci := range legal {
		m, err := pos.ParseMove(uci)
		if err != nil {
			continue // a move only the cards' restrictions allow: the board alone does not know it
		}
		after := pos
		after.Play(m)
		if after.InCheck() && len(after.LegalMoves(nil)) == 0 {
			return uci
		}
		if _, ok := pos.PieceAt(m.To()); ok {
			captures = append(captures, uci)
		}
	}
	if len(captures) > 0 && rng.IntN(2) == 0 {
		return captures[rng.IntN(len(captures))]
	}
	return legal[rng.IntN(len(legal))]
}

func checkCatalog(t *testing.T, srv *server) map[string]bool {
	t.Helper()
	var cat struct {
		Cards []struct {
			ID, NameFr, NameEn, Group, Rarity, Cost, Targets, TextFr, TextEn string
			Copies                                                           int
		}
	}
	srv.must(t, "", `{cards(game: UNFAIR_CHESS){id nameFr nameEn group rarity copies cost targets textFr textEn}}`, nil, &cat)
	rarity, cost, groups, ids := map[string]int{}, map[string]int{}, map[string]bool{}, map[string]bool{}
	for _, k := range cat.Cards {
		rarity[k.Rarity]++
		cost[k.Cost]++
		groups[k.Group] = true
		ids[k.ID] = true
		if k.NameFr == "" || k.NameEn == "" || k.TextFr == "" || k.TextEn == "" || k.Copies < 1 {
			t.Errorf("card %s is missing a name, a text or copies: %+v", k.ID, k)
		}
	}
	if len(cat.Cards) != 58 || len(ids) != 58 || len(groups) != 7 {
		t.Fatalf("the catalog has %d cards (%d IDs) in %d groups, want 58 in 7", len(cat.Cards), len(ids), len(groups))
	}
	if want := map[string]int{"COMMON": 31, "RARE": 24, "LEGENDARY": 3}; !reflect.DeepEqual(rarity, want) {
		t.Errorf("rarities %v, want %v", rarity, want)
	}
	if want := map[string]int{"REPLACES_MOVE": 47, "ADDS_TO_MOVE": 11}; !reflect.DeepEqual(cost, want) {
		t.Errorf("costs %v, want %v", cost, want)
	}
	var chessCards struct{ Cards []struct{ ID string } }
	srv.must(t, "", `{cards(game: CHESS){id}}`, nil, &chessCards)
	if len(chessCards.Cards) != 0 {
		t.Errorf("classic chess has no cards, the API lists %d", len(chessCards.Cards))
	}
	return ids
}

// checkSecrets is the security boundary seen from outside: it compares what each viewer
// received while the match was live with the whole truth revealed at the end.
//   - The deal is server-only and each draw private to its seat: the rules' visibilities
//     are checked on the event types that must have them.
//   - A viewer saw an event in full exactly when its visibility allows it (public, or the
//     viewer's own seat), and then saw exactly the truth.
//   - Otherwise it saw nothing, or a shadow: some of the truth's fields with the same
//     values, never all of them.
//   - A spectator never read a hand; the event stream of a match read as a query agrees.
func checkSecrets(t *testing.T, truth []wsEvent, viewers map[string]*transcript, cardIDs map[string]bool) {
	t.Helper()
	seatOf := map[string]string{"ann": "seat:0", "bob": "seat:1", "spectator": ""}
	hidden := map[string]int{}
	for _, want := range truth {
		switch want.Type {
		case "DeckShuffled", "SeedDrawn":
			if want.Visibility != "server" {
				t.Fatalf("version %d (%s) is visible to %q: the deal and the seed are the server's alone", want.Version, want.Type, want.Visibility)
			}
		case "CardDrawn", "CardsRevealed":
			var d struct{ Seat int }
			_ = json.Unmarshal(want.Data, &d)
			if want.Type == "CardDrawn" && want.Visibility != fmt.Sprintf("seat:%d", d.Seat) {
				t.Fatalf("version %d: seat %d's draw is visible to %q", want.Version, d.Seat, want.Visibility)
			}
			if want.Visibility == "public" {
				t.Fatalf("version %d (%s) is public: %s", want.Version, want.Type, want.Data)
			}
		}
		if holdsDeck(want.Data) && want.Visibility != "server" {
			t.Fatalf("version %d (%s) holds a deck order and is visible to %q", want.Version, want.Type, want.Visibility)
		}
		for name, tr := range viewers {
			got, ok := tr.events[want.Version]
			if !ok {
				t.Fatalf("%s's subscription missed version %d (%s)", name, want.Version, want.Type)
			}
			if got.Hash != want.Hash || got.Type != want.Type || got.Visibility != want.Visibility {
				t.Fatalf("%s: version %d is %s %s %s, the store has %s %s %s", name, want.Version, got.Type, got.Visibility, got.Hash, want.Type, want.Visibility, want.Hash)
			}
			maySee := want.Visibility == "public" || want.Visibility == seatOf[name]
			switch {
			case maySee && got.Redacted:
				t.Fatalf("%s may see version %d (%s, %s) and got it redacted", name, want.Version, want.Type, want.Visibility)
			case maySee && !jsonEqual(got.Data, want.Data):
				t.Fatalf("%s saw version %d (%s) as %s, the truth is %s", name, want.Version, want.Type, got.Data, want.Data)
			case !maySee && !got.Redacted:
				t.Fatalf("%s may not see version %d (%s, %s) and got it in full: %s", name, want.Version, want.Type, want.Visibility, got.Data)
			case !maySee:
				checkShadow(t, name, want, got)
				hidden[name]++
			}
		}
	}
	for _, name := range []string{"ann", "bob", "spectator"} {
		if hidden[name] == 0 {
			t.Fatalf("nothing was hidden from %s during the match: the deal and the other seat's draws must be", name)
		}
	}
	for name, tr := range viewers {
		own := seatOf[name]
		reads := 0
		for i, raw := range slices.Concat(tr.queries, tr.updates) {
			var r map[string]map[string]any
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatal(err)
			}
			m := r["match"]
			if m == nil {
				m = r["matchUpdates"]
			}
			if m["status"] == "FINISHED" {
				continue // every secret is revealed at the end
			}
			// No card anywhere but where it is public or the viewer's own.
			if where := cardsOutside(m, "match", own, cardIDs); where != "" {
				t.Fatalf("%s read a card at %s: %s", name, where, raw)
			}
			version := int(m["version"].(float64))
			var hand []string
			if h, ok := m["hand"].([]any); ok {
				for _, c := range h {
					hand = append(hand, c.(map[string]any)["card"].(map[string]any)["id"].(string))
				}
			}
			switch {
			case own == "" && m["hand"] != nil:
				t.Fatalf("the spectator read a hand (read %d): %s", i, raw)
			case own != "" && !sameCards(hand, handAt(truth, int(own[len(own)-1]-'0'), version)):
				for _, ev := range truth {
					if ev.Version <= version+3 && ev.Type != "MovePlayed" {
						t.Logf("%d %s %s %s", ev.Version, ev.Type, ev.Visibility, ev.Data)
					}
				}
				t.Fatalf("%s read the hand %v at version %d; its seat holds %v", name, hand, version, handAt(truth, int(own[len(own)-1]-'0'), version))
			}
			reads++
		}
		if reads == 0 || (name != "ann" && len(tr.updates) == 0) {
			t.Fatalf("%s read nothing during the match", name)
		}
	}
}

// cardsOutside walks a response and returns where it holds a card's ID that the viewer
// (visibility own, "" for a spectator) may not have: anywhere but its hand, the discard
// piles, the counts of cards played, the move list, the statuses on the board, and the
// events it may see in full.
// A redacted event's shadow must hold no card at all. "" when there is none.
func cardsOutside(v any, path, own string, ids map[string]bool) string {
	switch x := v.(type) {
	case string:
		if ids[x] {
			return path
		}
	case []any:
		for i, e := range x {
			if w := cardsOutside(e, fmt.Sprintf("%s[%d]", path, i), own, ids); w != "" {
				return w
			}
		}
	case map[string]any:
		if vis, ok := x["visibility"].(string); ok && x["redacted"] == false {
			if vis != "public" && vis != own {
				return path + " (an event visible to " + vis + ", shown in full)"
			}
			return ""
		}
		for k, e := range x {
			switch k {
			case "hand", "discardPile", "played", "moves", "kind": // a mark's kind names a public status (shield...)
				continue
			}
			if w := cardsOutside(e, path+"."+k, own, ids); w != "" {
				return w
			}
		}
	}
	return ""
}

// handAt is a seat's hand after version v, from the revealed events: what it drew, less
// what it played or discarded from its hand.
func handAt(truth []wsEvent, seat, v int) []string {
	var hand []string
	drop := func(card string) {
		if i := slices.Index(hand, card); i >= 0 {
			hand = slices.Delete(hand, i, i+1)
		}
	}
	for _, ev := range truth {
		if ev.Version > v {
			break
		}
		var d struct {
			Seat, Slot int
			Card       string
		}
		_ = json.Unmarshal(ev.Data, &d)
		if d.Seat != seat {
			continue
		}
		switch {
		case ev.Type == "CardDrawn":
			hand = append(hand, d.Card)
		case ev.Type == "CardPlayed", ev.Type == "CardDiscarded" && d.Slot >= 0:
			drop(d.Card)
		}
	}
	return hand
}

func sameCards(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// checkShadow: a redacted event shows nothing, or a shadow whose fields all hold the
// truth's values and that leaves out at least one of the truth's fields.
func checkShadow(t *testing.T, viewer string, want, got wsEvent) {
	t.Helper()
	if len(got.Data) == 0 || string(got.Data) == "null" {
		return
	}
	var shadow, truth map[string]any
	if err := json.Unmarshal(got.Data, &shadow); err != nil {
		t.Fatalf("%s: version %d's shadow is not an object: %s", viewer, want.Version, got.Data)
	}
	if err := json.Unmarshal(want.Data, &truth); err != nil {
		t.Fatalf("version %d's payload is not an object: %s", want.Version, want.Data)
	}
	for k, v := range shadow {
		if tv, ok := truth[k]; !ok || !reflect.DeepEqual(tv, v) {
			t.Fatalf("%s: version %d (%s) shows %s=%v, which the truth %s does not hold", viewer, want.Version, want.Type, k, v, want.Data)
		}
	}
	if len(shadow) >= len(truth) {
		t.Fatalf("%s: version %d (%s) is marked redacted but shows everything: %s", viewer, want.Version, want.Type, got.Data)
	}
}

// holdsDeck reports whether a payload holds a list of more than 50 strings: a deck order.
func holdsDeck(raw json.RawMessage) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(x any) bool {
		switch x := x.(type) {
		case []any:
			if len(x) > 50 {
				if _, ok := x[0].(string); ok {
					return true
				}
			}
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}
