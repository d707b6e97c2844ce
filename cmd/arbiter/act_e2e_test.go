package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// These tests take actions through act, whose ActionInput each game's schema file extends
// with its own actions, over the real API.

const actMutation = `mutation($m:ID!,$a:ActionInput!){act(matchId:$m, action:$a){version match{moves toAct choices phase}}}`

type actAnswer struct {
	Act struct {
		Version int
		Match   struct {
			Moves   []string
			ToAct   []int
			Choices []string
			Phase   *string
		}
	}
}

// versionOf reads a match's version.
func (s *server) versionOf(t *testing.T, id string) int {
	t.Helper()
	var d struct{ Match struct{ Version int } }
	s.must(t, "", `query($m:ID!){match(id:$m){version}}`, map[string]any{"m": id}, &d)
	return d.Match.Version
}

func TestActPlaysAMoveAndRefusesWhatTheGameDoesNotTake(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.newMatch(t, ann, bob, false)

	var a actAnswer
	srv.must(t, ann, `mutation($m:ID!){act(matchId:$m, action:{move:{notation:"e4"}}){version match{moves toAct}}}`, map[string]any{"m": id}, &a)
	if !slices.Equal(a.Act.Match.Moves, []string{"e4"}) || !slices.Equal(a.Act.Match.ToAct, []int{1}) {
		t.Fatalf("after act move e4: %+v", a.Act)
	}
	version := a.Act.Version

	refused := []struct {
		name, query string
		vars        map[string]any
		code, says  string
	}{
		{"a defection in chess", actMutation, map[string]any{"a": map[string]any{"defect": map[string]any{"colour": "navy"}}}, "BAD_USER_INPUT", "chess has no defections"},
		{"a card in chess", actMutation, map[string]any{"a": map[string]any{"playCard": map[string]any{"card": "shield"}}}, "BAD_USER_INPUT", "chess has no cards"},
		{"two actions in a variable", actMutation, map[string]any{"a": map[string]any{"move": map[string]any{"notation": "e5"}, "choose": map[string]any{"option": "keep"}}}, "BAD_USER_INPUT", "exactly one"},
		{"no action in a variable", actMutation, map[string]any{"a": map[string]any{}}, "BAD_USER_INPUT", "exactly one"},
		{"two actions inline", `mutation($m:ID!){act(matchId:$m, action:{move:{notation:"e5"}, choose:{option:"keep"}}){version}}`, nil, "GRAPHQL_VALIDATION_FAILED", ""},
		{"an illegal move", actMutation, map[string]any{"a": map[string]any{"move": map[string]any{"notation": "e4"}}}, "ILLEGAL_MOVE", ""},
	}
	for _, c := range refused {
		vars := map[string]any{"m": id}
		for k, v := range c.vars {
			vars[k] = v
		}
		r := srv.post(t, bob, c.query, vars)
		if r.code() != c.code || (c.says != "" && !strings.Contains(r.Errors[0].Message, c.says)) {
			t.Errorf("%s: answered %+v, want %s saying %q", c.name, r.Errors, c.code, c.says)
		}
	}
	if v := srv.versionOf(t, id); v != version {
		t.Errorf("the refused actions moved the match from version %d to %d", version, v)
	}
}

func TestActTakesEachGamesOwnActions(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	tokens := map[string]string{}
	for _, n := range []string{"Ann", "Bob"} {
		_, tokens[n] = srv.register(t, n)
	}
	seatTokens := []string{tokens["Ann"], tokens["Bob"]}

	// Sovereign Chess: the first move, then its chooser keeps it, both through act.
	id := srv.createAndSeat(t, "SOVEREIGN_CHESS", seatTokens...)
	var s struct {
		Match struct {
			ToAct []int
			State struct{ Board struct{ LegalMoves []string } }
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){toAct state{... on SovereignChessState{board{legalMoves}}}}}`, map[string]any{"m": id}, &s)
	if len(s.Match.ToAct) != 1 || len(s.Match.State.Board.LegalMoves) == 0 {
		t.Fatalf("sovereign at the start: %+v", s.Match)
	}
	first := s.Match.ToAct[0]
	var a actAnswer
	srv.must(t, seatTokens[first], actMutation, map[string]any{"m": id, "a": map[string]any{"move": map[string]any{"notation": s.Match.State.Board.LegalMoves[0]}}}, &a)
	if !slices.Contains(a.Act.Match.Choices, "keep") || len(a.Act.Match.ToAct) != 1 {
		t.Fatalf("after the first move: %+v, want the other seat to choose", a.Act.Match)
	}
	srv.must(t, seatTokens[a.Act.Match.ToAct[0]], actMutation, map[string]any{"m": id, "a": map[string]any{"choose": map[string]any{"option": "keep"}}}, &a)
	if len(a.Act.Match.Choices) != 0 || len(a.Act.Match.Moves) != 1 {
		t.Errorf("after keep: %+v, want the choice answered", a.Act.Match)
	}

	// UnfairChess: a card that is not in the hand is refused by the game through act as
	// through playCard, the same way; a defection is not UnfairChess's.
	id = srv.createAndSeat(t, "UNFAIR_CHESS", seatTokens...)
	viaAct := srv.post(t, seatTokens[0], actMutation, map[string]any{"m": id, "a": map[string]any{"playCard": map[string]any{"card": "no-such-card", "targets": []string{"e2"}}}})
	viaPlayCard := srv.post(t, seatTokens[0], `mutation($m:ID!){playCard(matchId:$m, cardId:"no-such-card", targets:["e2"]){version}}`, map[string]any{"m": id})
	if viaAct.code() != "BAD_USER_INPUT" || len(viaPlayCard.Errors) == 0 || viaAct.Errors[0].Message != viaPlayCard.Errors[0].Message {
		t.Errorf("an unknown card: act answered %+v, playCard %+v; want the same refusal", viaAct.Errors, viaPlayCard.Errors)
	}
	before := srv.versionOf(t, id)
	r := srv.post(t, seatTokens[0], actMutation, map[string]any{"m": id, "a": map[string]any{"playCard": map[string]any{}}})
	if r.code() != "BAD_USER_INPUT" || srv.versionOf(t, id) != before {
		t.Errorf("a card named neither by ID nor by slot: %+v", r.Errors)
	}
	r = srv.post(t, seatTokens[0], actMutation, map[string]any{"m": id, "a": map[string]any{"defect": map[string]any{"colour": "navy"}}})
	if r.code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, "defections") {
		t.Errorf("a defection in UnfairChess: %+v", r.Errors)
	}
}

func TestActionInputIsOneOfWithEachGamesActions(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	var d struct {
		Type struct {
			IsOneOf     bool
			InputFields []struct{ Name string }
		} `json:"__type"`
	}
	srv.must(t, "", `{__type(name:"ActionInput"){isOneOf inputFields{name}}}`, nil, &d)
	var names []string
	for _, f := range d.Type.InputFields {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	if want := []string{"castSpell", "choose", "chooseGrimoire", "defect", "move", "moveFighter", "placeFighter", "playCard", "react"}; !d.Type.IsOneOf || !slices.Equal(names, want) {
		t.Errorf("ActionInput: oneOf %v, fields %v; want oneOf with %v", d.Type.IsOneOf, names, want)
	}
}
