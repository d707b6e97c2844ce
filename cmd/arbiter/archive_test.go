package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestArchivedMatchesReadTheSame: the same finished matches read through a server that
// keeps their boards in memory and one that archives them at once and folds them from
// the store when asked, field for field, for each player and a spectator.
func TestArchivedMatchesReadTheSame(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db, "--archive-after", "1h")
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	mate := srv.newMatch(t, ann, bob, false)
	for i, mv := range []string{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"} {
		if r := srv.play(t, []string{ann, bob}[i%2], mate, mv); len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
	}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:UNFAIR_CHESS}){match{id}}}`, nil, &c)
	cards := c.CreateMatch.Match.ID
	for seat, tok := range []string{ann, bob} {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": cards, "s": seat}, nil)
	}
	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": cards}, nil)

	const q = `query($m:ID!){match(id:$m){status version moves pgn seed result{winner reason}
	  board{fen inCheck legalMoves marks{square kind} checked}
	  hand{slot playable card{id}} cards{seat handSize deckSize discardPile{id} played{count}}
	  seats{seat player{name}} events(first:100){version type data}}}`
	read := func(s *server) map[string]json.RawMessage {
		out := map[string]json.RawMessage{}
		for _, id := range []string{mate, cards} {
			for who, tok := range map[string]string{"ann": ann, "bob": bob, "spectator": ""} {
				r := s.post(t, tok, q, map[string]any{"m": id})
				if len(r.Errors) > 0 {
					t.Fatalf("%s reading %s: %+v", who, id, r.Errors)
				}
				out[id+" "+who] = r.Data
			}
		}
		return out
	}
	kept := read(srv)
	srv.stop(t)
	srv = startServer(t, db, "--archive-after", "0s")
	archived := read(srv)
	resp, err := http.Get(srv.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	figures, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(figures), "arbiter_matches_archived 2\n") {
		t.Fatalf("both finished matches should be archived:\n%s", figures)
	}
	for k, want := range kept {
		if !bytes.Equal(archived[k], want) {
			t.Fatalf("%s differs once archived:\nkept     %s\narchived %s", k, want, archived[k])
		}
	}
	var b struct {
		Match struct{ Board struct{ FEN string } }
	}
	_ = json.Unmarshal(kept[mate+" spectator"], &b)
	if b.Match.Board.FEN != "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4" {
		t.Fatalf("the board read: %s", kept[mate+" spectator"])
	}
}

// TestFinishedMatchIsArchivedOnATimer: with --archive-after, a finished match is archived
// once the delay has passed even though no event comes after its end, and reads the same.
func TestFinishedMatchIsArchivedOnATimer(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"), "--archive-after", "200ms")
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.newMatch(t, ann, bob, false)
	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	const q = `query($m:ID!){match(id:$m){status version result{winner reason} board{fen}}}`
	before := srv.post(t, "", q, map[string]any{"m": id})

	// The condition ends the wait; the deadline only bounds a server that never archives.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	waitUntil(t, ctx, "the finished match to be archived, with --archive-after 200ms and no later event", func() bool {
		return srv.scrape(t, "arbiter_matches_archived") == "1"
	})
	if after := srv.post(t, "", q, map[string]any{"m": id}); !bytes.Equal(after.Data, before.Data) || len(after.Errors) > 0 {
		t.Fatalf("archived, the match reads %s %v; before, %s", after.Data, after.Errors, before.Data)
	}
}
