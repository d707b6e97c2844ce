package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"
)

// These tests read Match.state, the union of the games' own state types, over the real API,
// beside the fields it replaces (board, hand, cards), which stay as deprecated aliases for
// one release: both must show the same thing to the same viewer.

// createAndSeat creates a match of game and seats the players in order.
func (s *server) createAndSeat(t *testing.T, game string, tokens ...string) string {
	t.Helper()
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, tokens[0], `mutation($g:Game!){createMatch(input:{game:$g}){match{id}}}`, map[string]any{"g": game}, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range tokens {
		s.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	return id
}

type stateBoard struct {
	Fen        string
	InCheck    bool
	LegalMoves []string
}

func TestChessStateOverGraphQL(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.newMatch(t, ann, bob, false)
	for i, mv := range []string{"e4", "e5", "Qh5", "Nc6", "Qxf7"} {
		if r := srv.play(t, []string{ann, bob}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
	}
	var d struct {
		Match struct {
			State struct {
				Typename string `json:"__typename"`
				Board    stateBoard
				Moves    []string
			}
			Board stateBoard
			Moves []string
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){
		state{__typename ... on ChessState{board{fen inCheck legalMoves} moves}}
		board{fen inCheck legalMoves} moves}}`, map[string]any{"m": id}, &d)
	m := d.Match
	if m.State.Typename != "ChessState" {
		t.Fatalf("state is a %q, want ChessState", m.State.Typename)
	}
	if !m.State.Board.InCheck || m.State.Board.Fen == "" || len(m.State.Board.LegalMoves) == 0 {
		t.Errorf("state %+v: want black in check after Qxf7+, with its legal moves", m.State)
	}
	if !reflect.DeepEqual(m.State.Board, m.Board) {
		t.Errorf("state shows %+v, the deprecated board %+v", m.State.Board, m.Board)
	}
	if want := []string{"e4", "e5", "Qh5", "Nc6", "Qxf7+"}; !slices.Equal(m.State.Moves, want) || !slices.Equal(m.Moves, want) {
		t.Errorf("state moves %v, match moves %v, want %v", m.State.Moves, m.Moves, want)
	}

	// An open match has no state yet.
	var open struct {
		CreateMatch struct {
			Match struct{ State *json.RawMessage }
		}
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:CHESS}){match{state{__typename}}}}`, nil, &open)
	if open.CreateMatch.Match.State != nil {
		t.Errorf("an open match's state is %s, want null", *open.CreateMatch.Match.State)
	}
}

type unfairBoard struct {
	stateBoard
	Marks []json.RawMessage
}

// unfairState is what a viewer reads of an UnfairChess match, through state and through
// the deprecated fields.
type unfairState struct {
	Match struct {
		State struct {
			Typename string `json:"__typename"`
			Board    unfairBoard
			Hand     []json.RawMessage
			Seats    []json.RawMessage
		}
		Board unfairBoard
		Hand  []json.RawMessage
		Cards []json.RawMessage
	}
}

const unfairStateQuery = `query($m:ID!){match(id:$m){
	state{__typename ... on UnfairChessState{board{fen inCheck legalMoves marks{square kind seat}}
		hand{slot playable targets reason card{id name(lang:FR) ... on UnfairChessCard{cost}}}
		seats{seat handSize deckSize discardPile{id} played{card{id} count}}}}
	board{fen inCheck legalMoves marks{square kind seat}}
	hand{slot playable targets reason card{id name(lang:FR) ... on UnfairChessCard{cost}}}
	cards{seat handSize deckSize discardPile{id} played{card{id} count}}}}`

func TestUnfairChessStateShowsOnlyYourHand(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.createAndSeat(t, "UNFAIR_CHESS", ann, bob)
	for _, v := range []struct {
		name, token string
		seated      bool
	}{{"Ann", ann, true}, {"Bob", bob, true}, {"a spectator", "", false}} {
		var d unfairState
		srv.must(t, v.token, unfairStateQuery, map[string]any{"m": id}, &d)
		m := d.Match
		if m.State.Typename != "UnfairChessState" {
			t.Fatalf("%s: state is a %q, want UnfairChessState", v.name, m.State.Typename)
		}
		if !reflect.DeepEqual(m.State.Board, m.Board) {
			t.Errorf("%s: state shows %+v, the deprecated board %+v", v.name, m.State, m.Board)
		}
		if v.seated && len(m.State.Hand) != 4 {
			t.Errorf("%s holds %d cards in state, want 4", v.name, len(m.State.Hand))
		}
		if !v.seated && m.State.Hand != nil {
			t.Errorf("%s sees a hand: %s", v.name, m.State.Hand)
		}
		if !reflect.DeepEqual(m.State.Hand, m.Hand) {
			t.Errorf("%s: state's hand %s, the deprecated hand %s", v.name, m.State.Hand, m.Hand)
		}
		if len(m.State.Seats) != 2 || !reflect.DeepEqual(m.State.Seats, m.Cards) {
			t.Errorf("%s: state's seats %s, the deprecated cards %s", v.name, m.State.Seats, m.Cards)
		}

		// matchUpdates shares a state per viewer: each still receives its own hand alone.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		updates := srv.subscribeRaw(t, ctx, "graphql-transport-ws", v.token,
			`subscription($m:ID!){matchUpdates(matchId:$m){state{... on UnfairChessState{hand{slot card{id}}}} hand{slot card{id}}}}`,
			map[string]any{"m": id})
		var u struct {
			MatchUpdates struct {
				State struct{ Hand []json.RawMessage }
				Hand  []json.RawMessage
			}
		}
		first, ok := <-updates
		cancel()
		if !ok {
			t.Fatalf("%s: matchUpdates sent nothing", v.name)
		}
		if err := json.Unmarshal(first, &u); err != nil {
			t.Fatal(err)
		}
		if got := u.MatchUpdates; (got.State.Hand == nil) == v.seated || !reflect.DeepEqual(got.State.Hand, got.Hand) {
			t.Errorf("%s: matchUpdates shows the hand %s in state, %s in hand", v.name, got.State.Hand, got.Hand)
		}
	}
}

func TestSovereignChessStateOverGraphQL(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.createAndSeat(t, "SOVEREIGN_CHESS", ann, bob)
	type sovereign struct {
		Fen         string
		LegalMoves  []string
		Checked     []int
		Interregnum []int
		Colours     []json.RawMessage
		Armies      []json.RawMessage
		Sides       []json.RawMessage
		Marks       []json.RawMessage
	}
	var d struct {
		Match struct {
			State struct {
				Typename string `json:"__typename"`
				Board    sovereign
			}
			Board sovereign
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){
		state{__typename ... on SovereignChessState{board{fen legalMoves checked interregnum
			colours{square colour} armies{colour owner controller} sides{side seat colour} marks{square kind seat}}}}
		board{fen legalMoves checked interregnum
			colours{square colour} armies{colour owner controller} sides{side seat colour} marks{square kind seat}}}}`,
		map[string]any{"m": id}, &d)
	m := d.Match
	if m.State.Typename != "SovereignChessState" {
		t.Fatalf("state is a %q, want SovereignChessState", m.State.Typename)
	}
	if b := m.State.Board; len(b.LegalMoves) == 0 || len(b.Colours) == 0 || len(b.Armies) == 0 || len(b.Sides) != 2 {
		t.Errorf("state %+v: want legal moves, colours, armies and two sides", b)
	}
	if !reflect.DeepEqual(m.State.Board, m.Board) {
		t.Errorf("state shows %+v, the deprecated board %+v", m.State.Board, m.Board)
	}
	// The view says "nobody" with seat -1; the API says null.
	owned, neutral := 0, 0
	for _, raw := range m.State.Board.Armies {
		var a struct{ Owner, Controller *int }
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatal(err)
		}
		if a.Owner == nil {
			neutral++
		} else if *a.Owner >= 0 {
			owned++
		}
	}
	if owned != 2 || neutral == 0 {
		t.Errorf("armies %s: want two owned by a seat and the others by nobody (null)", m.State.Board.Armies)
	}
}

func TestSchemaIntrospectsGamesAndDeprecations(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	type field struct {
		Name              string
		IsDeprecated      bool
		DeprecationReason *string
	}
	type named struct{ Name string }
	var d struct {
		State, Card struct{ PossibleTypes []named }
		Game        struct{ EnumValues []named }
		Match       struct{ Fields []field }
		CardFields  struct{ Fields []field }
		Mutation    struct{ Fields []named }
	}
	srv.must(t, "", `{
		State: __type(name:"GameState"){possibleTypes{name}}
		Card: __type(name:"Card"){possibleTypes{name}}
		Game: __type(name:"Game"){enumValues{name}}
		Match: __type(name:"Match"){fields(includeDeprecated:true){name isDeprecated deprecationReason}}
		CardFields: __type(name:"Card"){fields(includeDeprecated:true){name isDeprecated deprecationReason}}
		Mutation: __type(name:"Mutation"){fields{name}}}`, nil, &d)
	names := func(ns []named) []string {
		out := []string{}
		for _, n := range ns {
			out = append(out, n.Name)
		}
		slices.Sort(out)
		return out
	}
	if got, want := names(d.State.PossibleTypes), []string{"ChessState", "MagicChessState", "SolwarisState", "SovereignChessState", "UnfairChessState"}; !slices.Equal(got, want) {
		t.Errorf("GameState's members %v, want %v", got, want)
	}
	if got, want := names(d.Card.PossibleTypes), []string{"MagicChessCard", "UnfairChessCard"}; !slices.Equal(got, want) {
		t.Errorf("Card's types %v, want %v", got, want)
	}
	if got, want := names(d.Game.EnumValues), []string{"CHESS", "MAGIC_CHESS", "SOLWARIS", "SOVEREIGN_CHESS", "UNFAIR_CHESS"}; !slices.Equal(got, want) {
		t.Errorf("Game's values %v, want %v", got, want)
	}
	for _, mu := range []string{"playCard", "defect", "acceptOpening", "refuseOpening", "playMove"} {
		if !slices.Contains(names(d.Mutation.Fields), mu) {
			t.Errorf("Mutation has no %s", mu)
		}
	}
	deprecated := func(fields []field) map[string]string {
		out := map[string]string{}
		for _, f := range fields {
			if f.IsDeprecated && f.DeprecationReason != nil && *f.DeprecationReason != "" {
				out[f.Name] = *f.DeprecationReason
			}
		}
		return out
	}
	match := deprecated(d.Match.Fields)
	for _, f := range []string{"board", "hand", "cards"} {
		if match[f] == "" {
			t.Errorf("Match.%s is not deprecated with a reason", f)
		}
	}
	for _, f := range []string{"state", "moves", "result"} {
		if _, ok := match[f]; ok {
			t.Errorf("Match.%s is deprecated", f)
		}
	}
	card := deprecated(d.CardFields.Fields)
	for _, f := range []string{"nameFr", "nameEn", "textFr", "textEn", "group", "rarity", "cost", "targets"} {
		if card[f] == "" {
			t.Errorf("Card.%s is not deprecated with a reason", f)
		}
	}
	for _, f := range []string{"id", "name", "text", "copies"} {
		if _, ok := card[f]; ok {
			t.Errorf("Card.%s is deprecated", f)
		}
	}
}

func TestCardNamesPerLanguage(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	var d struct {
		Cards []struct {
			ID, Fr, En, Default, TextFr, TextFrOld, NameFr, NameEn, Rarity string
		}
	}
	srv.must(t, "", `{cards(game:UNFAIR_CHESS){id Fr: name(lang:FR) En: name(lang:EN) Default: name
		TextFr: text(lang:FR) TextFrOld: textFr nameFr nameEn ... on UnfairChessCard{rarity}}}`, nil, &d)
	if len(d.Cards) == 0 {
		t.Fatal("no cards")
	}
	for _, c := range d.Cards {
		if c.Fr != c.NameFr || c.En != c.NameEn || c.Default != c.NameEn || c.TextFr != c.TextFrOld || c.Rarity == "" {
			t.Errorf("card %+v: name(lang) and text(lang) must match the deprecated fields, English by default", c)
		}
	}
	var none struct{ Cards []json.RawMessage }
	srv.must(t, "", `{cards(game:CHESS){id}}`, nil, &none)
	if len(none.Cards) != 0 {
		t.Errorf("chess has cards: %s", none.Cards)
	}
}

// BenchmarkSovereignBoardQuery reads a Sovereign Chess board, its armies, sides and colours
// among its fields, over HTTP from a real server: the state type and the deprecated board
// both show the view's game.Board through gqlgen's bindings.
func BenchmarkSovereignBoardQuery(b *testing.B) {
	for _, q := range []struct{ name, query string }{
		{"board", `query($m:ID!){match(id:$m){board{fen legalMoves checked interregnum colours{square colour} armies{colour owner controller} sides{side seat colour} marks{square kind seat}}}}`},
		{"state", `query($m:ID!){match(id:$m){state{... on SovereignChessState{board{fen legalMoves checked interregnum colours{square colour} armies{colour owner controller} sides{side seat colour} marks{square kind seat}}}}}}`},
	} {
		b.Run(q.name, func(b *testing.B) {
			srv := startServer(b, filepath.Join(b.TempDir(), "arbiter.db"))
			_, ann := srv.register(b, "Ann")
			_, bob := srv.register(b, "Bob")
			var c struct {
				CreateMatch struct{ Match struct{ ID string } }
			}
			srv.must(b, ann, `mutation{createMatch(input:{game:SOVEREIGN_CHESS}){match{id}}}`, nil, &c)
			id := c.CreateMatch.Match.ID
			for seat, tok := range []string{ann, bob} {
				srv.must(b, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
			}
			vars := map[string]any{"m": id}
			b.ResetTimer()
			for range b.N {
				srv.must(b, "", q.query, vars, nil)
			}
		})
	}
}
