package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Stakes through createMatch's own field, for the games the rules stake (UnfairChess and
// Solwaris): the winner takes the loser's stake exactly once, also when the node is
// killed with SIGKILL between the match's end and the payout.

// createStaked creates a match of game staked through the input's stake field and seats
// the joiners in order.
func (s *server) createStaked(t *testing.T, creator, gameName string, stake int, joiners ...string) string {
	t.Helper()
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, creator, `mutation($g:Game!,$s:Int!){createMatch(input:{game:$g, stake:$s}){match{id}}}`, map[string]any{"g": gameName, "s": stake}, &c)
	for seat, tok := range joiners {
		s.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": c.CreateMatch.Match.ID, "s": seat}, nil)
	}
	return c.CreateMatch.Match.ID
}

// playSolwaris plays a Solwaris duel to its end with the duel test's bots and returns its
// winners and the seat that bought the initiative (-1 if none did).
func (s *server) playSolwaris(t *testing.T, id string, tokens []string) (winners []int, payer int) {
	t.Helper()
	winners, payer, _ = s.playSolwarisUntil(t, id, tokens, 0)
	return winners, payer
}

// playSolwarisUntil plays a Solwaris duel with the duel test's bots until it ends, or
// (turn > 0) until it reaches that turn; over reports whether it ended.
func (s *server) playSolwarisUntil(t *testing.T, id string, tokens []string, turn int) (winners []int, payer int, over bool) {
	t.Helper()
	payer = -1
	var st solwarisState
	for step := 0; ; step++ {
		if step > 5000 {
			t.Fatalf("the duel has not ended after %d requests: %+v", step, st.Match.State)
		}
		acted := false
		for seat, tok := range tokens {
			s.must(t, tok, solwarisStateQuery, map[string]any{"m": id}, &st)
			if st.Match.Status == "FINISHED" {
				t.Logf("%s after %d rounds", st.Match.Result.Reason, st.Match.State.Turn)
				return st.Match.Result.Winners, payer, true
			}
			if turn > 0 && st.Match.State.Turn >= turn {
				return nil, payer, false
			}
			if q, vars := solwarisBot(seat, &st); q != "" {
				vars["m"] = id
				s.must(t, tok, q, vars, nil)
				if strings.Contains(q, "bid(") {
					payer = seat
				}
				acted = true
				break
			}
		}
		if !acted {
			t.Fatalf("the match is %s and no seat has anything to do: %+v", st.Match.Status, st.Match.State)
		}
	}
}

func TestStakedMatchesPayOnceAcrossKillNine(t *testing.T) {
	for _, gameName := range []string{"UNFAIR_CHESS", "SOLWARIS"} {
		t.Run(gameName, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "arbiter.db")
			srv, proc := startProcess(t, db, "--settle=false")
			_, ann := srv.register(t, "Ann")
			_, bob := srv.register(t, "Bob")
			tokens := []string{ann, bob}
			id := srv.createStaked(t, ann, gameName, 200, ann, bob)
			want := []int{1000, 1000}
			if gameName == "SOLWARIS" {
				// Played to its 4th turn, then Bob abandons: from turn 4 Ann keeps every
				// reward, his stake included (a duel over before then goes as it ended).
				winners, payer, over := srv.playSolwarisUntil(t, id, tokens, 4)
				if !over {
					srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
					winners = []int{0}
				}
				t.Logf("the duel: winners %v, the initiative bought by seat %d", winners, payer)
				if len(winners) == 1 {
					want[winners[0]] += 200
					want[1-winners[0]] -= 200
				}
				if payer >= 0 {
					want[payer] -= 100 // the initiative's price, paid to nobody
				}
			} else {
				srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
				want = []int{1200, 800}
			}
			// The end is stored, nothing is paid: every stake is still held.
			for seat, tok := range tokens {
				if w := srv.wallet(t, tok); len(w.Held) != 1 || w.Held[0].MatchID != id || w.Held[0].Amount < 200 {
					t.Fatalf("seat %d before the kill: %+v", seat, w)
				}
			}
			if err := proc.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = proc.Wait()
			var before syncBuffer
			if code := run(t.Context(), []string{"verify", "--db", db}, &before, &before); code != 0 || !strings.Contains(before.String(), "2 step(s) pending") {
				t.Fatalf("verify before the settlement (exit %d): %s", code, before.String())
			}
			for restart := range 2 {
				s := startServer(t, db)
				for seat, tok := range tokens {
					w := s.settledTo(t, tok, want[seat])
					if n := len(w.Entries); n != 3 {
						t.Fatalf("restart %d, seat %d: %d entries, want grant, hold, settlement: %+v", restart, seat, n, w.Entries)
					}
				}
				s.stop(t)
			}
			var out syncBuffer
			if code := run(t.Context(), []string{"verify", "--db", db}, &out, &out); code != 0 || !strings.Contains(out.String(), "ok   wallets: 2 re-derived, 2 holds over 1 matches that move coins, 0 step(s) pending") {
				t.Fatalf("verify after the settlement: %s", out.String())
			}
		})
	}
}

// The stake field and the stake option are one setting; the house bot never sits at a
// staked match; a staked match that never starts gives every stake back.
func TestStakeFieldRefundAndBot(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := s.register(t, "Ann")
	_, bob := s.register(t, "Bob")
	for _, c := range []struct{ q, code string }{
		{`mutation{createMatch(input:{game:UNFAIR_CHESS, stake:200, options:[{key:"stake", value:"300"}]}){match{id}}}`, "BAD_USER_INPUT"},
		{`mutation{createMatch(input:{game:UNFAIR_CHESS, stake:-1}){match{id}}}`, "BAD_USER_INPUT"},
		{`mutation{createMatch(input:{game:SOLWARIS, stake:1001}){match{id}}}`, "INSUFFICIENT_FUNDS"},
	} {
		if r := s.post(t, ann, c.q, nil); r.code() != c.code {
			t.Errorf("%s: %+v, want %s", c.q, r.Errors, c.code)
		}
	}
	var d struct {
		CreateMatch struct {
			Match struct {
				ID      string
				Options []struct{ Key, Value string }
			}
		}
	}
	s.must(t, ann, `mutation{createMatch(input:{game:UNFAIR_CHESS, stake:200, options:[{key:"stake", value:"200"}]}){match{id options{key value}}}}`, nil, &d)
	if o := d.CreateMatch.Match.Options; len(o) != 1 || o[0].Key != "stake" || o[0].Value != "200" {
		t.Fatalf("the options of a match staked 200: %+v", o)
	}
	id := s.createStaked(t, ann, "UNFAIR_CHESS", 300, ann)
	if r := s.post(t, ann, `mutation($m:ID!){addBot(matchId:$m){seat}}`, map[string]any{"m": id}); r.code() != "BAD_USER_INPUT" {
		t.Fatalf("the bot at a staked match: %+v", r.Errors)
	}
	if w := s.wallet(t, ann); w.Balance != 700 {
		t.Fatalf("Ann seated at a match staked 300: %+v", w)
	}
	s.must(t, ann, `mutation($m:ID!){cancelMatch(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	s.settledTo(t, ann, 1000)
	// Bob joins and leaves before the start: his stake comes back.
	id = s.createStaked(t, ann, "SOLWARIS", 250)
	s.must(t, bob, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": id}, nil)
	if w := s.wallet(t, bob); len(w.Held) != 1 || w.Held[0].Amount < 250 || w.Balance+w.Held[0].Amount != 1000 {
		t.Fatalf("Bob in a Solwaris duel staked 250 holds the stake and a purse: %+v", w)
	}
	s.must(t, bob, `mutation($m:ID!){leaveMatch(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	s.settledTo(t, bob, 1000)
}
