package main

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/games/magicchess"
)

// Ajedrez Mágico over the real API: two house bots play a classic-mode match to its end,
// reading their legal actions (the planning's choice, moves, cards on their targets) from
// their own views; a spectator never sees a hand; the file verifies.
func TestBotsPlayMagicChessToTheEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:MAGIC_CHESS, mode:CLASSIC, options:[{key:"clock", value:"1+0"}, {key:"hand", value:"10"}]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat := range 2 {
		srv.must(t, ann, `mutation($m:ID!,$s:Int){addBot(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}

	type spectated struct {
		Match struct {
			Status, Phase string
			ToAct         []int
			Result        *struct{ Reason string }
			Events        []struct{ Type, Actor string }
			State         struct {
				Phase string
				Hand  []struct{ Slot int }
				Seats []struct{ HandSize, DeckSize int }
				Moves []string
			}
		}
	}
	const q = `query($m:ID!){match(id:$m){status phase toAct result{reason}
		state{... on MagicChessState{phase hand{slot} seats{handSize deckSize} moves}}}}`
	var v spectated
	for deadline := time.Now().Add(2 * time.Minute); ; {
		srv.must(t, "", q, map[string]any{"m": id}, &v)
		if v.Match.State.Hand != nil {
			t.Fatalf("a spectator sees a hand: %+v", v.Match.State.Hand)
		}
		if v.Match.Status == "FINISHED" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bots have not finished: %s, %d turns", v.Match.Status, len(v.Match.State.Moves))
		}
		time.Sleep(20 * time.Millisecond)
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){events(first:1000){type actor}}}`, map[string]any{"m": id}, &v)
	count := map[string]int{}
	for _, e := range v.Match.Events {
		count[e.Type]++
	}
	t.Logf("%d turns, ended by %s; events %v", len(v.Match.State.Moves), v.Match.Result.Reason, count)
	if count["PlanningDone"] != 2 || count["PlanningEnded"] != 1 || count["MovePlayed"] == 0 || count["CardsDealt"] != 2 {
		t.Fatalf("the match's events: %v", count)
	}
	if !slices.Contains([]string{"checkmate", "stalemate", "timeout", "insufficient material", "seventy-five-move rule"}, v.Match.Result.Reason) {
		t.Fatalf("ended by %q", v.Match.Result.Reason)
	}
	// The bots lay cards as their views offer them (they did in every run so far), but a
	// quick mate may come first: how many is logged above, not required.
	srv.stop(t)
	verifyAll(t, db)
}

// Two players over GraphQL: each sees its own ten cards and never the other's, nor the
// deck's order; the planning ends when both say so (act with choose); a card laid is
// public, its hand slot is empty for its player and the opponent's count goes down. The
// planning's end (planEnds) is public: every viewer reads GameStarted's deadline in the
// planning, and null once it has ended.
func TestMagicChessHandsAreSecret(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.createAndSeat(t, "MAGIC_CHESS", ann, bob)
	type seen struct {
		Match struct {
			Phase  string
			ToAct  []int
			Events []struct {
				Type, Visibility string
				Data             map[string]any
				Redacted         bool
			}
			State struct {
				Hand []struct {
					Slot     int
					Playable bool
					Targets  [][]string
					Card     struct{ ID string }
				}
				Seats    []struct{ HandSize, DeckSize int }
				PlanEnds *time.Time
			}
		}
	}
	const q = `query($m:ID!){match(id:$m){phase toAct events(first:100){type visibility data redacted}
		state{... on MagicChessState{hand{slot playable targets card{id}} seats{handSize deckSize} planEnds}}}}`
	read := func(token string) seen {
		var v seen
		srv.must(t, token, q, map[string]any{"m": id}, &v)
		return v
	}
	a, b, spect := read(ann), read(bob), read("")
	if a.Match.Phase != "planning" || len(a.Match.ToAct) != 2 {
		t.Fatalf("the match starts in %q with %v to act, want the planning of both", a.Match.Phase, a.Match.ToAct)
	}
	var started time.Time
	for _, e := range spect.Match.Events {
		if e.Type == "GameStarted" {
			s, _ := e.Data["planEnds"].(string)
			started, _ = time.Parse(time.RFC3339Nano, s)
		}
	}
	if started.IsZero() {
		t.Fatal("a spectator reads no GameStarted with its planEnds")
	}
	for who, v := range map[string]seen{"Ann": a, "Bob": b, "a spectator": spect} {
		if got := v.Match.State.PlanEnds; got == nil || !got.Equal(started) {
			t.Fatalf("%s reads the planning's end as %v, GameStarted says %v", who, got, started)
		}
	}
	held := map[string]bool{}
	for _, h := range a.Match.State.Hand {
		held[h.Card.ID] = true
	}
	for _, h := range b.Match.State.Hand {
		if held[h.Card.ID] {
			t.Fatalf("%s is in both hands", h.Card.ID)
		}
	}
	if len(a.Match.State.Hand) != 10 || len(b.Match.State.Hand) != 10 || spect.Match.State.Hand != nil {
		t.Fatalf("hands of %d and %d, a spectator's %v", len(a.Match.State.Hand), len(b.Match.State.Hand), spect.Match.State.Hand)
	}
	if s := spect.Match.State.Seats; s[0].HandSize != 10 || s[1].HandSize != 10 || s[0].DeckSize != 13 {
		t.Fatalf("what everyone may know: %+v", s)
	}
	ownDeal := false
	for _, e := range a.Match.Events {
		ownDeal = ownDeal || e.Type == "CardsDealt" && e.Visibility == "seat:0" && e.Data["cards"] != nil
	}
	if !ownDeal {
		t.Fatal("Ann does not see her own deal")
	}
	for who, v := range map[string]seen{"Bob": b, "a spectator": spect} {
		for _, e := range v.Match.Events {
			switch {
			case e.Type == "DeckShuffled" && (e.Data != nil || !e.Redacted):
				t.Errorf("%s sees the deck: %v", who, e.Data)
			case e.Type == "CardsDealt" && e.Visibility == "seat:0" && e.Data["cards"] != nil:
				t.Errorf("%s sees Ann's deal: %v", who, e.Data)
			}
		}
	}
	for _, tok := range []string{ann, bob} {
		srv.must(t, tok, `mutation($m:ID!){act(matchId:$m, action:{choose:{option:"ready"}}){match{version}}}`, map[string]any{"m": id}, nil)
	}
	a = read(ann)
	if a.Match.Phase != "play" || !slices.Equal(a.Match.ToAct, []int{0}) {
		t.Fatalf("after both are ready: %q, %v to act", a.Match.Phase, a.Match.ToAct)
	}
	if spect = read(""); a.Match.State.PlanEnds != nil || spect.Match.State.PlanEnds != nil {
		t.Fatalf("after the planning, Ann reads its end as %v, a spectator as %v: want null", a.Match.State.PlanEnds, spect.Match.State.PlanEnds)
	}
	var card *struct {
		Slot     int
		Playable bool
		Targets  [][]string
		Card     struct{ ID string }
	}
	for i, h := range a.Match.State.Hand {
		if h.Playable {
			card = &a.Match.State.Hand[i]
			break
		}
	}
	if card == nil {
		t.Fatal("Ann has no card to lay at the first move")
	}
	srv.must(t, ann, `mutation($m:ID!,$s:Int,$t:[String!]){playCard(matchId:$m, slot:$s, targets:$t){match{version}}}`,
		map[string]any{"m": id, "s": card.Slot, "t": card.Targets[0]}, nil)
	a, b = read(ann), read(bob)
	if len(a.Match.State.Hand) != 9 || b.Match.State.Seats[0].HandSize != 9 || len(b.Match.State.Hand) != 10 {
		t.Fatalf("after Ann's card: Ann holds %d, Bob sees her holding %d and holds %d", len(a.Match.State.Hand), b.Match.State.Seats[0].HandSize, len(b.Match.State.Hand))
	}
	laid := false
	for _, e := range b.Match.Events {
		laid = laid || e.Type == "CardPlayed" && e.Data["card"] == card.Card.ID
	}
	if !laid {
		t.Fatalf("Bob does not see Ann's %s laid", card.Card.ID)
	}
}

// cards(game: MAGIC_CHESS) over a real server serves the embedded catalog whole: the forty
// cards in its order, each with both languages' names and texts, its window, duration,
// targets and reaction kind as catalog.json has them, all played; among them the mate
// saves and a reaction of each kind rule 17 allows. The expected values are read from the
// catalog the binary embeds, so the test follows catalog.json and fails on any field the
// API drops, renames or takes from the wrong language.
func TestMagicChessCardsOverGraphQL(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	type served struct {
		ID, NameEs, NameEn, NameDefault, TextEs, TextEn, Group, Window, Targets string
		Copies, Duration                                                        int
		Reaction                                                                *string
		Implemented                                                             bool
	}
	var d struct{ Cards []served }
	srv.must(t, "", `{cards(game:MAGIC_CHESS){id copies ... on MagicChessCard{NameEs: name(lang:ES) NameEn: name(lang:EN)
		NameDefault: name TextEs: text(lang:ES) TextEn: text(lang:EN) group window duration targets reaction implemented}}}`, nil, &d)
	want := magicchess.Entries()
	if len(d.Cards) != magicchess.CardCount || len(want) != magicchess.CardCount {
		t.Fatalf("%d cards served, %d in the catalog, the game has %d", len(d.Cards), len(want), magicchess.CardCount)
	}
	windows, kinds, groups, lasting := map[string]int{}, map[string]int{}, map[string]int{}, 0
	for i, c := range d.Cards {
		e := want[i]
		w := served{ID: e.ID, NameEs: e.NameEs, NameEn: e.NameEn, NameDefault: e.NameEn, TextEs: e.TextEs, TextEn: e.TextEn,
			Group: e.Group, Window: strings.ToUpper(e.Window), Targets: e.Targets, Copies: 1, Duration: e.Duration, Implemented: true}
		got := c
		got.Reaction = nil
		if got != w {
			t.Errorf("card %d served as\n%+v\nthe catalog has\n%+v", i, got, w)
		}
		if c.NameEs == "" || c.NameEn == "" || c.TextEs == "" || c.TextEn == "" || c.TextEs == c.TextEn {
			t.Errorf("%s: a name or a text is missing, or the Spanish text is the English one", c.ID)
		}
		switch {
		case e.Reaction == "" && c.Reaction != nil:
			t.Errorf("%s: reaction %q served, the catalog has none", c.ID, *c.Reaction)
		case e.Reaction != "" && (c.Reaction == nil || *c.Reaction != e.Reaction):
			t.Errorf("%s: reaction %v served, the catalog has %q", c.ID, c.Reaction, e.Reaction)
		}
		windows[c.Window]++
		groups[c.Group]++
		if c.Reaction != nil {
			kinds[*c.Reaction]++
		}
		if c.Duration > 0 {
			lasting++
		}
	}
	for _, w := range []string{"BEFORE", "DURING", "CLOSE", "REACTION"} {
		if windows[w] == 0 {
			t.Errorf("no card of window %s served: %v", w, windows)
		}
	}
	for _, k := range []string{"cancel", "prevent", "save-king", "take-back"} {
		if kinds[k] == 0 {
			t.Errorf("no reaction of rule 17's kind %q served: %v", k, kinds)
		}
	}
	if groups["mate-save"] == 0 || lasting == 0 {
		t.Errorf("served without a mate save or a card that lasts: groups %v, %d lasting", groups, lasting)
	}
}

// magicAct has a player of Ajedrez Mágico act once as its own view v (doublesQuery, read
// with its token) offers, on board (0 on one board): the planning's "ready"; in its turn a
// card its hand lists as playable, on targets the hand lists (one time in four, or when
// it may not move: a mate save in check), or a legal move of board.legalMoves (dropPiece for a drop). It returns the response and what
// it did ("ready", "card", "drop", "move"), or "" when the view offers nothing.
func magicAct(t *testing.T, srv *server, token, id string, board int, v doublesView, rng *rand.Rand) (gqlResponse, string) {
	t.Helper()
	s := v.Match.State
	var playable []int
	for i, h := range s.Hand {
		if h.Playable {
			playable = append(playable, i)
		}
	}
	switch {
	case s.Phase == "planning":
		return srv.post(t, token, `mutation($m:ID!){act(matchId:$m, action:{choose:{option:"ready"}}){match{version}}}`, map[string]any{"m": id}), "ready"
	case len(playable) > 0 && (len(s.Board.LegalMoves) == 0 || rng.IntN(4) == 0):
		h := s.Hand[playable[rng.IntN(len(playable))]]
		return srv.post(t, token, `mutation($m:ID!,$s:Int,$t:[String!],$b:Int){playCard(matchId:$m, slot:$s, targets:$t, board:$b){match{version}}}`,
			map[string]any{"m": id, "s": h.Slot, "t": h.Targets[rng.IntN(len(h.Targets))], "b": board}), "card"
	case len(s.Board.LegalMoves) > 0:
		mv := s.Board.LegalMoves[rng.IntN(len(s.Board.LegalMoves))]
		if piece, square, drop := strings.Cut(mv, "@"); drop {
			return srv.post(t, token, `mutation($m:ID!,$p:String!,$q:String!,$b:Int){dropPiece(matchId:$m, piece:$p, square:$q, board:$b){match{version}}}`,
				map[string]any{"m": id, "p": piece, "q": square, "b": board}), "drop"
		}
		return srv.post(t, token, `mutation($m:ID!,$v:String!,$b:Int){playMove(matchId:$m, move:$v, board:$b){match{version}}}`,
			map[string]any{"m": id, "v": mv, "b": board}), "move"
	}
	return gqlResponse{}, ""
}

// Two players play a classic match on one board to its end over GraphQL, not the house
// bot: each reads its own view (the planning, its hand with the cards it may lay and their
// targets, the legal moves, a card's following move in move-after-card) and acts by the
// API, as the four players of doubles do. Every card the API took is recorded as laid,
// every move as played, and arbiter verify re-derives the file. The clock (half a minute
// each, no increment) ends the match if no mate or draw does first.
func TestTwoPlayersPlayMagicChessToTheEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	tokens := []string{ann, bob}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:MAGIC_CHESS, mode:CLASSIC, options:[{key:"clock", value:"0.5+0"}]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range tokens {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	vars := map[string]any{"m": id}
	rng := rand.New(rand.NewPCG(14, 1))
	counts, after := map[string]int{}, 0 // after: moves that followed a card in its turn
	var v doublesView
	for {
		srv.must(t, "", doublesQuery, vars, &v)
		if v.Match.Status == "FINISHED" {
			break
		}
		if len(v.Match.ToAct) == 0 {
			time.Sleep(5 * time.Millisecond) // a flag about to fall: the engine's timeout ends it
			continue
		}
		seat := v.Match.ToAct[rng.IntN(len(v.Match.ToAct))]
		srv.must(t, tokens[seat], doublesQuery, vars, &v)
		if v.Match.Boards != nil || v.Match.State.Hand == nil {
			t.Fatalf("seat %d of one board reads boards %v and its hand %v", seat, v.Match.Boards, v.Match.State.Hand)
		}
		following := v.Match.State.Phase == "move-after-card"
		r, kind := magicAct(t, srv, tokens[seat], id, 0, v, rng)
		switch {
		case kind == "":
			t.Fatalf("seat %d is to act and its view offers nothing: %+v", seat, v.Match.State)
		case r.code() == "NOT_YOUR_TURN" || len(r.Errors) > 0 && strings.Contains(r.Errors[0].Message, "over"):
			continue // the engine's timeout ended the match between the read and the action
		case len(r.Errors) > 0:
			t.Fatalf("seat %d, %s: %+v", seat, kind, r.Errors)
		}
		counts[kind]++
		if following {
			after++
		}
	}
	res := v.Match.Result
	t.Logf("ended by %s, winners %v; actions %v, %d moves after a card", res.Reason, res.Winners, counts, after)
	if !slices.Contains([]string{"checkmate", "stalemate", "timeout", "insufficient material", "seventy-five-move rule"}, res.Reason) {
		t.Fatalf("ended by %q", res.Reason)
	}
	types := countEvents(t, srv, id)
	t.Logf("events %v", types)
	// Each card and move the API took is recorded, but for a last one sent after the
	// deadline before the engine's timeout: that one finds the flag fallen instead.
	lost := counts["card"] + counts["move"] - types["CardPlayed"] - types["MovePlayed"]
	if counts["ready"] != 2 || types["PlanningDone"] != 2 || counts["drop"] != 0 || lost != 0 && (lost != 1 || res.Reason != "timeout") {
		t.Fatalf("the API took %v, the match recorded %v", counts, types)
	}
	srv.stop(t)
	verifyAll(t, db)
}

// countEvents counts a match's events by type, as a spectator reads them, page by page
// (a page holds at most 1000).
func countEvents(t *testing.T, srv *server, id string) map[string]int {
	t.Helper()
	types := map[string]int{}
	for after := 0; ; {
		var evs struct {
			Match struct {
				Events []struct {
					Type    string
					Version int
				}
			}
		}
		srv.must(t, "", `query($m:ID!,$a:Int){match(id:$m){events(after:$a, first:1000){type version}}}`, map[string]any{"m": id, "a": after}, &evs)
		if len(evs.Match.Events) == 0 {
			return types
		}
		for _, e := range evs.Match.Events {
			types[e.Type]++
			after = e.Version
		}
	}
}
