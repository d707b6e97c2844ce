package main

import (
	"path/filepath"
	"testing"
)

// doublesResult is how a doubles match stands, as anyone reads it.
type doublesResult struct {
	Match struct {
		Status      string
		DrawOfferBy *int
		Result      *struct {
			Winners []int
			Reason  string
		}
	}
}

const doublesResultQuery = `query($m:ID!){match(id:$m){status drawOfferBy result{winners reason}}}`

// A draw agreed in doubles: the four players agree (rules silent on draws; the match
// takes an offer that every other player accepts). Both boards play at once, so a move
// on the other board does not answer an offer: only a move on the offerer's board, by
// the player across it, declines it.
func TestADoublesDrawByAgreement(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	tokens, id := doublesPlayers(t, srv, `, {key:"clock", value:"off"}`, true)
	vars := map[string]any{"m": id}
	const move = `mutation($m:ID!,$v:String!){playMove(matchId:$m, move:$v){match{version}}}`
	play := func(seat int, mv string) {
		t.Helper()
		srv.must(t, tokens[seat], move, map[string]any{"m": id, "v": mv}, nil)
	}
	offer := func(seat int) {
		t.Helper()
		srv.must(t, tokens[seat], `mutation($m:ID!){offerDraw(matchId:$m){match{version}}}`, vars, nil)
	}
	read := func() doublesResult {
		t.Helper()
		var r doublesResult
		srv.must(t, "", doublesResultQuery, vars, &r)
		return r
	}
	play(0, "e4")
	offer(0)
	play(1, "e5") // Bob, across Ann's board, moves instead of answering: he declines
	if r := read(); r.Match.DrawOfferBy != nil {
		t.Fatalf("Bob's move on Ann's board left her offer pending: %+v", r.Match)
	}
	play(0, "Nf3")
	offer(0)
	play(2, "Nf3") // board B plays on: no answer to Ann's offer
	play(3, "Nf6")
	if r := read(); r.Match.DrawOfferBy == nil || *r.Match.DrawOfferBy != 0 {
		t.Fatalf("moves on the other board answered Ann's offer: %+v", r.Match)
	}
	if r := srv.post(t, tokens[0], `mutation($m:ID!){acceptDraw(matchId:$m){match{version}}}`, vars); r.code() != "CONFLICT" {
		t.Fatalf("Ann accepting her own offer: %+v", r.Errors)
	}
	for _, seat := range []int{1, 2, 3} {
		if r := read(); r.Match.Status != "LIVE" {
			t.Fatalf("the match ended before seat %d accepted: %+v", seat, r.Match)
		}
		srv.must(t, tokens[seat], `mutation($m:ID!){acceptDraw(matchId:$m){match{version}}}`, vars, nil)
	}
	r := read()
	if r.Match.Status != "FINISHED" || r.Match.Result == nil || len(r.Match.Result.Winners) != 0 || r.Match.Result.Reason != "agreement" {
		t.Fatalf("after the four agreed: %+v", r.Match)
	}
}

// A draw by rule in doubles: on board A, 75 moves of each side without a capture or a
// pawn move (knights going back and forth) draw the match for both teams, while board B
// has played its first moves and stands.
func TestADoublesDrawByTheSeventyFiveMoveRule(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	tokens, id := doublesPlayers(t, srv, `, {key:"clock", value:"off"}`, true)
	vars := map[string]any{"m": id}
	const move = `mutation($m:ID!,$v:String!){playMove(matchId:$m, move:$v){match{version}}}`
	play := func(seat int, mv string) {
		t.Helper()
		srv.must(t, tokens[seat], move, map[string]any{"m": id, "v": mv}, nil)
	}
	play(2, "Nc3") // board B's seats make their first moves, so the match is not aborted
	play(3, "Nc6")
	cycle := []struct {
		seat int
		move string
	}{{0, "Nf3"}, {1, "Nf6"}, {0, "Ng1"}, {1, "Ng8"}}
	var r doublesResult
	for ply := range 150 {
		if srv.must(t, "", doublesResultQuery, vars, &r); r.Match.Status != "LIVE" {
			t.Fatalf("the match ended after %d plies on board A: %+v", ply, r.Match)
		}
		c := cycle[ply%len(cycle)]
		if r := srv.post(t, tokens[c.seat], move, map[string]any{"m": id, "v": c.move}); len(r.Errors) > 0 {
			t.Fatalf("ply %d, %s: %+v", ply+1, c.move, r.Errors)
		}
	}
	srv.must(t, "", doublesResultQuery, vars, &r)
	if r.Match.Status != "FINISHED" || r.Match.Result == nil || len(r.Match.Result.Winners) != 0 || r.Match.Result.Reason != "seventy-five-move rule" {
		t.Fatalf("after 75 moves of each side on board A without a capture nor a pawn move: %+v", r.Match)
	}
}
