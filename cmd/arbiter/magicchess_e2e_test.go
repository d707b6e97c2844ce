package main

import (
	"path/filepath"
	"slices"
	"testing"
	"time"
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
