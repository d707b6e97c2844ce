package main

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestGameCommandsRefusedChangeNothing sends the card and Sovereign Chess mutations with
// bad input, to the wrong game or out of turn, and checks the typed error, a reason that
// says something, and that no match moved.
func TestGameCommandsRefusedChangeNothing(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	create := func(input string) string {
		var c struct {
			CreateMatch struct{ Match struct{ ID string } }
		}
		srv.must(t, ann, `mutation{createMatch(input:`+input+`){match{id}}}`, nil, &c)
		for seat, tok := range []string{ann, bob} {
			srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": c.CreateMatch.Match.ID, "s": seat}, nil)
		}
		return c.CreateMatch.Match.ID
	}
	var unfair string // dealt below
	sovereign, chess := create(`{game:SOVEREIGN_CHESS, mode:TWO_PLAYER}`), create(`{game:CHESS}`)
	versions := func() []int {
		var out []int
		for _, id := range []string{unfair, sovereign, chess} {
			var d struct{ Match struct{ Version int } }
			srv.must(t, "", `query($m:ID!){match(id:$m){version}}`, map[string]any{"m": id}, &d)
			out = append(out, d.Match.Version)
		}
		return out
	}
	// An UnfairChess match where Ann holds a playable card aimed at squares with a choice
	// of targets of the right length that it does not list (most deals do; deal again
	// until one does).
	var h struct {
		Match struct {
			Hand []struct {
				Slot     int
				Playable bool
				Targets  [][]string
				Card     struct{ ID, Cost string }
			}
		}
	}
	slot, impossible := -1, []string(nil)
	for deal := 0; slot < 0; deal++ {
		if deal == 30 {
			t.Fatalf("30 deals without a card that takes targets in Ann's hand")
		}
		unfair = create(`{game:UNFAIR_CHESS}`)
		srv.must(t, ann, `query($m:ID!){match(id:$m){hand{slot playable targets card{id cost}}}}`, map[string]any{"m": unfair}, &h)
		for _, c := range h.Match.Hand {
			if !c.Playable || len(c.Targets) == 0 || len(c.Targets[0]) == 0 || len(c.Targets[0][0]) != 2 || c.Targets[0][0][0] < 'a' {
				continue // not aimed at squares
			}
			if imp := unlisted(c.Targets); imp != nil {
				slot, impossible = c.Slot, imp
				break
			}
		}
	}
	var lobbyBefore struct{ Matches []struct{ ID string } }
	srv.must(t, "", `{matches(first: 100){id}}`, nil, &lobbyBefore)
	before := versions()
	var s struct{ Match struct{ ToAct []int } }
	srv.must(t, "", `query($m:ID!){match(id:$m){toAct}}`, map[string]any{"m": sovereign}, &s)
	sovFirst, sovOther := ann, bob // the seat drawn to make White's first move, and the other
	if s.Match.ToAct[0] == 1 {
		sovFirst, sovOther = bob, ann
	}
	malformed := append([]string{"z9"}, h.Match.Hand[slot].Targets[0][1:]...)
	const card = `mutation($m:ID!,$c:ID,$s:Int,$t:[String!],$mv:String){playCard(matchId:$m, cardId:$c, slot:$s, targets:$t, move:$mv){version}}`
	const defect = `mutation($m:ID!,$c:String!,$k:String){defect(matchId:$m, colour:$c, kingMove:$k){version}}`
	adds := slices.IndexFunc(h.Match.Hand, func(c struct {
		Slot     int
		Playable bool
		Targets  [][]string
		Card     struct{ ID, Cost string }
	}) bool {
		return c.Playable && c.Card.Cost == "ADDS_TO_MOVE"
	})
	cases := []struct {
		name, token, query string
		vars               map[string]any
		codes              []string // the acceptable codes
	}{
		{"a card named neither by ID nor by slot", ann, card, map[string]any{"m": unfair}, []string{"BAD_USER_INPUT"}},
		{"a slot beyond the hand", ann, card, map[string]any{"m": unfair, "s": 7}, []string{"BAD_USER_INPUT"}},
		{"a card that does not exist", ann, card, map[string]any{"m": unfair, "c": "nosuchcard"}, []string{"BAD_USER_INPUT"}},
		{"a target that is not a square", ann, card, map[string]any{"m": unfair, "s": slot, "t": malformed}, []string{"BAD_USER_INPUT"}},
		{"too few targets", ann, card, map[string]any{"m": unfair, "s": slot, "t": []string{}}, []string{"BAD_USER_INPUT"}},
		{"a card aimed where it cannot go", ann, card, map[string]any{"m": unfair, "s": slot, "t": impossible}, []string{"ILLEGAL_MOVE"}},
		{"a card out of turn", bob, card, map[string]any{"m": unfair, "s": 0}, []string{"NOT_YOUR_TURN"}},
		{"a card in classic chess", ann, card, map[string]any{"m": chess, "s": 0}, []string{"BAD_USER_INPUT"}},
		{"a card in Sovereign Chess", sovFirst, card, map[string]any{"m": sovereign, "s": 0}, []string{"BAD_USER_INPUT"}},
		{"a defection in UnfairChess", ann, defect, map[string]any{"m": unfair, "c": "navy"}, []string{"BAD_USER_INPUT"}},
		{"a defection to no colour", sovFirst, defect, map[string]any{"m": sovereign, "c": "mauve"}, []string{"BAD_USER_INPUT"}},
		{"a defection out of turn", sovOther, defect, map[string]any{"m": sovereign, "c": "navy"}, []string{"NOT_YOUR_TURN"}},
		{"keeping an opening before its first move", sovOther, `mutation($m:ID!){acceptOpening(matchId:$m){version}}`, map[string]any{"m": sovereign}, []string{"NOT_YOUR_TURN", "ILLEGAL_MOVE", "CONFLICT"}},
		{"refusing an opening in chess", ann, `mutation($m:ID!){refuseOpening(matchId:$m){version}}`, map[string]any{"m": chess}, []string{"BAD_USER_INPUT", "NOT_YOUR_TURN"}},
		{"a Sovereign move in UnfairChess", ann, `mutation($m:ID!){playMove(matchId:$m, move:"e2e4O"){version}}`, map[string]any{"m": unfair}, []string{"BAD_USER_INPUT"}},
		{"a chess move in Sovereign Chess", sovFirst, `mutation($m:ID!){playMove(matchId:$m, move:"Nf3"){version}}`, map[string]any{"m": sovereign}, []string{"BAD_USER_INPUT", "ILLEGAL_MOVE"}},
		{"a mode for chess", ann, `mutation{createMatch(input:{game:CHESS, mode:ROYALE}){match{id}}}`, nil, []string{"BAD_USER_INPUT"}},
		{"a mode that disagrees with the option", ann, `mutation{createMatch(input:{game:SOVEREIGN_CHESS, mode:ROYALE, options:[{key:"mode", value:"TWO_PLAYER"}]}){match{id}}}`, nil, []string{"BAD_USER_INPUT"}},
		{"an option UnfairChess does not have", ann, `mutation{createMatch(input:{game:UNFAIR_CHESS, options:[{key:"fen", value:"8/8/8/8/8/8/8/8 w - - 0 1"}]}){match{id}}}`, nil, []string{"BAD_USER_INPUT"}},
		{"a Sovereign position that does not parse", ann, `mutation{createMatch(input:{game:SOVEREIGN_CHESS, options:[{key:"position", value:"16/16 1 w b - 0"}]}){match{id}}}`, nil, []string{"BAD_USER_INPUT"}},
		{"the cards of a game not hosted", "", `{cards(game: CHECKERS){id}}`, nil, []string{"GRAPHQL_VALIDATION_FAILED"}},
	}
	if adds >= 0 { // a card that adds to the move, sent with a move that cannot be read
		c := h.Match.Hand[adds]
		cases = append(cases, struct {
			name, token, query string
			vars               map[string]any
			codes              []string
		}{"a card with a malformed move", ann, card, map[string]any{"m": unfair, "s": c.Slot, "t": c.Targets[0], "mv": "hello"}, []string{"BAD_USER_INPUT"}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := srv.post(t, c.token, c.query, c.vars)
			if !slices.Contains(c.codes, r.code()) {
				t.Fatalf("got %q (%+v), want one of %v", r.code(), r.Errors, c.codes)
			}
			if len(r.Errors[0].Message) < 10 {
				t.Fatalf("the reason %q does not explain anything", r.Errors[0].Message)
			}
		})
	}
	if after := versions(); !slices.Equal(after, before) {
		t.Fatalf("refused commands changed the matches: versions %v -> %v", before, after)
	}
	var lobby struct{ Matches []struct{ ID string } }
	srv.must(t, "", `{matches(first: 100){id}}`, nil, &lobby)
	if len(lobby.Matches) != len(lobbyBefore.Matches) {
		t.Fatalf("refused creations made matches: the lobby went from %d to %d", len(lobbyBefore.Matches), len(lobby.Matches))
	}
}

// unlisted returns a choice of squares, as many as the card takes, that targets does not
// list, or nil.
func unlisted(targets [][]string) []string {
	for _, sq := range []string{"e1", "e8", "h5", "a4", "d4"} {
		cand := slices.Repeat([]string{sq}, len(targets[0]))
		if !slices.ContainsFunc(targets, func(t []string) bool { return slices.Equal(t, cand) }) {
			return cand
		}
	}
	return nil
}
