package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// A drop is a move: in the advanced mode of doubles one that checks opens R2 for the
// player across its board alone. On board A, 1. e4 d5 2. exd5 opens R2 for Bob (a
// capture); once it closes, the pawn passes to Dee, who drops it on f2 of board B, where
// Cid has played f3: check, and R2 opens on board B for Cid, triggered by the check,
// while board A has no window.
func TestADropThatChecksOpensR2(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	tokens, id := doublesPlayers(t, srv, `, {key:"mode", value:"ADVANCED"}, {key:"clock", value:"off"}, {key:"reaction", value:"2"}`, true)
	vars := map[string]any{"m": id}
	type window struct {
		Window    string
		Seat      int
		Triggers  []string
		Answering bool
	}
	type board struct {
		Fen, BlackInHand string
		Phase            string
		Reaction         *window
	}
	updates := srv.subscribeRaw(t, ctx, "graphql-transport-ws", "", `subscription($m:ID!){matchUpdates(matchId:$m){version boards{phase reaction{answering}}}}`, vars)
	// answering waits for the window open on board b to take answers: its reading's end
	// is recorded, and so brings an update.
	answering := func(b int) {
		t.Helper()
		for {
			raw, ok := <-updates
			if !ok {
				t.Fatalf("the match's updates ended before board %d's window took answers", b)
			}
			var u struct {
				MatchUpdates struct {
					Boards []struct{ Reaction *struct{ Answering bool } }
				}
			}
			if err := json.Unmarshal(raw, &u); err != nil {
				t.Fatal(err)
			}
			if r := u.MatchUpdates.Boards[b].Reaction; r != nil && r.Answering {
				return
			}
		}
	}
	boards := func() []board {
		t.Helper()
		var v struct{ Match struct{ Boards []board } }
		srv.must(t, "", `query($m:ID!){match(id:$m){boards{fen blackInHand phase reaction{window seat triggers answering}}}}`, vars, &v)
		return v.Match.Boards
	}
	const move = `mutation($m:ID!,$v:String!){playMove(matchId:$m, move:$v){match{version}}}`
	play := func(seat int, mv string) {
		t.Helper()
		srv.must(t, tokens[seat], move, map[string]any{"m": id, "v": mv}, nil)
	}
	play(0, "e4")
	play(1, "d5")
	play(2, "f3")
	play(0, "exd5")
	if b := boards(); b[0].Reaction == nil || b[0].Reaction.Window != "R2" || b[0].Reaction.Seat != 1 || b[1].BlackInHand != "" {
		t.Fatalf("after exd5: %+v", b)
	}
	answering(0)
	srv.must(t, tokens[1], `mutation($m:ID!){passReaction(matchId:$m){version}}`, vars, nil)
	if b := boards(); b[0].Reaction != nil || b[1].BlackInHand != "P" {
		t.Fatalf("after Bob's pass the pawn should be Dee's: %+v", b)
	}
	srv.must(t, tokens[3], `mutation($m:ID!,$p:String!,$q:String!){dropPiece(matchId:$m, piece:$p, square:$q){match{version}}}`,
		map[string]any{"m": id, "p": "P", "q": "f2"}, nil)
	b := boards()
	if r := b[1].Reaction; r == nil || r.Window != "R2" || r.Seat != 2 || !slices.Contains(r.Triggers, "check") || b[1].Phase != "reaction-R2" {
		t.Fatalf("Dee's drop on f2 checks Cid's king: board B is %+v", b[1])
	}
	if b[0].Reaction != nil {
		t.Fatalf("a window on board A after a drop on board B: %+v", b[0])
	}
	// Only Cid, across board B, may answer it; Bob's answer finds no window on his board.
	answering(1)
	for _, seat := range []int{0, 1, 3} {
		if r := srv.post(t, tokens[seat], `mutation($m:ID!){passReaction(matchId:$m){version}}`, vars); r.code() == "" {
			t.Fatalf("seat %d passed board B's window", seat)
		}
	}
	srv.must(t, tokens[2], `mutation($m:ID!){passReaction(matchId:$m){version}}`, vars, nil)
	play(2, "Kxf2")
}
