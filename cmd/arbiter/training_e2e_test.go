package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/progress"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
)

// Training against the AI (docs/economy.md, "Training against the AI"): Ann trains in
// Solwaris against the house bot to the end of the duel over GraphQL, bidding for the
// initiative with a practice purse (she bids when the bot was designated to play first). She gains the duel's experience and nothing else: no
// coin moved (her wallet holds its starting grant alone), no rating, no league, no
// loot, no challenge; verify passes. Nobody else may take a seat; a training match is
// never rated nor staked.
func TestTrainingAgainstTheBotGivesXPAndNothingElse(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	s := startServer(t, db)
	_, ann := s.register(t, "Ann")
	_, bob := s.register(t, "Bob")
	for _, q := range []string{
		`mutation{createMatch(input:{game:SOLWARIS, training:true, rated:true}){match{id}}}`,
		`mutation{createMatch(input:{game:SOLWARIS, training:true, stake:100}){match{id}}}`,
		`mutation{createMatch(input:{game:SOLWARIS, training:true, options:[{key:"training", value:"false"}]}){match{id}}}`,
	} {
		if r := s.post(t, ann, q, nil); r.code() != "BAD_USER_INPUT" {
			t.Errorf("%s: %+v, want BAD_USER_INPUT", q, r.Errors)
		}
	}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, ann, `mutation{createMatch(input:{game:SOLWARIS, training:true}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	s.must(t, ann, `mutation($m:ID!){joinMatch(matchId:$m, seat:0){seat}}`, map[string]any{"m": id}, nil)
	if r := s.post(t, bob, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": id}); r.code() != "FORBIDDEN" {
		t.Fatalf("Bob joins Ann's training: %+v, want FORBIDDEN", r.Errors)
	}
	s.must(t, ann, `mutation($m:ID!){addBot(matchId:$m){seat}}`, map[string]any{"m": id}, nil)

	// Ann plays her side; the house bot plays its own turns in the server.
	var st solwarisState
	bid, purse := false, 0
	deadline := time.Now().Add(2 * time.Minute)
	for { // the duel ends (40 rounds at most): a reason to end
		if time.Now().After(deadline) {
			t.Fatalf("the training has not ended: %+v", st.Match.State)
		}
		s.must(t, ann, solwarisStateQuery, map[string]any{"m": id}, &st)
		if st.Match.Status == "FINISHED" {
			break
		}
		purse = max(purse, st.Match.State.Purse)
		q, vars := solwarisBot(0, &st)
		if q == "" {
			time.Sleep(5 * time.Millisecond) // the bot's turn: it acts in the server
			continue
		}
		vars["m"] = id
		if r := s.post(t, ann, q, vars); len(r.Errors) > 0 {
			if r.code() == "NOT_YOUR_TURN" || r.code() == "CONFLICT" {
				continue // the bot's timer or move came first
			}
			t.Fatalf("%s %v: %+v", q, vars, r.Errors)
		}
		bid = bid || strings.Contains(q, "bid(")
	}
	if purse != solwaris.MaxBid {
		t.Errorf("Ann's purse in the training: %d, want the practice purse of %d", purse, solwaris.MaxBid)
	}
	won := slices.Contains(st.Match.Result.Winners, 0)
	want := progress.XPPerDuel + progress.XPPerRound*min(st.Match.State.Turn, progress.XPMaxRound)
	if won {
		want += progress.XPForAWin
	}
	t.Logf("%s after %d rounds, Ann won: %v, Ann bid: %v", st.Match.Result.Reason, st.Match.State.Turn, won, bid)

	type meData struct {
		Me struct {
			Xp      int
			Leagues []struct{ Key string }
			Loot    []struct{ MatchID string }
			Wallet  walletData
			Daily   []struct {
				ID       string
				Progress int
			} `json:"dailyChallenges"`
			Cooldown *struct{ Until time.Time }
		}
	}
	var me meData
	for me.Me.Xp == 0 { // the read side applies the end: a reason to end
		if time.Now().After(deadline) {
			t.Fatal("no XP after the training")
		}
		s.must(t, ann, `{me{xp leagues{key} loot{matchId} wallet{balance held{matchId amount} entries{amount reason matchId at}}
			dailyChallenges{id progress} cooldown{until}}}`, nil, &me)
	}
	m := me.Me
	if m.Xp != want {
		t.Errorf("Ann's XP after %d rounds (won %v): %d, want %d", st.Match.State.Turn, won, m.Xp, want)
	}
	if len(m.Leagues) != 0 || len(m.Loot) != 0 || m.Cooldown != nil {
		t.Errorf("training gave leagues %+v, loot %+v, a cooldown %+v", m.Leagues, m.Loot, m.Cooldown)
	}
	if w := m.Wallet; w.Balance != 1000 || len(w.Held) != 0 || len(w.Entries) != 1 || w.Entries[0].Reason != "starting grant" {
		t.Errorf("Ann's wallet after the training: %+v, want the starting grant alone", w)
	}
	for _, c := range m.Daily {
		if c.Progress != 0 {
			t.Errorf("challenge %s progressed to %d in a training", c.ID, c.Progress)
		}
	}
	s.stop(t)
	if n := lootDraws(t, db); n != 0 {
		t.Fatalf("%d draws of loot after a training", n)
	}
	if last, out := lastLine(t, "verify", "--db", db); !strings.HasSuffix(last, "all ok") {
		t.Fatalf("verify:\n%s", out)
	}
}
