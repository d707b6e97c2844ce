package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Ajedrez Mágico's doubles over the real API: four players, two boards, two teams
// (seats 0 and 3, seats 1 and 2).

// doublesMatch creates a doubles match with opts and seats the four players in order
// ("bot" the house bot).
func doublesMatch(t *testing.T, srv *server, tokens []string, opts string) string {
	t.Helper()
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, tokens[0], `mutation{createMatch(input:{game:MAGIC_CHESS, options:[{key:"boards", value:"2"}`+opts+`]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	srv.seatAll(t, id, tokens)
	return id
}

// doublesPlayers registers Ann, Bob, Cid and Dee on srv and seats them in a doubles
// match with opts, in order (Ann and Dee one team, Bob and Cid the other); with ready,
// the four end the planning. It returns their tokens and the match.
func doublesPlayers(t *testing.T, srv *server, opts string, ready bool) ([]string, string) {
	t.Helper()
	var tokens []string
	for _, name := range []string{"Ann", "Bob", "Cid", "Dee"} {
		_, tok := srv.register(t, name)
		tokens = append(tokens, tok)
	}
	id := doublesMatch(t, srv, tokens, opts)
	for _, tok := range tokens {
		if !ready {
			break
		}
		srv.must(t, tok, `mutation($m:ID!){act(matchId:$m, action:{choose:{option:"ready"}}){match{version}}}`, map[string]any{"m": id}, nil)
	}
	return tokens, id
}

// doublesView is what a player of doubles reads to act.
type doublesView struct {
	Match struct {
		Status string
		ToAct  []int
		Result *struct {
			Winners []int
			Reason  string
		}
		Boards []struct {
			Board                    int
			Fen                      string
			WhiteInHand, BlackInHand string
			Seats                    []int
			ToAct                    *int
			Moves                    []string
			Clock                    *struct {
				Seats   []struct{ Seat, RemainingMs int }
				Running *int
			}
		}
		State struct {
			Phase string
			Board struct{ LegalMoves []string }
			Hand  []struct {
				Slot     int
				Playable bool
				Targets  [][]string
			}
			Signals []struct {
				Seat   int
				Signal string
			}
		}
	}
}

const doublesQuery = `query($m:ID!){match(id:$m){status toAct result{winners reason}
	boards{board fen whiteInHand blackInHand seats toAct moves clock{seats{seat remainingMs} running}}
	state{... on MagicChessState{phase board{legalMoves} hand{slot playable targets} signals{seat signal}}}}}`

// Four players play a doubles match to its end, each reading its legal actions from its
// own view over GraphQL: the planning's "ready", then in its turn a card it may lay (one
// time in four), a drop (dropPiece) or a move (playMove), always naming its board, and
// now and then a signal to its partner. The deck stays hidden from the other team and
// spectators while live (the draws and reshuffles they receive by subscription), and the
// file verifies (arbiter verify re-derives it).
func TestFourPlayersPlayDoublesToTheEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	var tokens []string
	for _, name := range []string{"Ann", "Bob", "Cid", "Dee"} {
		_, tok := srv.register(t, name)
		tokens = append(tokens, tok)
	}
	id := doublesMatch(t, srv, tokens, `, {key:"clock", value:"0.5+0"}`)
	vars := map[string]any{"m": id}
	// What Bob (team 1) and a spectator receive live, by subscription from the start: each
	// event is shown as of its version, so the events before the end stay as they were
	// sent while the match was live. hidden checks them once the match is over.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	live := map[string]<-chan wsEvent{"Bob": srv.subscribe(t, ctx, "graphql-transport-ws", tokens[1], id, 0),
		"a spectator": srv.subscribe(t, ctx, "graphql-ws", "", id, 0)}
	received := map[string]chan []wsEvent{}
	for who, ch := range live {
		received[who] = make(chan []wsEvent, 1)
		go func() { // read at once, so that the subscription never waits for the test
			var got []wsEvent
			for e := range ch {
				got = append(got, e)
				if e.Type == "MatchEnded" {
					break
				}
			}
			received[who] <- got
		}()
	}
	rng := rand.New(rand.NewPCG(14, 2))
	counts := map[string]int{}
	var v doublesView
	for n := 0; ; n++ {
		srv.must(t, "", doublesQuery, vars, &v)
		if v.Match.Status == "FINISHED" {
			break
		}
		if n > 5000 {
			t.Fatalf("no end after %d actions: %+v", n, v.Match.Boards)
		}
		if len(v.Match.ToAct) == 0 {
			time.Sleep(5 * time.Millisecond) // a flag about to fall: the engine's timeout ends it
			continue
		}
		seat := v.Match.ToAct[rng.IntN(len(v.Match.ToAct))]
		srv.must(t, tokens[seat], doublesQuery, vars, &v)
		var r gqlResponse
		if v.Match.State.Phase != "planning" && rng.IntN(20) == 0 {
			sig := []string{"SAVE_READY", "NO_SAVE", "CARD_NEXT", "HAND_LOW", "HAND_EMPTY"}[rng.IntN(5)]
			r, counts["signal"] = srv.post(t, tokens[seat], `mutation($m:ID!,$s:MagicSignal!){signal(matchId:$m, signal:$s){match{version}}}`, map[string]any{"m": id, "s": sig}), counts["signal"]+1
			if r.code() == "CONFLICT" { // the same signal as its last one
				continue
			}
		} else {
			var kind string
			if r, kind = magicAct(t, srv, tokens[seat], id, seat/2, v, rng); kind == "" {
				continue
			}
			counts[kind]++
		}
		if len(r.Errors) > 0 && r.code() != "NOT_YOUR_TURN" && !strings.Contains(r.Errors[0].Message, "over") {
			// NOT_YOUR_TURN: the engine's timeout ended the match, or another board's flag,
			// between the read and the action.
			t.Fatalf("seat %d: %+v", seat, r.Errors)
		}
	}
	res := v.Match.Result
	t.Logf("ended by %s, winners %v; actions %v; %d and %d plays on the boards", res.Reason, res.Winners, counts, len(v.Match.Boards[0].Moves), len(v.Match.Boards[1].Moves))
	if len(v.Match.Boards) != 2 || !slices.Equal(v.Match.Boards[1].Seats, []int{2, 3}) {
		t.Fatalf("match.boards: %+v", v.Match.Boards)
	}
	teams := [][]int{{0, 3}, {1, 2}}
	if len(res.Winners) != 0 && !slices.Equal(res.Winners, teams[0]) && !slices.Equal(res.Winners, teams[1]) {
		t.Fatalf("winners %v: a team, or none", res.Winners)
	}
	if counts["ready"] != 4 || counts["move"] == 0 {
		t.Fatalf("actions %v", counts)
	}
	// Every secret is revealed once the match is over: the events as recorded.
	types := countEvents(t, srv, id)
	t.Logf("events %v", types)
	// The deal of ten spends the 33 cards of the deck: beyond 33 cards laid, each came
	// from a draw, and the first draw from a reshuffle of the discard.
	if types["CardsDealt"] != 4 || types["PlanningDone"] != 4 || types["CardPlayed"] > 33 && (types["CardDrawn"] == 0 || types["DeckReshuffled"] == 0) {
		t.Fatalf("events %v", types)
	}
	// The deck stayed hidden while live: every draw reached Bob and the spectator, but the
	// card drawn only when Bob drew it; a reshuffle's order reached neither.
	for who := range live {
		got := <-received[who]
		drawn := 0
		for _, e := range got {
			switch e.Type {
			case "CardDrawn":
				drawn++
				var d struct {
					Seat int
					Card string
				}
				json.Unmarshal(e.Data, &d)
				if own := who == "Bob" && d.Seat == 1; own == (d.Card == "") || !own && !e.Redacted {
					t.Errorf("%s received seat %d's draw live as %s (redacted %v)", who, d.Seat, e.Data, e.Redacted)
				}
			case "DeckReshuffled", "DeckShuffled":
				if !e.Redacted || len(e.Data) > 0 && string(e.Data) != "null" {
					t.Errorf("%s received the deck live: %s %s", who, e.Type, e.Data)
				}
			}
		}
		if len(got) == 0 || got[len(got)-1].Type != "MatchEnded" || drawn != types["CardDrawn"] {
			t.Fatalf("%s received %d events live, %d draws of %d, up to %v", who, len(got), drawn, types["CardDrawn"], got[len(got)-1:])
		}
		t.Logf("%s received %d draws and %d reshuffles live", who, drawn, types["DeckReshuffled"])
	}
	srv.stop(t)
	verifyAll(t, db)
	if _, out := lastLine(t, "replay", "--db", db, "--match", id); !strings.Contains(out, "board B: seat 2 White") || !strings.Contains(out, "A:") {
		t.Fatalf("arbiter replay of a doubles match:\n%s", out)
	}
}

// Hidden information of doubles, from outside, over every field of the state and the
// events, by query and by both subscriptions: each hand is its seat's alone (not its
// partner's), and the team channel reaches the team alone, never the other team nor a
// spectator. Captures pass to the partner (match.boards shows the pocket) and the board
// argument is checked.
func TestDoublesSecretsOverGraphQL(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	tokens, id := doublesPlayers(t, srv, "", false)
	vars := map[string]any{"m": id}
	viewers := map[string]string{"Bob (team 1)": tokens[1], "Cid (team 1)": tokens[2], "a spectator": ""}
	const full = `state{... on MagicChessState{phase moves board{fen inCheck legalMoves marks{square kind seat note}}
		hand{slot playable targets reason card{id}} seats{seat handSize deckSize discardPile{id} played{count card{id}}}
		boards{board fen whiteInHand blackInHand seats toAct inCheck moves clock{control seats{seat remainingMs} running since}}
		signals{seat signal}}}`
	updates, events := map[string]<-chan json.RawMessage{}, map[string]<-chan wsEvent{}
	for name, tok := range viewers {
		updates[name] = srv.subscribeRaw(t, ctx, "graphql-transport-ws", tok, `subscription($m:ID!){matchUpdates(matchId:$m){version boards{fen} `+full+`}}`, vars)
		events[name] = srv.subscribe(t, ctx, "graphql-ws", tok, id, 0)
	}
	everything := func(tok string) string {
		r := srv.post(t, tok, `query($m:ID!){match(id:$m){version boards{fen whiteInHand blackInHand} `+full+` events(first:1000){type data visibility redacted}}}`, vars)
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		return string(r.Data)
	}
	type hand struct {
		Match struct {
			State struct {
				Hand []struct{ Card struct{ ID string } }
			}
		}
	}
	var ann hand
	srv.must(t, tokens[0], `query($m:ID!){match(id:$m){state{... on MagicChessState{hand{card{id}}}}}}`, vars, &ann)
	if len(ann.Match.State.Hand) != 9 {
		t.Fatalf("Ann holds %d cards, the deal of 33 gives seat 0 nine", len(ann.Match.State.Hand))
	}
	// Ann signals her partner Dee in the planning.
	var sent struct {
		Signal struct{ Match struct{ Version int } }
	}
	srv.must(t, tokens[0], `mutation($m:ID!){signal(matchId:$m, signal:SAVE_READY){match{version}}}`, vars, &sent)
	var dee doublesView
	srv.must(t, tokens[3], doublesQuery, vars, &dee)
	if s := dee.Match.State.Signals; len(s) != 1 || s[0].Seat != 0 || s[0].Signal != "SAVE_READY" {
		t.Fatalf("Dee, Ann's partner, sees the signals %+v", s)
	}
	deeSees := everything(tokens[3])
	for _, c := range ann.Match.State.Hand {
		if strings.Contains(deeSees, `"`+c.Card.ID+`"`) {
			t.Fatalf("Dee, Ann's partner, sees Ann's card %s", c.Card.ID)
		}
	}
	for name, tok := range viewers {
		seen := everything(tok)
		if strings.Contains(seen, "save-ready") || strings.Contains(seen, "SAVE_READY") {
			t.Fatalf("%s sees team 0's signal: %s", name, seen)
		}
		for _, c := range ann.Match.State.Hand {
			if strings.Contains(seen, `"`+c.Card.ID+`"`) {
				t.Fatalf("%s sees Ann's card %s", name, c.Card.ID)
			}
		}
	}
	for name := range viewers {
		for u := range updates[name] {
			if s := string(u); strings.Contains(s, "save-ready") || strings.Contains(s, "SAVE_READY") {
				t.Fatalf("%s's matchUpdates carry team 0's signal: %s", name, s)
			}
			var m struct{ MatchUpdates struct{ Version int } }
			if json.Unmarshal(u, &m); m.MatchUpdates.Version >= sent.Signal.Match.Version {
				break
			}
		}
		for e := range events[name] {
			if e.Type == "Signalled" && (!e.Redacted || len(e.Data) > 0 && string(e.Data) != "null") {
				t.Fatalf("%s's matchEvents carry the signal: %+v", name, e)
			}
			if e.Version >= sent.Signal.Match.Version {
				break
			}
		}
	}

	// Play: the four end the planning; on board A, 1. e4 d5 2. exd5 passes a black pawn
	// to Dee (Black on board B), who drops it there.
	for _, tok := range tokens {
		srv.must(t, tok, `mutation($m:ID!){act(matchId:$m, action:{choose:{option:"ready"}}){match{version}}}`, vars, nil)
	}
	play := func(seat int, q string, args map[string]any) gqlResponse {
		args["m"] = id
		return srv.post(t, tokens[seat], q, args)
	}
	const move = `mutation($m:ID!,$v:String!,$b:Int){playMove(matchId:$m, move:$v, board:$b){match{version}}}`
	if r := play(2, move, map[string]any{"v": "e4", "b": 0}); r.code() != "BAD_USER_INPUT" {
		t.Fatalf("Cid moving on board 0, not his: %+v", r.Errors)
	}
	for _, m := range []struct {
		seat int
		move string
	}{{0, "e4"}, {1, "d5"}, {0, "exd5"}, {2, "Nf3"}} {
		if r := play(m.seat, move, map[string]any{"v": m.move, "b": m.seat / 2}); len(r.Errors) > 0 {
			t.Fatalf("seat %d %s: %+v", m.seat, m.move, r.Errors)
		}
	}
	srv.must(t, "", doublesQuery, vars, &dee)
	if b := dee.Match.Boards[1]; b.BlackInHand != "P" || b.ToAct == nil || *b.ToAct != 3 || !strings.Contains(b.Fen, "[p]") {
		t.Fatalf("board B after exd5 on board A: %+v", b)
	}
	const drop = `mutation($m:ID!,$p:String!,$q:String!){dropPiece(matchId:$m, piece:$p, square:$q){match{version}}}`
	if r := play(3, drop, map[string]any{"p": "P", "q": "e8"}); r.code() != "ILLEGAL_MOVE" {
		t.Fatalf("a pawn dropped on the last rank: %+v", r.Errors)
	}
	if r := play(3, drop, map[string]any{"p": "K", "q": "e5"}); r.code() != "BAD_USER_INPUT" {
		t.Fatalf("a king dropped: %+v", r.Errors)
	}
	if r := play(3, drop, map[string]any{"p": "p", "q": "e5"}); len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	srv.must(t, "", doublesQuery, vars, &dee)
	if b := dee.Match.Boards[1]; b.BlackInHand != "" || fmt.Sprint(b.Moves) != "[Nf3 P@e5]" || b.Clock == nil || len(b.Clock.Seats) != 2 || b.Clock.Seats[1].Seat != 3 {
		t.Fatalf("board B after the drop: %+v", b)
	}
}

// The advanced mode in doubles, chosen by createMatch's mode field (not an option) with
// the boards option: the match starts with two boards in the advanced mode, and deals
// the forty cards, ten to each of the four seats (the classic deck of 33 deals 9, 8, 8, 8).
// Every viewer reads the table's planning deadline (planEnds), GameStarted's.
func TestAdvancedDoublesFromTheModeField(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	var tokens []string
	for _, name := range []string{"Ann", "Bob", "Cid", "Dee"} {
		_, tok := srv.register(t, name)
		tokens = append(tokens, tok)
	}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, tokens[0], `mutation{createMatch(input:{game:MAGIC_CHESS, mode:ADVANCED, options:[{key:"boards", value:"2"}]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range tokens {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	var v struct {
		Match struct {
			Boards []struct{ Board int }
			Events []struct {
				Type string
				Data map[string]any
			}
			State struct {
				Seats    []struct{ HandSize, DeckSize int }
				PlanEnds *time.Time
			}
		}
	}
	const q = `query($m:ID!){match(id:$m){boards{board} events(first:100){type data}
		state{... on MagicChessState{seats{handSize deckSize} planEnds}}}}`
	srv.must(t, "", q, map[string]any{"m": id}, &v)
	var started map[string]any
	for _, e := range v.Match.Events {
		if e.Type == "GameStarted" {
			started = e.Data
		}
	}
	if started["mode"] != "ADVANCED" || started["boards"] != float64(2) || len(v.Match.Boards) != 2 {
		t.Fatalf("GameStarted %v, %d boards", started, len(v.Match.Boards))
	}
	// The table's one planning deadline, read by a spectator and by a seat of board B alike.
	end, _ := started["planEnds"].(string)
	want, err := time.Parse(time.RFC3339Nano, end)
	if err != nil {
		t.Fatalf("GameStarted's planEnds %q: %v", end, err)
	}
	dee := v
	srv.must(t, tokens[3], q, map[string]any{"m": id}, &dee)
	for who, got := range map[string]*time.Time{"a spectator": v.Match.State.PlanEnds, "Dee (board B)": dee.Match.State.PlanEnds} {
		if got == nil || !got.Equal(want) {
			t.Fatalf("%s reads the planning's end as %v, GameStarted says %v", who, got, want)
		}
	}
	s := v.Match.State.Seats
	if len(s) != 4 || s[0].DeckSize != 0 {
		t.Fatalf("the deal: %+v, want ten cards each from the forty", s)
	}
	for seat, c := range s {
		if c.HandSize != 10 {
			t.Fatalf("seat %d holds %d cards, want ten from the forty: %+v", seat, c.HandSize, s)
		}
	}
}
